// Own or rent (tco.hpp) and compute-optimal tokens (scaling.hpp), checked against hand counts.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/link.hpp"
#include "llmplan/scaling.hpp"
#include "llmplan/tco.hpp"

using namespace llmplan;

namespace {

nlohmann::json answer(const std::string& question) {
  const TcoJsonResponse r = tco_json(question, builtin_catalog(), default_calibration());
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return nlohmann::json::parse(r.body);
}

InputError refusal(const std::string& question) {
  const TcoJsonResponse r = tco_json(question, builtin_catalog(), default_calibration());
  CHECK_FALSE(r.ok);
  return r.error;
}

// One 8 x H100 server with every figure given, so the hand count below holds whatever the
// catalog's defaults become: the DGX H100's 10.2 kW maximum, Epoch AI's 0.75 average draw and
// PUE 1.25, 0.0826 USD/kWh (EIA 2025 industrial), CBRE's 184.06 USD/kW-month, one administrator
// per 20 servers at the BLS median (377.17 USD), 5 years, network 23.5 % of the price.
const char* kH100 = R"({"servers": {"accelerator": "h100-sxm5-80gb", "gpus_per_server": 8, "count": 1,
  "price_usd": 296644, "power_kw": 10.2, "network_share": 0.235, "storage_share": 0},
  "depreciation_years": 5, "residual_fraction": 0, "power": {"usd_per_kwh": 0.0826, "pue": 1.25},
  "colocation_usd_per_kw_month": 184.06, "staff_usd_per_month": 377.17, "lead_time_days": 70,
  "utilisation": 0.6, "rent_usd_per_gpu_hour": {"on_demand": 2.0}})";

}  // namespace

TEST_CASE("own: an 8 x H100 server at 60 % utilisation, by hand") {
  const nlohmann::json a = answer(kH100);
  const nlohmann::json& o = a["own"];
  // capex = 296,644 x (1 + 0.235) = 366,355.34
  CHECK(o["capex_usd"].get<double>() == doctest::Approx(366355.34));
  const nlohmann::json& b = o["monthly_breakdown"];
  // depreciation = 366,355.34 / 60 months = 6,105.92
  CHECK(b["depreciation_usd"].get<double>() == doctest::Approx(6105.922333));
  // power = 10.2 kW x 0.75 x 1.25 x 730 h x 0.0826 USD x 0.6 = 345.96
  CHECK(b["power_usd"].get<double>() == doctest::Approx(345.959775));
  // colocation = 10.2 kW x 184.06 = 1,877.41
  CHECK(b["colocation_usd"].get<double>() == doctest::Approx(1877.412));
  CHECK(b["staff_usd"].get<double>() == doctest::Approx(377.17));
  // a month = 6,105.92 + 345.96 + 1,877.41 + 377.17 = 8,706.46; over 8 x 730 x 0.6 = 3,504 GPU-hours
  CHECK(o["monthly_usd"].get<double>() == doctest::Approx(8706.464108));
  CHECK(o["gpu_hours_per_month"].get<double>() == doctest::Approx(3504));
  CHECK(o["usd_per_gpu_hour"].get<double>() == doctest::Approx(2.484721).epsilon(1e-6));
  CHECK(a["assumptions"].size() == 1);  // only the average draw is the catalog's here
  CHECK(a["assumptions"][0]["field"] == "average_power_fraction");
}

