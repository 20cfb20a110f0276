#!/bin/sh
# ctest runs each doctest test case by name, and doctest_discover_tests splits a name at a
# semicolon into entries that run nothing and pass: refuse such names. (A semicolon cannot be
# written in a CMake regular expression property, so this looks for it with grep.)
semicolon=$(printf '\073')
names=$("$1" --list-test-cases) || exit 1
if printf '%s\n' "$names" | grep -F "$semicolon"; then
  echo "test case names above contain a semicolon: ctest would not run them" >&2
  exit 1
fi
