// Formatting of bytes, durations, money and counts: the strings users read.
#include <doctest/doctest.h>

#include "llmplan/units.hpp"

using namespace llmplan;

TEST_CASE("bytes are decimal GB by default and GiB on request") {
  CHECK(format_bytes(15.1e9) == "15.1 GB");
  CHECK(format_bytes(120e9) == "120 GB");
  CHECK(format_bytes(1.875e9) == "1.88 GB");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(980e9) == "980 GB");
  CHECK(format_bytes(1.2e12) == "1.20 TB");
  // 80 GiB (an H100's HBM) is 85.9 GB: the two must never be confused.
  CHECK(format_bytes(80 * kGiB) == "85.9 GB");
  CHECK(format_bytes(80 * kGiB, ByteUnit::binary) == "80.0 GiB");
  CHECK(format_bytes(-2.5e9) == "-2.50 GB");
}

TEST_CASE("durations pick s, min, h or d") {
  CHECK(format_duration(0.25) == "250 ms");
  CHECK(format_duration(42) == "42.0 s");
  CHECK(format_duration(600) == "10.0 min");
  CHECK(format_duration(5400) == "1.50 h");  // 90 min reads better as hours
  CHECK(format_duration(36 * 3600) == "36.0 h");
  CHECK(format_duration(54 * 86400) == "54.0 d");  // Llama 3 405B's 54-day run
}

TEST_CASE("money groups thousands and keeps cents only below 100") {
  CHECK(format_money(1234.4, Currency::usd) == "$1,234");
  CHECK(format_money(2.5, Currency::usd) == "$2.50");
  CHECK(format_money(8765.4, Currency::cny) ==
        "\xC2\xA5"
        "8,765");
  CHECK(format_money(1234567.0, Currency::usd) == "$1,234,567");
  CHECK(format_money(-950.0, Currency::usd) == "-$950");
}

TEST_CASE("counts and percentages") {
  CHECK(format_count(6738415616.0) == "6.74 B");
  CHECK(format_count(405e9) == "405 B");
  CHECK(format_count(15e12) == "15.0 T");
  CHECK(format_count(512) == "512");
  // GPU-hours of a short run keep three significant digits; from 100 up they read as counts.
  CHECK(format_amount(0.06566) == "0.0657");
  CHECK(format_amount(42.54) == "42.5");
  CHECK(format_amount(0) == "0");
  CHECK(format_amount(512.4) == "512");
  CHECK(format_amount(1234) == "1.23 K");
  CHECK(format_percent(0.4234) == "42.3 %");
}