TEST_CASE("own: break-even utilisation and month against a stated on-demand price of 2.00 USD per GPU-hour") {
  const nlohmann::json a = answer(kH100);
  const nlohmann::json& od = a["rent"][0];
  REQUIRE(od["mode"] == "on_demand");
  CHECK(od["source"] == "rent_usd_per_gpu_hour");
  CHECK(od["billing"] == "used_hours");
  // Fixed a month F = 6,105.92 + 1,877.41 + 377.17 = 8,360.50; power at full use V = 576.60.
  // Renting costs 2.00 x 8 x 730 x u = 11,680 u; owning F + V u: equal at u = F / (11,680 - V)
  // = 8,360.50 / 11,103.40 = 0.75297.
  CHECK(od["break_even"]["utilisation"].get<double>() == doctest::Approx(0.752968).epsilon(1e-5));
  // At u = 0.6 renting costs 7,008 a month, owning's cash 2,600.54 after delivery at 70 / 30.42 =
  // 2.30 months, the lead time bridged by renting: (366,355.34 + (7,008 - 2,600.54) x 2.30) /
  // (7,008 - 2,600.54) = 85.42 months.
  CHECK(od["break_even"]["months"].get<double>() == doctest::Approx(85.4230516).epsilon(1e-6));
  // The series starts at the capex against nothing, and owning is still dearer at month 60.
  CHECK(a["series"][0]["own_usd"].get<double>() == doctest::Approx(366355.34));
  CHECK(a["series"][0]["on_demand_usd"].get<double>() == 0);
  CHECK(a["series"].size() == 61);
  CHECK(a["series"][60]["own_usd"] > a["series"][60]["on_demand_usd"]);
  // Above the break-even utilisation owning wins per GPU-hour: at 0.8, (8,360.50 + 0.8 x 576.60) /
  // (5,840 x 0.8) = 8,821.78 / 4,672 = 1.88822 < 2.00.
  std::string busy = kH100;
  busy.replace(busy.find("\"utilisation\": 0.6"), 18, "\"utilisation\": 0.8");
  CHECK(answer(busy)["own"]["usd_per_gpu_hour"].get<double>() == doctest::Approx(1.888224).epsilon(1e-6));
}

TEST_CASE("own: doubling the electricity price raises only the power line") {
  std::string twice = kH100;
  twice.replace(twice.find("0.0826"), 6, "0.1652");
  const nlohmann::json a = answer(kH100)["own"], b = answer(twice)["own"];
  const auto& x = a["monthly_breakdown"];
  const auto& y = b["monthly_breakdown"];
  CHECK(y["power_usd"].get<double>() == doctest::Approx(2 * x["power_usd"].get<double>()));
  for (const char* k : {"depreciation_usd", "colocation_usd", "staff_usd"}) CHECK(y[k] == x[k]);
  CHECK(b["capex_usd"] == a["capex_usd"]);
  CHECK(b["monthly_usd"].get<double>() - a["monthly_usd"].get<double>() ==
        doctest::Approx(x["power_usd"].get<double>()));
}

TEST_CASE("own: CNY figures at the catalog's dated exchange rate, and a price given in CNY") {
  const double rate = builtin_catalog().currency.usd_to_cny;
  CHECK(rate == 6.733);  // CFETS central parity, 9 Oct 2026 (catalog/currency.json)
  const nlohmann::json a = answer(kH100);
  CHECK(a["own"]["capex_cny"].get<double>() == doctest::Approx(366355.34 * 6.733));
  CHECK(a["rent"][0]["monthly_cny"].get<double>() == doctest::Approx(7008 * 6.733));
  CHECK(a["series"][12]["own_cny"].get<double>() == doctest::Approx(a["series"][12]["own_usd"].get<double>() * 6.733));
  // An 8 x A800 server at 1,450,000 CNY: 1,450,000 / 6.733 = 215,357.19 USD before the network share.
  const nlohmann::json c = answer(
      R"({"servers": {"accelerator": "a800-sxm4-80gb", "price_cny": 1450000, "network_share": 0}, "currency": "cny"})");
  CHECK(c["question"]["servers"]["price_usd"].get<double>() == doctest::Approx(215357.19).epsilon(1e-7));
  CHECK(c["own"]["capex_cny"].get<double>() == doctest::Approx(1450000));
}

TEST_CASE("own: every default comes from the catalog with its source, and costs without one are named") {
  const nlohmann::json a = answer(R"({"servers": {"accelerator": "h100-sxm5-80gb"}})");
  std::set<std::string> fields;
  for (const auto& x : a["assumptions"]) {
    fields.insert(x["field"].get<std::string>());
    CHECK_FALSE(x["source"].get<std::string>().empty());
    CHECK_FALSE(x["as_of"].get<std::string>().empty());
  }
  for (const char* f :
       {"servers.price_usd", "servers.power_kw", "servers.network_share", "power.usd_per_kwh", "power.pue",
        "depreciation_years", "colocation_usd_per_kw_month", "staff_usd_per_month", "lead_time_days", "utilisation"})
    CHECK_MESSAGE(fields.count(f), f);
  // The catalog holds no sourced storage share: the answer says storage is not counted.
  REQUIRE(a["notices"].size() == 1);
  CHECK(a["notices"][0]["code"] == "left_out");
  CHECK(a["notices"][0]["field"] == "servers.storage_share");
  // A CNY question takes the Chinese defaults, and the US colocation price where none is sourced.
  const nlohmann::json c = answer(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "currency": "cny"})");
  std::set<std::string> codes;
  for (const auto& n : c["notices"]) codes.insert(n["code"].get<std::string>() + " " + n["field"].get<std::string>());
  CHECK(codes == std::set<std::string>{"left_out servers.storage_share", "us_figure_used colocation_usd_per_kw_month"});
  // 0.59 CNY/kWh (China's 2024 industrial average) at 6.733 CNY per USD.
  CHECK(c["question"]["power"]["usd_per_kwh"].get<double>() == doctest::Approx(0.59 / 6.733));
  // Horizon: the depreciation life, 5 years.
  CHECK(a["series"].size() == 61);
}

