// tco.hpp: own or rent. Buying GPU servers against renting the same GPUs by the hour (on demand,
// reserved, spot): the owned cost per GPU-hour at a utilisation, the break-even utilisation and
// month against each way of renting, and the cumulative cost month by month. Every default comes
// from the catalog (servers.json, ownership.json) with its dated source and is listed in the
// answer's `assumptions`. Formulas: docs/tco.md.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;
struct Calibration;
struct Server;

// The defaults of the calculation, each an entry of catalog/ownership.json with this id (the
// input field it stands for, with hyphens: catalog ids have no underscores) and the range the catalog and the input are
// both checked against. Nullable: the catalog may say no usable public figure exists (the calculation then leaves that
// cost out and says so).
struct OwnershipField {
  const char* id;
  const char* unit;
  double lo, hi;
  bool nullable;
};
inline constexpr OwnershipField kOwnershipFields[] = {
    {"depreciation-years", "years", 1, 15, false},
    {"residual-fraction", "fraction of the price", 0, 0.95, false},
    {"pue", "ratio", 1, 3, false},
    {"usd-per-kwh", "USD/kWh", 0, 10, false},
    {"cny-per-kwh", "CNY/kWh", 0, 70, false},
    {"average-power-fraction", "fraction of the server's maximum power", 0.05, 1, false},
    {"server-power-per-gpu-tdp", "server kW / (GPUs x GPU TDP kW)", 1, 4, false},
    {"colocation-usd-per-kw-month", "USD/kW-month", 0, 5000, false},
    {"colocation-cny-per-kw-month", "CNY/kW-month", 0, 35000, true},
    {"staff-usd-per-server-month", "USD/server-month", 0, 1e5, true},
    {"staff-cny-per-server-month", "CNY/server-month", 0, 7e5, true},
    {"lead-time-days", "days", 0, 730, false},
    {"network-share", "fraction of the servers' price", 0, 2, false},
    {"storage-share", "fraction of the servers' price", 0, 2, true},
    {"utilisation", "fraction of the hours", 0.01, 1, false},
};
const OwnershipField* find_ownership_field(std::string_view id);

inline constexpr double kHoursPerMonth = 730;  // 8760 / 12, as the clouds bill a month
inline constexpr double kDaysPerMonth = 365.0 / 12;
inline constexpr int kMaxHorizonMonths = 180;

enum class RentMode { on_demand, reserved_1yr, reserved_3yr, spot };
inline constexpr const char* kRentModeNames[] = {"on_demand", "reserved_1yr", "reserved_3yr", "spot"};

// A default taken from the catalog, as the answer lists it.
struct Assumption {
  std::string field;  // the input field it stands in for ("power.pue")
  double value = 0;
  std::string unit, source, as_of;
};

// A default the catalog could not give. Codes (a contract, like warning codes): `left_out` (the
// cost is not counted), `us_figure_used` (no Chinese figure: the US one, converted).
struct TcoNotice {
  std::string code, field, message;
};

struct TcoQuestion {
  std::string accelerator;
  int gpus_per_server = 8;
  int count = 1;
  double server_price_usd = 0;
  double server_power_kw = 0;  // maximum draw of one server
  double network_share = 0, storage_share = 0;
  double depreciation_years = 5, residual_fraction = 0;
  double usd_per_kwh = 0, pue = 1, average_power_fraction = 1;
  double colocation_usd_per_kw_month = 0, staff_usd_per_month = 0, lead_time_days = 0;
  double utilisation = 0;  // of the owned GPUs' hours; from the workload when one is given
  double workload_gpu_hours_per_month = 0;
  std::string workload_from;  // "utilisation", "gpu_hours_per_month" or "scenario"
  int horizon_months = 60;
  // A quoted rent price per GPU-hour (USD) for a mode, used instead of the catalog's cheapest offering.
  std::optional<double> rent_quote_usd[4];
  Currency currency = Currency::usd;
  double usd_to_cny = 1;
  std::vector<Assumption> assumptions;
  std::vector<TcoNotice> notices;  // costs left out, or taken from another country, for want of a sourced default
};

struct TcoParse {
  std::optional<TcoQuestion> question;
  InputError error;
};

// Strict: unknown keys, wrong types and values out of range are refused naming the field.
TcoParse parse_tco(std::string_view json_text, const Catalog& catalog, const Calibration& cal);

struct OwnCost {
  int gpus = 0;
  double capex_usd = 0;
  double depreciation_usd = 0, power_usd = 0, colocation_usd = 0, staff_usd = 0;  // a month, at the utilisation
  double monthly_usd = 0;                                                         // the four above
  double cash_monthly_usd = 0;  // without depreciation: what leaves the account each month
  double usd_per_gpu_hour = 0;  // monthly / GPU-hours used a month
  double power_kw_average = 0;  // drawn from the grid while busy, PUE included
  double delivery_months = 0;
};

struct RentOption {
  RentMode mode = RentMode::on_demand;
  std::string instance;         // the cheapest catalog offering of this accelerator in this mode; "" for a quote
  double usd_per_gpu_hour = 0;  // its list price per GPU-hour
  bool committed = false;       // reserved or rented by the month: paid for every hour, used or not
  double monthly_usd = 0;       // the workload a month in this mode
  std::optional<double> break_even_utilisation;  // owning is cheaper per used GPU-hour above it
  std::optional<double> break_even_months;       // owning's cumulative cash falls below renting's
};

struct TcoResult {
  OwnCost own;
  std::vector<RentOption> rent;
  // Cumulative USD per month 0..horizon: owning, then each rent option in `rent` order.
  std::vector<std::vector<double>> series;
};

TcoResult tco(const TcoQuestion& q, const Catalog& catalog);

struct TcoJsonResponse {
  bool ok = false;
  std::string body;  // the answer JSON, or {"error": {"field", "message"}}
  InputError error;
};

// `llmplan tco` and window.llmplan.tco both call exactly this.
TcoJsonResponse tco_json(std::string_view question_json, const Catalog& catalog, const Calibration& cal);

// The catalog's server of `gpus` accelerators of this kind (any count when gpus <= 0), or nullptr.
const Server* catalog_server(const Catalog& c, const std::string& accelerator, int gpus);

}  // namespace llmplan
