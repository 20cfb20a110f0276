# Header-only dependencies from Debian's packages (nlohmann-json3-dev, doctest-dev).
# Under Emscripten the system include dir must never be added (glibc headers break the
# Emscripten sysroot), so a build-local folder of symlinks exposes just these two.
find_path(LLMPLAN_NLOHMANN_DIR nlohmann/json.hpp PATHS /usr/include /usr/local/include
          NO_CMAKE_FIND_ROOT_PATH REQUIRED)
find_path(LLMPLAN_DOCTEST_DIR doctest/doctest.h PATHS /usr/include /usr/local/include
          NO_CMAKE_FIND_ROOT_PATH)

set(LLMPLAN_THIRD_PARTY_INCLUDE ${CMAKE_BINARY_DIR}/third_party_include)
file(MAKE_DIRECTORY ${LLMPLAN_THIRD_PARTY_INCLUDE})
file(CREATE_LINK ${LLMPLAN_NLOHMANN_DIR}/nlohmann ${LLMPLAN_THIRD_PARTY_INCLUDE}/nlohmann SYMBOLIC)
if(LLMPLAN_DOCTEST_DIR)
  file(CREATE_LINK ${LLMPLAN_DOCTEST_DIR}/doctest ${LLMPLAN_THIRD_PARTY_INCLUDE}/doctest SYMBOLIC)
endif()

add_library(llmplan_third_party INTERFACE)
target_include_directories(llmplan_third_party SYSTEM INTERFACE ${LLMPLAN_THIRD_PARTY_INCLUDE})