TEST_CASE("own: colocation and staff given in yuan convert at the catalog's rate") {
  // 1,200 CNY per kW-month and 9,000 CNY a month at 6.733 CNY per USD: 178.22 and 1,336.70 USD.
  const nlohmann::json a = answer(
      R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "currency": "cny", "colocation_cny_per_kw_month": 1200, "staff_cny_per_month": 9000})");
  CHECK(a["question"]["colocation_usd_per_kw_month"].get<double>() == doctest::Approx(1200 / 6.733));
  CHECK(a["question"]["staff_usd_per_month"].get<double>() == doctest::Approx(9000 / 6.733));
  // DGX H100: 10.2 kW x 1,200 = 12,240 CNY a month of colocation, printed back in yuan.
  CHECK(a["own"]["monthly_breakdown"]["colocation_cny"].get<double>() == doctest::Approx(12240));
  CHECK(a["own"]["monthly_breakdown"]["staff_cny"].get<double>() == doctest::Approx(9000));
  // Given, they are no longer defaults: no assumption and no "US figure used" notice for them.
  for (const auto& x : a["assumptions"]) {
    CHECK(x["field"] != "colocation_usd_per_kw_month");
    CHECK(x["field"] != "staff_usd_per_month");
  }
  for (const auto& n : a["notices"]) CHECK(n["code"] != "us_figure_used");
  // One figure in two currencies is refused, naming the yuan field; so is a yuan figure out of range.
  InputError e = refusal(
      R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "colocation_usd_per_kw_month": 180, "colocation_cny_per_kw_month": 1200})");
  CHECK(e.field == "colocation_cny_per_kw_month");
  CHECK(e.message.find("not both") != std::string::npos);
  e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "staff_usd_per_month": 1, "staff_cny_per_month": 7})");
  CHECK(e.field == "staff_cny_per_month");
  e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "colocation_cny_per_kw_month": 40000})");
  CHECK(e.field == "colocation_cny_per_kw_month");
  CHECK(e.message.find("0..35000") != std::string::npos);
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "staff_cny_per_month": -1})").field ==
        "staff_cny_per_month");
  // The yuan figures travel in a link under codes of their own (wcc, wsc) and come back exact.
  const LinkEncode link = encode_link(
      R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "currency": "cny", "colocation_cny_per_kw_month": 1200, "staff_cny_per_month": 9000})",
      builtin_catalog());
  REQUIRE(link.ok);
  CHECK(link.fragment.find("wcc=1.2e3") != std::string::npos);
  CHECK(link.fragment.find("wsc=9e3") != std::string::npos);
  const LinkDecode back = decode_link(link.fragment, builtin_catalog());
  REQUIRE(back.is_tco);
  const nlohmann::json input = nlohmann::json::parse(back.input_json);
  CHECK(input["colocation_cny_per_kw_month"] == 1200);
  CHECK(input["staff_cny_per_month"] == 9000);
}

TEST_CASE("own: the workload of a scenario sets the utilisation") {
  // Llama 3.1 8B full on 8 H100s for 2e9 tokens: its GPU-hours spread over 12 months.
  const std::string scenario =
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "tokens": 2e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})";
  const JsonResponse e = estimate_json(scenario, builtin_catalog(), default_calibration());
  REQUIRE(e.ok);
  const double gpu_hours = nlohmann::json::parse(e.body)["gpu_hours"].get<double>();
  const nlohmann::json a =
      answer(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "horizon_months": 12, "workload": {"scenario": )" +
             scenario + "}}");
  CHECK(a["own"]["gpu_hours_per_month"].get<double>() == doctest::Approx(gpu_hours / 12));
  CHECK(a["own"]["utilisation"].get<double>() == doctest::Approx(gpu_hours / 12 / (8 * 730)));
  CHECK(a["question"]["workload_from"] == "scenario");
}

