# Script mode: writes IN's bytes as a C++ array named SYMBOL into OUT (a trailing NUL is added
# so text files can be read as a C string; SYMBOL_size excludes it).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
# JSON: a raw newline never sits inside a JSON string, so each newline and the indentation after it
# can go (the catalog is pretty-printed for people; the embed card's module has a 1 MB budget).
if(JSON)
  string(REGEX REPLACE "0x0a,(0x20,)*" "" body "${body}")
  string(REGEX MATCHALL "0x" bytes "${body}")
  list(LENGTH bytes size)
endif()
string(REGEX REPLACE "((0x..,){32})" "\\1\n" body "${body}")
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN}; do not edit.\n"
  "extern const unsigned char ${SYMBOL}[] = {\n${body}0x00};\n"
  "extern const unsigned long ${SYMBOL}_size = ${size};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
