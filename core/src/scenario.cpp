// scenario.cpp: strict parsing and validation of a scenario (field list and defaults in README).
#include "llmplan/scenario.hpp"

#include <algorithm>

#include "json_read.hpp"
#include "llmplan/catalog.hpp"

namespace llmplan {

using detail::json;
using detail::Reader;

namespace {

bool read_model(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  if (!root.contains("model")) return r.fail("model", "is required: {\"preset\": \"<catalog id>\"} or the architecture fields");
  const json& o = root["model"];
  if (!r.object(o, "model")) return false;
  if (o.contains("preset")) {
    if (o.size() != 1) {
      for (const auto& [k, v] : o.items())
        if (k != "preset") return r.fail("model." + k, "give either \"preset\" or the architecture fields, not both");
    }
    if (!r.string(o, "preset", "model", s.model_preset)) return false;
    const ModelPreset* preset = catalog.find_model(s.model_preset);
    if (!preset) return r.fail("model.preset", "unknown id \"" + s.model_preset + "\"; `llmplan catalog list` prints the ids");
    s.model = preset->arch;
    return true;
  }
  for (const char* required : {"layers", "hidden", "heads", "ffn", "vocab"})
    if (!o.contains(required)) return r.fail(std::string("model.") + required, "is required when no preset is given");
  s.model = ModelArch{};
  s.model.kv_heads = 0;  // defaults to heads (multi-head attention) when not given
  if (!r.keys(o, "model", detail::kArchKeys)) return false;
  ModelArch& a = s.model;
  if (!r.integer(o, "heads", "model", 1, 4096, a.heads)) return false;
  if (!o.contains("kv_heads")) a.kv_heads = a.heads;
  return detail::read_arch_fields(r, o, "model", a);
}

bool read_cluster(Reader& r, const json& root, Scenario& s) {
  if (!root.contains("cluster")) return true;
  const json& o = root["cluster"];
  const std::string p = "cluster";
  if (!r.object(o, p) || !r.keys(o, p, {"gpus", "gpus_per_node", "gpu_memory_gb"}) ||
      !r.integer(o, "gpus", p, 1, 1000000, s.cluster.gpus))
    return false;
  s.cluster.gpus_per_node = std::min(s.cluster.gpus, 8);
  return r.integer(o, "gpus_per_node", p, 1, 72, s.cluster.gpus_per_node) &&
         r.number(o, "gpu_memory_gb", p, 1, 1000, s.cluster.gpu_memory_gb);
}

bool read_parallel(Reader& r, const json& root, Scenario& s) {
  if (!root.contains("parallel")) return true;
  const json& o = root["parallel"];
  const std::string p = "parallel";
  Parallel& x = s.parallel;
  return r.object(o, p) &&
         r.keys(o, p, {"tp", "pp", "zero", "sequence_parallel", "recompute", "flash_attention"}) &&
         r.integer(o, "tp", p, 1, 1024, x.tp) && r.integer(o, "pp", p, 1, 1000, x.pp) &&
         r.integer(o, "zero", p, 0, 3, x.zero) && r.boolean(o, "sequence_parallel", p, x.sequence_parallel) &&
         r.choice(o, "recompute", p, {"none", "selective", "full"}, x.recompute) &&
         r.boolean(o, "flash_attention", p, x.flash_attention);
}

std::string n(long long v) { return Reader::num(static_cast<double>(v)); }

}  // namespace

ScenarioParse parse_scenario(std::string_view text, const Catalog& catalog) {
  ScenarioParse out;
  const json root = json::parse(text.begin(), text.end(), nullptr, false);
  if (root.is_discarded()) {
    out.error = {"(scenario)", "(scenario): not valid JSON"};
    return out;
  }
  Reader r(out.error);
  Scenario s;
  const bool ok =
      r.object(root, "") &&
      r.keys(root, "", {"model", "method", "precision", "optimizer", "seq_len", "micro_batch", "global_batch",
                        "tokens", "dropout", "cluster", "parallel"}) &&
      read_model(r, root, catalog, s) &&
      r.choice(root, "method", "", {"pretrain", "continued", "full"}, s.method) &&
      r.choice(root, "precision", "", {"bf16", "fp16", "fp32"}, s.precision) &&
      r.choice(root, "optimizer", "", {"adamw"}, s.optimizer) &&
      r.integer(root, "seq_len", "", 1, 1048576, s.seq_len) &&
      r.integer(root, "micro_batch", "", 1, 65536, s.micro_batch) &&
      r.integer(root, "global_batch", "", 0, 100000000, s.global_batch) &&
      r.number(root, "tokens", "", 0, 1e16, s.tokens) && r.boolean(root, "dropout", "", s.dropout) &&
      read_cluster(r, root, s) && read_parallel(r, root, s);
  if (!ok) return out;
  out.error = validate_scenario(s);
  if (out.error.field.empty()) out.scenario = std::move(s);
  return out;
}

InputError validate_scenario(const Scenario& s) {
  InputError err;
  Reader r(err);
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const Cluster& c = s.cluster;
  if (!detail::check_arch(r, m, "model")) return err;
  if (m.heads % x.tp != 0)
    r.fail("parallel.tp", "must divide the model's heads (" + n(m.heads) + "); got " + n(x.tp));
  else if (m.layers % x.pp != 0)
    r.fail("parallel.pp", "must divide the model's layers (" + n(m.layers) + "); got " + n(x.pp));
  else if (c.gpus % (x.tp * x.pp) != 0)
    r.fail("cluster.gpus", "must be a multiple of parallel.tp x parallel.pp (" + n(x.tp * x.pp) + "); got " + n(c.gpus));
  else if (c.gpus > c.gpus_per_node && c.gpus % c.gpus_per_node != 0)
    r.fail("cluster.gpus", "must be at most one node or a whole number of nodes of " + n(c.gpus_per_node) +
                               " GPUs; got " + n(c.gpus));
  else if (s.global_batch > 0 && s.global_batch % (s.micro_batch * s.dp()) != 0)
    r.fail("global_batch", "must be a multiple of micro_batch x data-parallel size (" + n(s.micro_batch) + " x " +
                               n(s.dp()) + " = " + n(s.micro_batch * s.dp()) + "); got " + n(s.global_batch));
  return err;
}

const char* to_string(Method m) {
  static const char* names[] = {"pretrain", "continued", "full"};
  return names[static_cast<int>(m)];
}
const char* to_string(Precision p) {
  static const char* names[] = {"bf16", "fp16", "fp32"};
  return names[static_cast<int>(p)];
}
const char* to_string(Optimizer) { return "adamw"; }
const char* to_string(Recompute r) {
  static const char* names[] = {"none", "selective", "full"};
  return names[static_cast<int>(r)];
}

}  // namespace llmplan
