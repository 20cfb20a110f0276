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