TEST_CASE("own: bad input is refused naming the field and the range") {
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb", "price_usd": -5}})").field == "servers.price_usd");
  InputError e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "utilisation": 1.5})");
  CHECK(e.field == "utilisation");
  CHECK(e.message.find("0.01..1") != std::string::npos);
  e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "horizon_months": 0})");
  CHECK(e.field == "horizon_months");
  CHECK(e.message.find("1..180") != std::string::npos);
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "power": {"cny_per_kwh": -1}})").field ==
        "power.cny_per_kwh");
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "colocation_usd_per_kw_month": -3})").field ==
        "colocation_usd_per_kw_month");
  CHECK(refusal(R"({"servers": {"accelerator": "h100"}})").message.find("\"h100-sxm5-80gb\"") != std::string::npos);
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "utilisaton": 0.5})").field == "utilisaton");
  // A workload with no GPU-hours has no cost per GPU-hour: a scenario without tokens, or under
  // 0.001 GPU-hours a month, is refused naming the field (both once printed null figures).
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "workload": {"scenario": {"model": {"preset":
      "llama-3.1-8b"}, "cluster": {"gpus": 8}}}})")
            .field == "workload.scenario.tokens");
  e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "workload": {"gpu_hours_per_month": 1e-305}})");
  CHECK(e.field == "workload.gpu_hours_per_month");
  CHECK(e.message.find("0.001..1000000000") != std::string::npos);
  CHECK(refusal(R"({"servers": {"accelerator": "rtx-3090"}})").field == "servers.price_usd");  // no listed server
  CHECK(
      refusal(
          R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "utilisation": 0.5, "workload": {"gpu_hours_per_month": 10}})")
          .field == "workload");
  e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "workload": {"gpu_hours_per_month": 9000}})");
  CHECK(e.field == "workload");  // 9,000 > 8 x 730 = 5,840: needs 2 servers
  CHECK(e.message.find("at least 2") != std::string::npos);
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "workload": {"scenario": {"seq_len": -3}}})").field ==
        "workload.scenario.seq_len");
  CHECK(refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "currency": "eur"})").field == "currency");
}

TEST_CASE("catalog: the ownership defaults are complete and every listed server is sourced") {
  const Catalog& c = builtin_catalog();
  for (const OwnershipField& f : kOwnershipFields) {
    const OwnershipDefault* d = c.find_ownership_default(f.id);
    REQUIRE_MESSAGE(d, f.id);
    CHECK_MESSAGE((d->value.has_value() || f.nullable), f.id);
    CHECK_FALSE(d->source.empty());
  }
  CHECK_FALSE(c.servers.empty());
  for (const Server& s : c.servers) {
    CHECK(c.find_accelerator(s.accelerator));
    CHECK(s.price_usd.has_value() != s.price_cny.has_value());
  }
  // A default outside its input range is refused where the catalog is read.
  const CatalogLoad bad = load_catalog_files(
      {{"a.json", R"({"schema_version": 1, "catalog_version": "2026.12.4", "as_of": "2026-12-02", "ownership": [
        {"id": "pue", "name": "PUE", "value": 0.4, "unit": "ratio", "source": "x", "as_of": "2024"}]})"}});
  CHECK_FALSE(bad.catalog);
  CHECK(bad.error().find("/ownership/0/value: must be a number in 1..3") != std::string::npos);
}

