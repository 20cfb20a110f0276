# The UI font: DejaVu Sans (fonts-dejavu-core) for Latin text merged with Droid Sans Fallback
# (fonts-droid-fallback) for Simplified Chinese, each subset with pyftsubset (python3-fonttools)
# to the characters of the UI string table, then embedded into the wasm (no extra request).
# The system python is used on purpose: python3-fonttools installs into it, not into a pyenv/venv.
find_program(LLMPLAN_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH REQUIRED)
execute_process(COMMAND ${LLMPLAN_SYSTEM_PYTHON} -c "import fontTools.subset" RESULT_VARIABLE fonttools_missing
                OUTPUT_QUIET ERROR_QUIET)
if(fonttools_missing)
  message(FATAL_ERROR "fontTools is missing for ${LLMPLAN_SYSTEM_PYTHON}: install the Debian package python3-fonttools")
endif()
find_file(LLMPLAN_FONT_LATIN DejaVuSans.ttf PATHS /usr/share/fonts/truetype/dejavu NO_CMAKE_FIND_ROOT_PATH REQUIRED)
find_file(LLMPLAN_FONT_CJK DroidSansFallbackFull.ttf PATHS /usr/share/fonts/truetype/droid NO_CMAKE_FIND_ROOT_PATH
          REQUIRED)

function(llmplan_font target symbol font text_file)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/fonts/${symbol}.ttf)
  # Printable ASCII and Latin-1 are always kept: numbers, units and names users type.
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/fonts
    COMMAND ${LLMPLAN_SYSTEM_PYTHON} -m fontTools.subset ${font} --text-file=${text_file} --unicodes=U+0020-007E,U+00A0-00FF
            --layout-features= --no-hinting --desubroutinize --output-file=${out}
    DEPENDS ${font} ${text_file}
    COMMENT "Subsetting ${font}"
    VERBATIM)
  llmplan_embed(${target} ${symbol} ${out})
endfunction()
