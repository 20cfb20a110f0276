// units.hpp: unit constants and the one place where numbers become human text
// (bytes as GB or GiB, seconds as s/min/h/d, money, counts). The UI and CLI only call these.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

inline constexpr double kGB = 1e9;                        // decimal gigabyte (datasheets, clouds)
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;  // binary gibibyte (nvidia-smi, allocators)

enum class ByteUnit { decimal, binary };  // GB/TB (1e9) or GiB/TiB (2^30)
enum class Currency { usd, cny };
inline constexpr const char* kCurrencyNames[] = {"usd", "cny"};

std::string format_bytes(double bytes, ByteUnit unit = ByteUnit::decimal);  // "15.1 GB", "14.1 GiB"
std::string format_duration(double seconds);                                // "42 s", "3.5 min", "5.2 h", "3.1 d"
std::string format_money(double amount, Currency currency);                 // "$1,234", "¥8,765.40"
std::string format_count(double count);                                     // "6.74 B", "512 M", "70.6 T"
// An amount that need not be whole (GPU-hours): as format_count from 100 up, three significant
// digits below, so a short run's 0.0657 GPU-hours is not shown as 0.
std::string format_amount(double amount);     // 0.0657 -> "0.0657", 42.54 -> "42.5", 1234 -> "1.23 K"
std::string format_percent(double fraction);  // 0.4234 -> "42.3 %"
// A message's numbers at the precision its wording needs: printf of up to four doubles, e.g.
// ("%.1fx slower", 2.345) -> "2.3x slower"; at most 255 characters.
std::string format_number(const char* format, double a, double b = 0, double c = 0, double d = 0);
std::string format_significant(double v, int digits = 3);  // (0.012345, 3) -> "0.0123"
// "a, b, or c" with the language's separators: `sep` between items, `last` before the last one.
std::string join_list(const std::vector<std::string>& items, std::string_view sep, std::string_view last);

}  // namespace llmplan
