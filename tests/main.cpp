// The doctest main, shared by every test_<topic>.cpp (nlohmann/json's unit.cpp layout).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
