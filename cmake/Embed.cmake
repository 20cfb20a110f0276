# llmplan_embed(TARGET SYMBOL FILE): a static library holding FILE's bytes as
#   extern const unsigned char SYMBOL[]; extern const unsigned long SYMBOL_size;
# regenerated whenever FILE changes (Tracy's Embed() idea, without compression).
function(llmplan_embed target symbol file)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.cpp)
  set(json 0)
  if(file MATCHES "\\.json$")
    set(json 1)  # embedded without its newlines and indentation (EmbedFile.cmake)
  endif()
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYMBOL=${symbol} -DJSON=${json}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
    DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
    COMMENT "Embedding ${file}"
    VERBATIM)
  add_library(${target} STATIC ${out})
endfunction()

# llmplan_embed_packed(TARGET SYMBOL FILE): as llmplan_embed, with FILE packed by cmake/lz_pack.py
# (JSON newlines and indentation removed, then raw DEFLATE from Python's zlib): the catalog, the
# validation residuals and the model-change log shrink about fivefold in every binary, the embed
# card's 1 MB module too. Read them
# with llmplan::detail::unpack_embedded (core/src/embedded.hpp).
find_program(LLMPLAN_PYTHON NAMES python3 NO_CMAKE_FIND_ROOT_PATH REQUIRED)
function(llmplan_embed_packed target symbol file)
  set(packed ${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.lz)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/embed
    COMMAND ${LLMPLAN_PYTHON} ${PROJECT_SOURCE_DIR}/cmake/lz_pack.py ${file} ${packed}
    COMMAND ${CMAKE_COMMAND} -DIN=${packed} -DOUT=${out} -DSYMBOL=${symbol} -DJSON=0
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
    DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake ${PROJECT_SOURCE_DIR}/cmake/lz_pack.py
    COMMENT "Packing and embedding ${file}"
    VERBATIM)
  add_library(${target} STATIC ${out})
endfunction()
