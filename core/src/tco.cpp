// tco.cpp: own or rent (tco.hpp). The formulas, with their sources, are in docs/tco.md; each
// function below is one of its lines.
#include "llmplan/tco.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"

namespace llmplan {

const Server* catalog_server(const Catalog& c, const std::string& accelerator, int gpus) {
  for (const Server& s : c.servers)
    if (s.accelerator == accelerator && (gpus <= 0 || s.gpus == gpus)) return &s;
  return nullptr;
}

using detail::json;
using detail::Reader;

const OwnershipField* find_ownership_field(std::string_view id) {
  for (const OwnershipField& f : kOwnershipFields)
    if (id == f.id) return &f;
  return nullptr;
}

namespace {

const OwnershipField& spec(const char* id) { return *find_ownership_field(id); }

// An optional input number, checked against the range of the ownership field it overrides.
bool read_in(Reader& r, const json& o, const char* key, const std::string& path, const char* field,
             std::optional<double>& out) {
  if (!o.contains(key)) return r.ok();
  const OwnershipField& f = spec(field);
  double v = 0;
  if (!r.number(o, key, path, f.lo, f.hi, v)) return false;
  out = v;
  return true;
}

// A price: > 0, at most `hi`.
bool read_price(Reader& r, const json& o, const char* key, const std::string& path, double hi,
                std::optional<double>& out) {
  if (!o.contains(key)) return r.ok();
  double v = 0;
  if (!r.number(o, key, path, 0, hi, v)) return false;
  if (v <= 0)
    return r.fail(r.join(path, key),
                  "must be above 0 and at most " + Reader::num(hi) + ", got " + Reader::echo_value(o[key]));
  out = v;
  return true;
}

// An amount of money at the top level that may be 0 (no staff cost): 0..hi.
bool read_amount(Reader& r, const json& o, const char* key, double hi, std::optional<double>& out) {
  if (!o.contains(key)) return r.ok();
  double v = 0;
  if (!r.number(o, key, "", 0, hi, v)) return false;
  out = v;
  return true;
}

TcoNotice left_out_notice(const std::string& field) {
  return {"left_out", field,
          field + ": the catalog has no sourced default, so this cost is left out; give " + field + " to count it"};
}

// Catalog defaults as the question takes them: each one used is listed with its source.
class Defaults {
 public:
  Defaults(const Catalog& c, TcoQuestion& q) : c_(c), q_(q) {}
  // The value of catalog default `id` standing in for input `field`, or none when the catalog
  // holds null for it (no usable public figure).
  std::optional<double> take(const char* id, const std::string& field, double scale = 1) {
    const OwnershipDefault* d = c_.find_ownership_default(id);
    if (!d || !d->value) return std::nullopt;
    q_.assumptions.push_back({field, *d->value, d->unit, d->source, d->as_of});
    return *d->value * scale;
  }
  // An input when given, else the default, else 0 with a notice saying the cost is left out.
  double value(const std::optional<double>& given, const char* id, const std::string& field) {
    if (given) return *given;
    if (const auto v = take(id, field)) return *v;
    q_.notices.push_back(left_out_notice(field));
    return 0;
  }

