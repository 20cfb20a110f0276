// units.cpp: human formatting of bytes, durations, money and counts (one implementation for all UIs).
#include "llmplan/units.hpp"

#include <cmath>
#include <cstdio>

namespace llmplan {
namespace {

// Three significant digits reads well in tables: 1.23, 12.3, 123.
std::string three_digits(double v, const char* suffix) {
  char buf[64];
  const double a = std::fabs(v);
  const char* fmt = a >= 99.95 ? "%.0f%s" : (a >= 9.995 ? "%.1f%s" : "%.2f%s");
  std::snprintf(buf, sizeof buf, fmt, v, suffix);
  return buf;
}

// Writes |v| with thousands separators into a fixed buffer (no temporaries: keeps it cheap).
void group_thousands(double v, int decimals, char* out, size_t size) {
  char digits[64];
  const int len = std::snprintf(digits, sizeof digits, "%.*f", decimals, std::fabs(v));
  int int_len = len;
  for (int i = 0; i < len; ++i)
    if (digits[i] == '.') int_len = i;
  size_t o = 0;
  for (int i = 0; i < len && o + 1 < size; ++i) {
    if (i > 0 && i < int_len && (int_len - i) % 3 == 0) out[o++] = ',';
    if (o + 1 < size) out[o++] = digits[i];
  }
  out[o] = '\0';
}

}  // namespace

std::string format_bytes(double bytes, ByteUnit unit) {
  const bool bin = unit == ByteUnit::binary;
  const double k = bin ? 1024.0 : 1000.0;
  static const char* dec_names[] = {" B", " kB", " MB", " GB", " TB", " PB", " EB"};
  static const char* bin_names[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
  const char* const* names = bin ? bin_names : dec_names;
  double v = bytes;
  int i = 0;
  while (std::fabs(v) >= k * 0.9995 && i < 6) {
    v /= k;
    ++i;
  }
  if (i == 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f B", v);
    return buf;
  }
  return three_digits(v, names[i]);
}

std::string format_duration(double seconds) {
  const double a = std::fabs(seconds);
  if (a < 1.0) return three_digits(seconds * 1000.0, " ms");
  if (a < 90.0) return three_digits(seconds, " s");
  if (a < 90.0 * 60.0) return three_digits(seconds / 60.0, " min");
  if (a < 48.0 * 3600.0) return three_digits(seconds / 3600.0, " h");
  return three_digits(seconds / 86400.0, " d");
}

std::string format_money(double amount, Currency currency) {
  const char* symbol = currency == Currency::usd ? "$" : "\xC2\xA5";  // ¥ in UTF-8
  // Cents matter below a hundred (hourly prices); above that they are noise.
  const int decimals = std::fabs(amount) < 100.0 ? 2 : 0;
  char number[64];
  group_thousands(amount, decimals, number, sizeof number);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%s%s%s", amount < 0 ? "-" : "", symbol, number);
  return buf;
}

std::string format_count(double count) {
  static const char* names[] = {"", " K", " M", " B", " T", " P"};
  double v = count;
  int i = 0;
  while (std::fabs(v) >= 999.5 && i < 5) {
    v /= 1000.0;
    ++i;
  }
  if (i == 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return three_digits(v, names[i]);
}

std::string format_amount(double amount) {
  return std::fabs(amount) >= 99.95 || amount == 0 ? format_count(amount) : format_significant(amount, 3);
}

std::string format_percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", fraction * 100.0);
  return buf;
}

std::string format_number(const char* format, double a, double b, double c, double d) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, a, b, c, d);
  return buf;
}

std::string format_significant(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string join_list(const std::vector<std::string>& items, std::string_view sep, std::string_view last) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : sep;
    out += items[i];
  }
  return out;
}

}  // namespace llmplan