TEST_CASE("compute-optimal tokens: 70B is about 1.4T by 20 tokens per parameter, and the refit law beside it") {
  // Hoffmann et al. 2022 trained Chinchilla, 70B, on 1.4T tokens; the rule of thumb 20 N gives the same.
  const std::string s =
      R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "tokens": 1.4e12, "cluster": {"gpus": 64}})";
  const JsonResponse r = estimate_json(s, builtin_catalog(), default_calibration());
  REQUIRE(r.ok);
  const nlohmann::json sc = nlohmann::json::parse(r.body)["scaling"];
  const double n = sc["params"].get<double>();
  CHECK(n == doctest::Approx(70.55e9).epsilon(1e-3));  // Llama 3.1 70B: 70,553,706,496 parameters
  CHECK(sc["rule_tokens"].get<double>() == doctest::Approx(20 * n));
  CHECK(sc["rule_tokens"].get<double>() == doctest::Approx(1.4e12).epsilon(0.01));
  CHECK(sc["regime"] == "near_optimal");
  CHECK(sc["applies"] == true);
  // Besiroglu et al. 2024: G = (0.3478 x 482.01 / (0.3658 x 2085.43))^(1/0.7136) = 0.119630,
  // a = 0.3658 / 0.7136 = 0.512612; C/6 = (N / G)^(1/a); D = (C/6) / N. For N = 70e9: 1.2894e12
  // tokens (18.4 per parameter).
  CHECK(law_optimal_tokens(kBesiroglu2024, 70e9) == doctest::Approx(1.28939e12).epsilon(1e-4));
  // Its optimum for a compute budget is the same curve read the other way.
  const ComputeOptimal o = compute_optimal(kBesiroglu2024, 6 * 70e9 * 1.28939e12);
  CHECK(o.params == doctest::Approx(70e9).epsilon(1e-4));
  CHECK(o.tokens == doctest::Approx(1.28939e12).epsilon(1e-4));
  // Llama 3 8B on 15T tokens (Meta's model card): about 1,900 per parameter, over-trained by design.
  CHECK(training_regime(8.03e9, 15e12) == TrainingRegime::over_trained);
  CHECK(training_regime(70e9, 0.2e12) == TrainingRegime::under_trained);
  // Fine-tuning is not pretraining from scratch: the block says it does not apply.
  for (const char* method : {"continued", "full", "lora"}) {
    const JsonResponse ft = estimate_json(
        std::string(R"({"model": {"preset": "llama-3.1-8b"}, "method": ")") + method + R"(", "tokens": 1e8})",
        builtin_catalog(), default_calibration());
    REQUIRE(ft.ok);
    CHECK(nlohmann::json::parse(ft.body)["scaling"]["applies"] == false);
  }
}

TEST_CASE("own: a link carries the question, and opens it with its figures") {
  const char* q = R"({"servers": {"accelerator": "h100-sxm5-80gb", "count": 2}, "utilisation": 0.5, "currency": "cny",
                      "rent_usd_per_gpu_hour": {"spot": 1.1}})";
  const LinkEncode e = encode_link(q, builtin_catalog());
  REQUIRE_MESSAGE(e.ok, e.error.message);
  CHECK(e.fragment == "v=1&c=" + builtin_catalog().catalog_version + "&mv=" + std::to_string(kModelVersion) +
                          "&wa=h100-sxm5-80gb&wn=2&wu=0.5&wcu=cny&wqs=1.1");
  const LinkDecode d = decode_link(e.fragment, builtin_catalog());
  CHECK(d.valid);
  CHECK(d.is_tco);
  CHECK(d.notices.empty());
  CHECK(answer(d.input_json)["own"] == answer(q)["own"]);
  // A value out of range is dropped with a notice naming it; the rest of the question is kept.
  const LinkDecode bad = decode_link("v=1&wa=h100-sxm5-80gb&wn=2&wu=7", builtin_catalog());
  CHECK(bad.valid);
  REQUIRE(bad.notices.size() == 1);
  CHECK(bad.notices[0].field == "utilisation");
  CHECK(answer(bad.input_json)["own"]["gpus"] == 16);
  // A whole scenario as the workload does not fit in a link: refused naming the field.
  const LinkEncode w = encode_link(
      R"({"servers": {"accelerator": "h100-sxm5-80gb"}, "workload": {"scenario": {"model": {"preset": "llama-3.1-8b"}}}})",
      builtin_catalog());
  CHECK_FALSE(w.ok);
  CHECK(w.error.field == "workload.scenario");
}

TEST_CASE("own: a server holding more GPUs than any system the part is sold in is refused") {
  // HGX H100 boards join at most 8 GPUs (catalog max_gpus_per_node, NVIDIA H100 datasheet); a 16 x
  // H100 server does not exist to be priced. The RTX 4090 (PCIe) has no bound in the catalog.
  const InputError e = refusal(R"({"servers": {"accelerator": "h100-sxm5-80gb", "gpus_per_server": 16}})");
  CHECK(e.field == "servers.gpus_per_server");
  CHECK(e.code == "gpus_per_node_domain");  // the scenario's wording, so the app words it in Chinese too
  CHECK(e.message.find("must be 1..8 for h100-sxm5-80gb") != std::string::npos);
  CHECK(e.message.find("got 16") != std::string::npos);
  const nlohmann::json ok = answer(R"({"servers": {"accelerator": "rtx-4090", "gpus_per_server": 10, "price_usd": 30000,
    "power_kw": 4.5}})");
  CHECK(ok["own"]["gpus"] == 10);
}
