# Warnings applied PRIVATE to the project's own targets only (never to ImGui or generated code).
function(llmplan_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion)
endfunction()