 private:
  const Catalog& c_;
  TcoQuestion& q_;
};

bool read_servers(Reader& r, const json& root, const Catalog& c, Defaults& d, TcoQuestion& q) {
  const std::string p = "servers";
  if (!r.required(root, "", {"servers"}) || !r.object(root["servers"], p)) return false;
  const json& o = root["servers"];
  std::optional<double> usd, cny, power, ns, ss;
  if (!r.keys(o, p,
              {"accelerator", "gpus_per_server", "count", "price_usd", "price_cny", "network_share", "storage_share",
               "power_kw"}) ||
      !r.required(o, p, {"accelerator"}) || !r.string(o, "accelerator", p, q.accelerator))
    return false;
  const Accelerator* a = c.find_accelerator(q.accelerator);
  if (!a) {
    std::set<std::string> ids;
    for (const Accelerator& x : c.accelerators) ids.insert(x.id);
    return r.fail("servers.accelerator", "unknown accelerator " + Reader::echo(q.accelerator) +
                                             "; closest: " + detail::closest_ids(q.accelerator, ids) +
                                             "; `llmplan catalog list accelerators` prints them");
  }
  q.accelerator = a->id;
  const Server* listed = catalog_server(c, a->id, 0);
  q.gpus_per_server = listed ? listed->gpus : 8;
  if (!r.integer(o, "gpus_per_server", p, 1, 64, q.gpus_per_server) || !r.integer(o, "count", p, 1, 100000, q.count) ||
      !read_price(r, o, "price_usd", p, 1e8, usd) || !read_price(r, o, "price_cny", p, 1e9, cny) ||
      !read_price(r, o, "power_kw", p, 200, power) || !read_in(r, o, "network_share", p, "network-share", ns) ||
      !read_in(r, o, "storage_share", p, "storage-share", ss))
    return false;
  if (!within_node_bound(a->max_gpus_per_node, q.gpus_per_server))
    return r.fail("servers.gpus_per_server", "gpus_per_node_domain",
                  {std::to_string(a->max_gpus_per_node), a->id, std::to_string(q.gpus_per_server)});
  if (usd && cny) return r.fail("servers.price_cny", "give price_usd or price_cny, not both");
  const Server* server = catalog_server(c, a->id, q.gpus_per_server);
  if (usd || cny) {
    q.server_price_usd = usd ? *usd : *cny / q.usd_to_cny;
  } else if (server) {
    q.server_price_usd = server->price_usd ? *server->price_usd : *server->price_cny / q.usd_to_cny;
    q.assumptions.push_back({"servers.price_usd", q.server_price_usd, "USD per server", server->source, server->as_of});
  } else {
    return r.fail("servers.price_usd", "the catalog lists no " + std::to_string(q.gpus_per_server) + "-GPU " + a->id +
                                           " server: give servers.price_usd or servers.price_cny");
  }
  if (power) {
    q.server_power_kw = *power;
  } else if (server) {
    q.server_power_kw = server->power_kw;
    q.assumptions.push_back(
        {"servers.power_kw", server->power_kw, "kW per server (maximum)", server->source, server->as_of});
  } else if (a->tdp_w) {
    const std::optional<double> k = d.take("server-power-per-gpu-tdp", "servers.power_kw");
    if (!k) return r.fail("servers.power_kw", "is needed: the catalog has no server power ratio");
    q.server_power_kw = *k * q.gpus_per_server * *a->tdp_w / 1000;
  } else {
    return r.fail("servers.power_kw", "is needed: the catalog lists no server or TDP for " + a->id);
  }
  q.network_share = d.value(ns, "network-share", "servers.network_share");
  q.storage_share = d.value(ss, "storage-share", "servers.storage_share");
  return true;
}

bool read_power(Reader& r, const json& root, Defaults& d, TcoQuestion& q) {
  std::optional<double> usd, cny, pue;
  if (root.contains("power")) {
    const json& o = root["power"];
    if (!r.object(o, "power") || !r.keys(o, "power", {"usd_per_kwh", "cny_per_kwh", "pue"}) ||
        !read_in(r, o, "usd_per_kwh", "power", "usd-per-kwh", usd) ||
        !read_in(r, o, "cny_per_kwh", "power", "cny-per-kwh", cny) || !read_in(r, o, "pue", "power", "pue", pue))
      return false;
    if (usd && cny) return r.fail("power.cny_per_kwh", "give usd_per_kwh or cny_per_kwh, not both");
  }
  if (usd) {
    q.usd_per_kwh = *usd;
  } else if (cny) {
    q.usd_per_kwh = *cny / q.usd_to_cny;
  } else if (q.currency == Currency::cny) {
    q.usd_per_kwh = d.value(std::nullopt, "cny-per-kwh", "power.cny_per_kwh") / q.usd_to_cny;
  } else {
    q.usd_per_kwh = d.value(std::nullopt, "usd-per-kwh", "power.usd_per_kwh");
  }
  q.pue = d.value(pue, "pue", "power.pue");
  q.average_power_fraction = d.value(std::nullopt, "average-power-fraction", "average_power_fraction");
  return true;
}

// Colocation and staff: the Chinese default for a CNY question where the catalog has one.
double local_default(Defaults& d, const TcoQuestion& q, const char* usd_id, const char* cny_id,
                     const std::string& field, std::vector<TcoNotice>& notices) {
  if (q.currency == Currency::cny) {
    if (const auto v = d.take(cny_id, field)) return *v / q.usd_to_cny;
    notices.push_back({"us_figure_used", field,
                       field + ": the catalog has no sourced Chinese figure, so the US one is used, converted"});
  }
  if (const auto v = d.take(usd_id, field)) return *v;
  notices.push_back(left_out_notice(field));
  return 0;
}

bool read_workload(Reader& r, const json& root, const Catalog& c, const Calibration& cal, Defaults& d, TcoQuestion& q) {
  std::optional<double> u;
  if (!read_in(r, root, "utilisation", "", "utilisation", u)) return false;
  const double capacity = q.count * q.gpus_per_server * kHoursPerMonth;
  if (!root.contains("workload")) {
    q.utilisation = u ? *u : *d.take("utilisation", "utilisation");
    q.workload_from = "utilisation";
    q.workload_gpu_hours_per_month = q.utilisation * capacity;
    return true;
  }
  if (u) return r.fail("workload", "give utilisation or workload, not both");
  const json& o = root["workload"];
  if (!r.object(o, "workload") || !r.keys(o, "workload", {"scenario", "gpu_hours_per_month"})) return false;
  if (o.contains("scenario") == o.contains("gpu_hours_per_month"))
    return r.fail("workload", "give exactly one of scenario and gpu_hours_per_month");
  if (o.contains("gpu_hours_per_month")) {
    // From 0.001 GPU-hours a month (a small fine-tune spread over years is a few): below it the cost
    // per used GPU-hour leaves the numbers a double holds.
    double h = 0;
    if (!r.number(o, "gpu_hours_per_month", "workload", 0.001, 1e9, h)) return false;
    q.workload_gpu_hours_per_month = h;
    q.workload_from = "gpu_hours_per_month";
  } else {
    const ScenarioParse s = parse_scenario(o["scenario"].dump(), c);
    if (!s.scenario) return r.fail_inside("workload.scenario.", s.error);
    if (s.scenario->cluster.accelerator != q.accelerator)
      return r.fail("workload.scenario", "tco_other_accelerator", {s.scenario->cluster.accelerator, q.accelerator});
    const EstimateResult e = estimate(*s.scenario, cal);
    if (!(e.reliability.gpu_hours > 0)) return r.fail("workload.scenario.tokens", "tco_tokens", {});
    // The run happens once within the horizon: its GPU-hours spread over the months.
    q.workload_gpu_hours_per_month = e.reliability.gpu_hours / q.horizon_months;
    q.workload_from = "scenario";
  }
  q.utilisation = q.workload_gpu_hours_per_month / capacity;
  if (q.utilisation > 1) {
    const double servers = std::ceil(q.workload_gpu_hours_per_month / (q.gpus_per_server * kHoursPerMonth));
    return r.fail("workload", "tco_capacity",
                  {Reader::num(std::round(q.workload_gpu_hours_per_month)), std::to_string(q.count * q.gpus_per_server),
                   Reader::num(capacity), Reader::num(servers)});
  }
  return true;
}

// {"on_demand": 2.1, "spot": 0.9}: the user's quotes, each replacing the catalog's cheapest offering.
bool read_quotes(Reader& r, const json& root, TcoQuestion& q) {
  if (!root.contains("rent_usd_per_gpu_hour")) return true;
  const json& o = root["rent_usd_per_gpu_hour"];
  const std::string p = "rent_usd_per_gpu_hour";
  if (!r.object(o, p) || !r.keys(o, p, {kRentModeNames[0], kRentModeNames[1], kRentModeNames[2], kRentModeNames[3]}))
    return false;
  for (int m = 0; m < 4; ++m)
    if (!read_price(r, o, kRentModeNames[m], p, 1000, q.rent_quote_usd[m])) return false;
  return true;
}

bool read_question(Reader& r, const json& root, const Catalog& c, const Calibration& cal, TcoQuestion& q) {
  if (!r.object(root, "") ||
      !r.keys(root, "",
              {"servers", "depreciation_years", "residual_fraction", "power", "colocation_usd_per_kw_month",
               "colocation_cny_per_kw_month", "staff_usd_per_month", "staff_cny_per_month", "lead_time_days",
               "utilisation", "workload", "horizon_months", "currency", "rent_usd_per_gpu_hour"}))
    return false;
  if (c.ownership.empty())
    return r.fail("(catalog)", "catalog " + c.catalog_version + " has no ownership defaults (from 2026.12.4 on)");
  q.usd_to_cny = c.currency.usd_to_cny;
  if (!r.choice(root, "currency", "", {"usd", "cny"}, q.currency)) return false;
  Defaults d(c, q);
  std::optional<double> years, residual, colo, colo_cny, lead, staff, staff_cny;
  if (!read_servers(r, root, c, d, q) || !read_in(r, root, "depreciation_years", "", "depreciation-years", years) ||
      !read_in(r, root, "residual_fraction", "", "residual-fraction", residual) || !read_power(r, root, d, q) ||
      !read_in(r, root, "colocation_usd_per_kw_month", "", "colocation-usd-per-kw-month", colo) ||
      !read_in(r, root, "colocation_cny_per_kw_month", "", "colocation-cny-per-kw-month", colo_cny) ||
      !read_amount(r, root, "staff_usd_per_month", 1e8, staff) ||
      !read_amount(r, root, "staff_cny_per_month", 1e9, staff_cny) ||
      !read_in(r, root, "lead_time_days", "", "lead-time-days", lead))
    return false;
  if (colo && colo_cny)
    return r.fail("colocation_cny_per_kw_month",
                  "give colocation_usd_per_kw_month or colocation_cny_per_kw_month, not both");
  if (staff && staff_cny)
    return r.fail("staff_cny_per_month", "give staff_usd_per_month or staff_cny_per_month, not both");
  // A yuan figure converts at the catalog's dated rate, as servers.price_cny and power.cny_per_kwh do.
  if (colo_cny) colo = *colo_cny / q.usd_to_cny;
  if (staff_cny) staff = *staff_cny / q.usd_to_cny;
  q.depreciation_years = d.value(years, "depreciation-years", "depreciation_years");
  q.residual_fraction = d.value(residual, "residual-fraction", "residual_fraction");
  q.colocation_usd_per_kw_month =
      colo ? *colo
           : local_default(d, q, "colocation-usd-per-kw-month", "colocation-cny-per-kw-month",
                           "colocation_usd_per_kw_month", q.notices);
  q.staff_usd_per_month = staff
                              ? *staff
                              : q.count * local_default(d, q, "staff-usd-per-server-month",
                                                        "staff-cny-per-server-month", "staff_usd_per_month", q.notices);
  q.lead_time_days = d.value(lead, "lead-time-days", "lead_time_days");
  q.horizon_months = static_cast<int>(std::lround(q.depreciation_years * 12));
  if (!r.integer(root, "horizon_months", "", 1, kMaxHorizonMonths, q.horizon_months)) return false;
  return read_quotes(r, root, q) && read_workload(r, root, c, cal, d, q);
}

}  // namespace

TcoParse parse_tco(std::string_view text, const Catalog& catalog, const Calibration& cal) {
  TcoParse out;
  std::string problem, at;
  const json root = detail::parse_checked(text, problem, &at);
  Reader r(out.error);
  if (root.is_discarded()) {
    r.fail(at.empty() ? "(question)" : at,
           "not valid JSON: " + (problem.empty() ? std::string("unreadable") : problem));
    return out;
  }
  TcoQuestion q;
  if (!read_question(r, root, catalog, cal, q)) return out;
  out.question = std::move(q);
  return out;
}

namespace {

// The cheapest offering of the accelerator in each way of renting, per GPU-hour in USD.
std::vector<RentOption> rent_options(const TcoQuestion& q, const Catalog& c) {
  static constexpr PricingMode kModes[] = {PricingMode::on_demand, PricingMode::reserved_1yr, PricingMode::reserved_3yr,
                                           PricingMode::spot};
  std::vector<RentOption> out;
  for (int m = 0; m < 4; ++m) {
    RentOption best;
    best.mode = static_cast<RentMode>(m);
    // Reserved capacity is paid for every hour, used or not.
    best.committed = best.mode == RentMode::reserved_1yr || best.mode == RentMode::reserved_3yr;
    if (q.rent_quote_usd[m]) {
      best.usd_per_gpu_hour = *q.rent_quote_usd[m];
      out.push_back(best);
      continue;
    }
    bool found = false;
    for (const Instance& in : c.instances) {
      // Offerings rented by the month are a commitment, not on-demand or spot renting.
      if (in.accelerator != q.accelerator || (in.min_billing_hours && *in.min_billing_hours >= kHoursPerMonth))
        continue;
      const std::optional<double> p = offering_usd_per_gpu_hour(in, kModes[m], c.currency.usd_to_cny);
      if (!p || (found && *p >= best.usd_per_gpu_hour)) continue;
      found = true;
      best.instance = in.id;
      best.usd_per_gpu_hour = *p;
    }
    if (found) out.push_back(best);
  }
  return out;
}

// Owning's cumulative cash after m months: the capex at the order, the lead time bridged by
// renting at `bridge` a month, then the cash costs.
double own_cumulative(const OwnCost& o, double bridge, double m) {
  return o.capex_usd + bridge * std::min(m, o.delivery_months) +
         o.cash_monthly_usd * std::max(0.0, m - o.delivery_months);
}

// The first month at which owning has cost no more than renting at `rent` a month, or none: on
// the two straight pieces of own_cumulative (before and after delivery).
std::optional<double> break_even_months(const OwnCost& o, double bridge, double rent) {
  if (rent > bridge) {
    const double m = o.capex_usd / (rent - bridge);
    if (m <= o.delivery_months) return m;
  }
  if (rent > o.cash_monthly_usd) {
    const double m = (o.capex_usd + (bridge - o.cash_monthly_usd) * o.delivery_months) / (rent - o.cash_monthly_usd);
    if (m >= o.delivery_months) return m;
  }
  return std::nullopt;
}

}  // namespace

TcoResult tco(const TcoQuestion& q, const Catalog& catalog) {
  TcoResult r;
  OwnCost& o = r.own;
  o.gpus = q.count * q.gpus_per_server;
  const double hours_used = q.workload_gpu_hours_per_month;
  const double kw_max = q.count * q.server_power_kw;
  o.capex_usd = q.count * q.server_price_usd * (1 + q.network_share + q.storage_share);
  o.depreciation_usd = o.capex_usd * (1 - q.residual_fraction) / (q.depreciation_years * 12);
  o.power_kw_average = kw_max * q.average_power_fraction * q.pue;
  // Energy is drawn while the GPUs work; colocation is billed on the IT load contracted.
  const double power_full_usd = o.power_kw_average * kHoursPerMonth * q.usd_per_kwh;
  o.power_usd = power_full_usd * q.utilisation;
  o.colocation_usd = kw_max * q.colocation_usd_per_kw_month;
  o.staff_usd = q.staff_usd_per_month;
  o.monthly_usd = o.depreciation_usd + o.power_usd + o.colocation_usd + o.staff_usd;
  o.cash_monthly_usd = o.power_usd + o.colocation_usd + o.staff_usd;
  o.usd_per_gpu_hour = o.monthly_usd / hours_used;
  o.delivery_months = q.lead_time_days / kDaysPerMonth;

  r.rent = rent_options(q, catalog);
  const double fixed = o.depreciation_usd + o.colocation_usd + o.staff_usd;
  const double capacity = o.gpus * kHoursPerMonth;
  for (RentOption& x : r.rent) {
    x.monthly_usd = x.usd_per_gpu_hour * (x.committed ? capacity : hours_used);
    // Pay-per-use renting costs p x capacity x u a month against owning's fixed + power x u.
    const double margin = x.usd_per_gpu_hour * capacity - power_full_usd;
    if (!x.committed && margin > 0 && fixed / margin <= 1) x.break_even_utilisation = fixed / margin;
  }
  const double bridge = r.rent.empty() || r.rent[0].mode != RentMode::on_demand ? 0 : r.rent[0].monthly_usd;
  for (RentOption& x : r.rent) x.break_even_months = break_even_months(o, bridge, x.monthly_usd);
  for (int m = 0; m <= q.horizon_months; ++m) {
    std::vector<double> row = {own_cumulative(o, bridge, m)};
    for (const RentOption& x : r.rent) row.push_back(x.monthly_usd * m);
    r.series.push_back(std::move(row));
  }
  return r;
}

namespace {

using ojson = nlohmann::ordered_json;

// Both currencies of one money figure: key_usd and key_cny.
void money(ojson& j, const std::string& key, double usd, double rate) {
  j[key + "_usd"] = usd;
  j[key + "_cny"] = usd * rate;
}

ojson optional_json(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson own_json(const TcoQuestion& q, const OwnCost& o) {
  const double k = q.usd_to_cny;
  ojson j;
  j["servers"] = q.count;
  j["gpus"] = o.gpus;
  j["utilisation"] = q.utilisation;
  j["gpu_hours_per_month"] = q.workload_gpu_hours_per_month;
  money(j, "capex", o.capex_usd, k);
  money(j, "monthly", o.monthly_usd, k);
  j["usd_per_gpu_hour"] = o.usd_per_gpu_hour;
  j["cny_per_gpu_hour"] = o.usd_per_gpu_hour * k;
  money(j, "cash_monthly", o.cash_monthly_usd, k);
  ojson b;
  money(b, "depreciation", o.depreciation_usd, k);
  money(b, "power", o.power_usd, k);
  money(b, "colocation", o.colocation_usd, k);
  money(b, "staff", o.staff_usd, k);
  j["monthly_breakdown"] = b;
  j["power_kw_average"] = o.power_kw_average;
  j["delivery_months"] = o.delivery_months;
  money(j, "residual", q.count * q.server_price_usd * q.residual_fraction, k);
  return j;
}

ojson rent_json(const TcoQuestion& q, const RentOption& x, const Catalog& c) {
  const double k = q.usd_to_cny;
  const Instance* in = c.find_instance(x.instance);
  ojson j;
  j["mode"] = kRentModeNames[static_cast<int>(x.mode)];
  j["instance"] = x.instance.empty() ? ojson(nullptr) : ojson(x.instance);
  j["provider"] = in ? ojson(in->provider) : ojson(nullptr);
  j["source"] = x.instance.empty() ? "rent_usd_per_gpu_hour" : "catalog";
  j["usd_per_gpu_hour"] = x.usd_per_gpu_hour;
  j["cny_per_gpu_hour"] = x.usd_per_gpu_hour * k;
  j["billing"] = x.committed ? "committed" : "used_hours";
  money(j, "monthly", x.monthly_usd, k);
  j["break_even"] = {{"utilisation", optional_json(x.break_even_utilisation)},
                     {"months", optional_json(x.break_even_months)}};
  return j;
}

ojson question_json(const TcoQuestion& q) {
  return {{"servers",
           {{"accelerator", q.accelerator},
            {"gpus_per_server", q.gpus_per_server},
            {"count", q.count},
            {"price_usd", q.server_price_usd},
            {"power_kw", q.server_power_kw},
            {"network_share", q.network_share},
            {"storage_share", q.storage_share}}},
          {"depreciation_years", q.depreciation_years},
          {"residual_fraction", q.residual_fraction},
          {"power", {{"usd_per_kwh", q.usd_per_kwh}, {"pue", q.pue}, {"average_fraction", q.average_power_fraction}}},
          {"colocation_usd_per_kw_month", q.colocation_usd_per_kw_month},
          {"staff_usd_per_month", q.staff_usd_per_month},
          {"lead_time_days", q.lead_time_days},
          {"utilisation", q.utilisation},
          {"workload_from", q.workload_from},
          {"horizon_months", q.horizon_months},
          {"currency", kCurrencyNames[static_cast<int>(q.currency)]}};
}

}  // namespace

TcoJsonResponse tco_json(std::string_view question_json_text, const Catalog& catalog, const Calibration& cal) {
  TcoJsonResponse out;
  const TcoParse p = parse_tco(question_json_text, catalog, cal);
  if (!p.question) {
    out.error = p.error;
    out.body = json{{"error", {{"field", p.error.field}, {"message", p.error.message}}}}.dump();
    return out;
  }
  const TcoQuestion& q = *p.question;
  const TcoResult r = tco(q, catalog);
  ojson body;
  body["catalog_version"] = catalog.catalog_version;
  body["usd_to_cny"] = q.usd_to_cny;
  body["question"] = question_json(q);
  body["own"] = own_json(q, r.own);
  body["rent"] = ojson::array();
  for (const RentOption& x : r.rent) body["rent"].push_back(rent_json(q, x, catalog));
  body["series"] = ojson::array();
  for (size_t m = 0; m < r.series.size(); ++m) {
    ojson row;
    row["month"] = m;
    money(row, "own", r.series[m][0], q.usd_to_cny);
    for (size_t i = 0; i < r.rent.size(); ++i)
      money(row, kRentModeNames[static_cast<int>(r.rent[i].mode)], r.series[m][i + 1], q.usd_to_cny);
    body["series"].push_back(row);
  }
  body["assumptions"] = ojson::array();
  for (const Assumption& a : q.assumptions)
    body["assumptions"].push_back(
        {{"field", a.field}, {"value", a.value}, {"unit", a.unit}, {"source", a.source}, {"as_of", a.as_of}});
  body["notices"] = ojson::array();
  for (const TcoNotice& n : q.notices)
    body["notices"].push_back({{"code", n.code}, {"field", n.field}, {"message", n.message}});
  out.ok = true;
  out.body = body.dump(2);
  return out;
}

}  // namespace llmplan
