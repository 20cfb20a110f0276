// import.cpp: training configs -> a partial scenario (import.hpp, docs/import.md). One Importer
// collects the scenario fields with the key each came from, checks every value against the field
// table (so a bad value names the source key and the allowed range), refuses two keys that give one
// field different values, and accounts for every key: mapped, ignored, unsupported or unknown.
#include "llmplan/import.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/model.hpp"
#include "llmplan/scenario.hpp"
#include "yaml_lite.hpp"

namespace llmplan {

namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

// The default model the imported scenario is checked with when it names none; an MoE one (256
// experts) where the layout splits experts.
constexpr const char* kCheckModel = "llama-3.1-8b";
constexpr const char* kCheckMoeModel = "deepseek-v3";

// Fixed lists of names, searched in order: a constant array costs its text only, where a std::set
// is built at start-up by code of its own (the embed card's module has a 1 MB first-load budget).
template <size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// Keys that change no figure of the estimate: learning rate and schedule, logging, saving, data
// selection, evaluation, token ids, initialisation. Shared by every format.
constexpr std::string_view kBookkeeping[] = {
    // Hugging Face TrainingArguments and the scripts built on it
    "output_dir",
    "overwrite_output_dir",
    "logging_dir",
    "logging_steps",
    "logging_strategy",
    "logging_first_step",
    "save_steps",
    "save_strategy",
    "save_total_limit",
    "save_only_model",
    "save_safetensors",
    "eval_steps",
    "eval_strategy",
    "evaluation_strategy",
    "do_train",
    "do_eval",
    "do_predict",
    "per_device_eval_batch_size",
    "learning_rate",
    "lr_scheduler_type",
    "lr_scheduler",
    "warmup_ratio",
    "warmup_steps",
    "weight_decay",
    "max_grad_norm",
    "adam_beta1",
    "adam_beta2",
    "adam_epsilon",
    "seed",
    "data_seed",
    "report_to",
    "run_name",
    "push_to_hub",
    "hub_model_id",
    "resume_from_checkpoint",
    "dataloader_num_workers",
    "dataloader_pin_memory",
    "remove_unused_columns",
    "group_by_length",
    "ddp_timeout",
    "ddp_find_unused_parameters",
    "tf32",
    "load_best_model_at_end",
    "metric_for_best_model",
    "disable_tqdm",
    "trust_remote_code",
    "cache_dir",
    "local_rank",
    "lora_alpha",
    "label_names",
    "include_num_input_tokens_seen",
    // data
    "dataset",
    "dataset_name",
    "dataset_dir",
    "dataset_config_name",
    "eval_dataset",
    "train_file",
    "validation_file",
    "data_path",
    "template",
    "max_samples",
    "val_size",
    "overwrite_cache",
    "preprocessing_num_workers",
    "streaming",
    "buffer_size",
    "mix_strategy",
    "tokenized_path",
    "packing",
    "neat_packing",
    "dataset_text_field",
    "datasets",
    "dataset_prepared_path",
    "val_set_size",
    "chat_template",
    "train_on_inputs",
    "shuffle_merged_datasets",
    "sample_packing",
    "eval_sample_packing",
    "pad_to_sequence_len",
    // LLaMA-Factory / axolotl bookkeeping
    "plot_loss",
    "adapter_name_or_path",
    "create_new_adapter",
    "new_special_tokens",
    "pref_beta",
    "pref_loss",
    "quantization_method",
    "double_quantization",
    "wandb_project",
    "wandb_entity",
    "wandb_watch",
    "wandb_name",
    "wandb_log_model",
    "evals_per_epoch",
    "saves_per_epoch",
    "special_tokens",
    "early_stopping_patience",
    "strict",
    "debug",
    "eval_table_size",
    "lora_model_dir",
    "auto_resume_from_checkpoints",
    "lora_fan_in_fan_out",
    "tokenizer_type",
    "tokenizer_config",
    "base_model_config",
    "model_type",
    "is_llama_derived_model",
    "is_mistral_derived_model",
    "loss_watchdog_threshold",
    "loss_watchdog_patience",
    "xformers_attention",
    "sdp_attention",
    "tokenizer_name",
    "hub_strategy",
    "logging_nan_inf_filter",
    "pissa_init",
    "export_dir",
    "export_size",
    "infer_backend",
    "plugins",
    "lora_target_module",
    "eval_accumulation_steps",
};

const char* kBookkeepingReason = "does not change memory, time or cost (schedule, logging, saving, data selection)";

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string value_text(const ojson& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A byte that is not UTF-8 text, or npos.
size_t first_bad_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return i;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return i;
    i += n;
  }
  return std::string_view::npos;
}

class Importer {
 public:
  explicit Importer(const Catalog& catalog) : catalog_(catalog) {}

  const Catalog& catalog_;
  ojson scenario = ojson::object();
  ojson mapped = ojson::array();
  ojson ignored = ojson::array();
  ojson unsupported = ojson::array();
  ojson unknown = ojson::array();
  std::map<std::string, std::string> source_of;  // scenario field -> the key it came from
  std::optional<InputError> error;

  bool ok() const { return !error; }
  bool fail(const std::string& field, const std::string& message) {
    if (!error) error = InputError{field, field + ": " + message};
    return false;
  }

  static ojson* at(ojson& root, const std::string& path, bool create) {
    ojson* node = &root;
    size_t start = 0;
    while (true) {
      const size_t dot = path.find('.', start);
      const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (dot == std::string::npos) {
        if (!create && !node->contains(part)) return nullptr;
        return &(*node)[part];
      }
      if (!node->contains(part)) {
        if (!create) return nullptr;
        (*node)[part] = ojson::object();
      }
      node = &(*node)[part];
      start = dot + 1;
    }
  }

  // Sets scenario field `path` to `v`, read from `key`: checked against the field table; a second
  // key giving the same field another value is refused.
  bool set(const std::string& path, const ojson& v, const std::string& key, const std::string& note = "") {
    if (!ok()) return false;
    const FieldSpec* f = find_field(path);
    if (!f) return fail(key, "maps to " + path + ", which is no scenario field (a defect of import)");
    InputError err;
    detail::Reader r(err);
    if (!detail::check_field(r, *f, detail::parse_text(v.dump()), key))
      return fail(key, err.message.substr(key.size() + 2) + " (for " + path + ")");
    if (const ojson* old = at(scenario, path, false)) {
      if (*old != v)
        return fail(key,
                    "gives " + path + " = " + value_text(v) + ", but " + source_of[path] + " gave " + value_text(*old));
    } else {
      *at(scenario, path, true) = v;
      source_of[path] = key;
    }
    ojson m = {{"key", key}, {"field", path}, {"value", v}};
    if (!note.empty()) m["note"] = note;
    mapped.push_back(m);
    return true;
  }
  bool has(const std::string& path) { return at(scenario, path, false) != nullptr; }
  bool is(const std::string& path, const char* value) {
    const ojson* v = at(scenario, path, false);
    return v && *v == value;
  }
  void ignore(const std::string& key, const std::string& reason) {
    ignored.push_back({{"key", key}, {"reason", reason}});
  }
  void unsupported_key(const std::string& key, const std::string& reason) {
    unsupported.push_back({{"key", key}, {"reason", reason}});
  }
  void unknown_key(const std::string& key) { unknown.push_back(key); }

  // Typed reads of a source value; each names the key when the type is wrong.
  // `typed`, when given, is what the user wrote (a command line's "99999999999999999999", which
  // reads as 1e+20): the message shows it as typed.
  bool integer(const ojson& v, const std::string& key, long long& out, long long lo = 0, long long hi = 1LL << 40,
               const std::string& typed = "") {
    if (v.is_number_integer()) {
      out = v.get<long long>();
      if (out >= lo && out <= hi) return true;
    }
    const std::string got =
        typed.empty() ? detail::Reader::echo_value(detail::parse_text(v.dump())) : detail::Reader::echo(typed);
    return fail(key, "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + "; got " + got);
  }
  bool boolean(const ojson& v, const std::string& key, bool& out) {
    if (v.is_boolean()) {
      out = v.get<bool>();
      return true;
    }
    return fail(key, "must be true or false; got " + detail::Reader::echo_value(detail::parse_text(v.dump())));
  }
  bool string(const ojson& v, const std::string& key, std::string& out) {
    if (v.is_string()) {
      out = v.get<std::string>();
      return true;
    }
    return fail(key, "must be a string; got " + detail::Reader::echo_value(detail::parse_text(v.dump())));
  }
  bool object(const ojson& v, const std::string& key) {
    return v.is_object() ||
           fail(key, "must be a map of keys; got " + detail::Reader::echo_value(detail::parse_text(v.dump())));
  }
};

// ---- model names -> presets -------------------------------------------------

std::string strip_suffixes(std::string id) {
  static const char* suffixes[] = {"-instruct", "-chat", "-hf", "-it", "-base", "-pt", "-4k", "-v0.1", "-bnb-4bit"};
  bool changed = true;
  while (changed) {
    changed = false;
    for (const char* s : suffixes) {
      const std::string suf(s);
      if (id.size() > suf.size() && id.compare(id.size() - suf.size(), suf.size(), suf) == 0) {
        id.resize(id.size() - suf.size());
        changed = true;
      }
    }
  }
  return id;
}

}  // namespace

std::string preset_for_model_name(std::string_view name, const Catalog& catalog) {
  std::string id = lower(name);
  while (!id.empty() && id.back() == '/') id.pop_back();
  if (const size_t slash = id.rfind('/'); slash != std::string::npos) id = id.substr(slash + 1);
  if (id.rfind("meta-", 0) == 0) id = id.substr(5);
  id = strip_suffixes(id);
  if (id.empty()) return "";
  const ModelPreset* m = catalog.find_model(id);
  return m ? m->id : "";
}

namespace {

// ---- training knobs shared by the YAML formats and command lines ------------

// What several keys decide together, resolved in finish().
struct Knobs {
  std::string finetuning;  // "lora", "qlora", "full", "freeze" (empty: not said)
  std::string finetuning_key, finetuning_note;
  bool quant4 = false;
  std::string quant4_key;
  std::string stage;  // LLaMA-Factory stage
  long long micro = 0, accum = 0, gpus = 0, nodes = 0, per_node = 0, max_steps = 0;
  std::string micro_key, accum_key, gpus_key, max_steps_key;
  bool llamafactory_recompute_default = false;
  bool axolotl = false;  // an axolotl YAML: its gradient_checkpointing defaults to false
  bool command = false;  // a command line: no method said means not known
  std::string offload_optimizer, offload_param, offload_optimizer_key, offload_param_key;
  std::string liger_glu_off_key;  // axolotl's liger_glu_activation: false (SwiGLU left to PyTorch)
};

// The non-empty words of `text` between any of `separators`. By hand, not with a string stream:
// streams would add their locale machinery to the embed card's module (a 1 MB first-load budget).
std::vector<std::string> split_words(const std::string& text, const char* separators) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = text.find_first_not_of(separators, at)) != std::string::npos) {
    const size_t end = text.find_first_of(separators, at);
    out.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end;
  }
  return out;
}

// LoRA target modules -> lora.targets: only attention projections -> "attention", else all_linear.
bool set_lora_targets(Importer& im, const ojson& v, const std::string& key) {
  std::vector<std::string> names;
  if (v.is_string()) {
    for (const std::string& part : split_words(v.get<std::string>(), " ,")) names.push_back(lower(part));
  } else if (v.is_array()) {
    for (const ojson& x : v) {
      if (!x.is_string()) return im.fail(key, "must be a list of module names; got " + x.dump());
      names.push_back(lower(x.get<std::string>()));
    }
  } else {
    return im.fail(key, "must be a module name, a comma-separated list or a list; got " + v.dump());
  }
  if (names.empty()) return im.fail(key, "names no module");
  static constexpr std::string_view attention[] = {"q_proj",   "k_proj",          "v_proj", "o_proj",
                                                  "qkv_proj", "query_key_value", "c_attn", "dense"};
  static constexpr std::string_view all[] = {"all", "all-linear", "all_linear"};
  bool only_attention = true;
  for (const std::string& n : names) {
    if (listed(all, n)) return im.set("lora.targets", "all_linear", key);
    if (!listed(attention, n)) only_attention = false;
  }
  if (!only_attention) {
    const bool every_mlp = std::count(names.begin(), names.end(), "gate_proj") +
                               std::count(names.begin(), names.end(), "up_proj") +
                               std::count(names.begin(), names.end(), "down_proj") ==
                           3;
    return im.set("lora.targets", "all_linear", key,
                  every_mlp ? "" : "some but not all linear layers: counted as every linear layer");
  }
  const bool four = names.size() >= 4 || std::count(names.begin(), names.end(), "qkv_proj") == 1;
  return im.set("lora.targets", "attention", key,
                four ? "" : "a subset of q, k, v, o: counted as all four (the adapters are a small part of memory)");
}

bool set_optimizer(Importer& im, const ojson& v, const std::string& key) {
  std::string s;
  if (!im.string(v, key, s)) return false;
  const std::string o = lower(s);
  if (o.find("8bit") != std::string::npos) return im.set("optimizer", "adamw8bit", key);
  if (o.rfind("adam", 0) == 0 || o == "fusedadam" || o == "cpuadam" || o == "deepspeedcpuadam")
    return im.set("optimizer", "adamw", key);
  if (o == "adafactor") return im.set("optimizer", "adafactor", key);
  if (o == "sgd") return im.set("optimizer", "sgd", key);
  im.unsupported_key(key, "optimizer '" + s + "': llmplan models adamw, adamw8bit, sgd and adafactor");
  return true;
}

bool set_precision_flag(Importer& im, const ojson& v, const std::string& key, const char* precision) {
  if (v.is_string() && v.get<std::string>() == "auto") {
    im.unsupported_key(key, "\"auto\": the Trainer's flags or the hardware decide; set precision");
    return true;
  }
  bool on = false;
  if (!im.boolean(v, key, on)) return false;
  if (on) return im.set("precision", precision, key);
  im.ignore(key, "false: says nothing about the precision");
  return true;
}

bool set_positive_int(Importer& im, const ojson& v, const std::string& key, long long& out, std::string& out_key) {
  if (v.is_string() && v.get<std::string>() == "auto") {
    im.ignore(key, "\"auto\": the Trainer fills it from its own arguments");
    return true;
  }
  if (!im.integer(v, key, out, 1, 100000000)) return false;
  out_key = key;
  return true;
}

bool set_model_name(Importer& im, const ojson& v, const std::string& key) {
  std::string name;
  if (!im.string(v, key, name)) return false;
  const std::string id = preset_for_model_name(name, im.catalog_);
  if (id.empty()) {
    im.unsupported_key(key, "no catalog preset matches '" + name +
                                "': give model.preset, or import the model's config.json for its architecture");
    return true;
  }
  return im.set("model.preset", id, key);
}

// Hugging Face TrainingArguments.fsdp (and axolotl's fsdp): a list of options, or one string of
// them separated by spaces ("full_shard auto_wrap").
bool fsdp_options(Importer& im, const ojson& v, const std::string& key) {
  std::vector<std::string> opts;
  if (v.is_string()) {
    opts = split_words(v.get<std::string>(), " \t");
  } else if (v.is_array()) {
    for (const ojson& x : v)
      if (x.is_string())
        for (std::string& o : split_words(x.get<std::string>(), " \t")) opts.push_back(std::move(o));
  } else {
    return im.fail(key, "must be a list of FSDP options (full_shard, shard_grad_op, offload, auto_wrap)");
  }
  for (const std::string& o : opts) {
    if (o == "full_shard") {
      im.set("parallel.zero", 3, key);
    } else if (o == "shard_grad_op") {
      im.set("parallel.zero", 2, key);
    } else if (o == "offload") {
      im.set("parallel.offload", "cpu", key);
    } else if (o != "auto_wrap") {
      im.unsupported_key(key, "FSDP option '" + o + "' is not modelled");
    }
  }
  return im.ok();
}

// Keys of Hugging Face TrainingArguments, LLaMA-Factory, TRL and DeepSpeed-Chat scripts, as YAML keys
// or command-line flags. Returns false when the key is not one of them (and no error is set).
bool training_key(Importer& im, Knobs& k, const std::string& name, const ojson& v, const std::string& key) {
  if (name == "model_name_or_path" || name == "model_name" || name == "base_model" || name == "model")
    return set_model_name(im, v, key), true;
  if (name == "per_device_train_batch_size" || name == "micro_batch_size" || name == "train_micro_batch_size_per_gpu")
    return set_positive_int(im, v, key, k.micro, k.micro_key), true;
  if (name == "gradient_accumulation_steps") return set_positive_int(im, v, key, k.accum, k.accum_key), true;
  if (name == "cutoff_len" || name == "sequence_len" || name == "max_seq_length" || name == "max_seq_len" ||
      name == "model_max_length" || name == "max_length" || name == "seq_length" || name == "block_size")
    return im.set("seq_len", v, key), true;
  if (name == "bf16") return set_precision_flag(im, v, key, "bf16"), true;
  if (name == "fp16") return set_precision_flag(im, v, key, "fp16"), true;
  if (name == "pure_bf16") {
    bool on = false;
    if (im.boolean(v, key, on) && on) im.set("precision", "bf16", key) && im.set("pure_bf16", true, key);
    if (!on && im.ok()) im.ignore(key, "false: the default");
    return true;
  }
  if (name == "lora_rank" || name == "lora_r" || name == "lora_dim") return im.set("lora.rank", v, key), true;
  if (name == "lora_target" || name == "lora_target_modules") return set_lora_targets(im, v, key), true;
  if (name == "lora_target_linear") {
    bool on = false;
    if (im.boolean(v, key, on) && on) im.set("lora.targets", "all_linear", key);
    if (!on && im.ok()) im.ignore(key, "false: the targets are lora_target_modules");
    return true;
  }
  if (name == "finetuning_type") {
    std::string s;
    if (!im.string(v, key, s)) return true;
    if (s != "lora" && s != "full" && s != "freeze")
      return im.fail(key, "must be one of lora, full, freeze; got '" + s + "'"), true;
    k.finetuning = s;
    k.finetuning_key = key;
    k.finetuning_note.clear();
    return true;
  }
  if (name == "adapter") {
    if (v.is_null()) return true;
    std::string s;
    if (!im.string(v, key, s)) return true;
    if (s != "lora" && s != "qlora")
      return im.fail(key, "must be lora or qlora (or absent: full fine-tune); got '" + s + "'"), true;
    k.finetuning = s;
    k.finetuning_key = key;
    k.finetuning_note.clear();
    return true;
  }
  if (name == "use_peft") {
    bool on = false;
    if (im.boolean(v, key, on) && on) k.finetuning = "lora", k.finetuning_key = key;
    if (!on && im.ok()) im.ignore(key, "false: no adapters");
    return true;
  }
  if (name == "load_in_4bit" || name == "quantization_bit" || name == "load_in_8bit") {
    bool four = false, eight = false;
    if (name == "quantization_bit") {
      long long bits = 0;
      if (v.is_null()) return true;
      if (!im.integer(v, key, bits, 2, 8)) return true;
      four = bits == 4;
      eight = bits != 4;
    } else {
      bool on = false;
      if (!im.boolean(v, key, on)) return true;
      (name == "load_in_4bit" ? four : eight) = on;
      if (!on) im.ignore(key, "false: the base weights are not quantized");
    }
    if (four) k.quant4 = true, k.quant4_key = key;
    if (eight) im.unsupported_key(key, "8-bit (or other non-4-bit) base weights are not modelled: only 4-bit QLoRA");
    return true;
  }
  if (name == "stage") {
    std::string s;
    if (!im.string(v, key, s)) return true;
    static constexpr std::string_view stages[] = {"pt", "sft", "rm", "ppo", "dpo", "kto"};
    if (!listed(stages, s)) return im.fail(key, "must be one of pt, sft, rm, ppo, dpo, kto; got '" + s + "'"), true;
    k.stage = s;
    if (s == "sft") im.ignore(key, "supervised fine-tuning: the method comes from finetuning_type");
    if (s == "pt") im.ignore(key, "pretraining from the model: with finetuning_type full, method continued");
    if (s == "rm" || s == "ppo" || s == "dpo" || s == "kto")
      im.unsupported_key(key, "stage '" + s +
                                  "': estimated as supervised training of one model; the reference, reward or "
                                  "value models and the extra forward passes are not counted");
    return true;
  }
  if (name == "freeze_trainable_layers") {
    long long n = 0;
    if (!im.integer(v, key, n, -1000, 1000)) return true;
    if (n > 0) return im.set("trainable_layers", n, key), true;
    im.unsupported_key(key, "training the bottom layers (a negative count) is not modelled: only the top layers");
    return true;
  }
  if (name == "freeze_trainable_modules") {
    if (v.is_string() && v.get<std::string>() == "all") return im.ignore(key, "all: the default"), true;
    im.unsupported_key(key, "training only some modules of the top layers is not modelled");
    return true;
  }
  if (name == "gradient_checkpointing") {
    // axolotl also takes "offload" (the checkpointed layer inputs go to host memory) and
    // "offload_disk" (axolotl/utils/schemas/config.py, gradient_checkpointing).
    if (v.is_string() && (v.get<std::string>() == "offload" || v.get<std::string>() == "offload_disk")) {
      im.set("parallel.recompute", "full", key, "axolotl checkpoints every decoder layer");
      if (v.get<std::string>() == "offload")
        im.set("techniques.activation_offload", true, key, "and offloads the checkpoints to host memory");
      else
        im.unsupported_key(key, "offload_disk: checkpoints offloaded to disk are not modelled (counted on the GPU)");
      return true;
    }
    bool on = false;
    if (!im.boolean(v, key, on)) return true;
    im.set("parallel.recompute", on ? "full" : "none", key, on ? "Hugging Face checkpoints every decoder layer" : "");
    return true;
  }
  if (name == "lora_dropout") {
    // PEFT's LoRA layer runs nn.Dropout on its input when p > 0 (an identity at 0) and keeps the
    // dropped copy and its mask for the adapter's backward (peft/tuners/lora/layer.py).
    if (v.is_number() && v.get<double>() == 0)
      return im.ignore(key, "0: the adapters read the layer's own input"), true;
    if (v.is_number() && v.get<double>() > 0 && v.get<double>() < 1) {
      im.unsupported_key(key,
                         "p > 0: each adapted layer keeps a dropped copy of its input (16-bit) and a 1-byte mask "
                         "for backward, activation memory the estimate does not count (unless every layer is "
                         "recomputed); 0 removes it");
      return true;
    }
    if (v.is_null()) return true;
    return im.fail(key, "must be a number in 0..1 (exclusive of 1); got " + value_text(v)), true;
  }
  if (name == "activation_offloading") {
    // TRL's SFTConfig.activation_offloading: saved activations go to host memory (torchtune's hooks).
    if (v.is_string()) {
      im.unsupported_key(key,
                         "'" + v.get<std::string>() + "': only true or false (offload to host memory) is modelled");
      return true;
    }
    // HfArgumentParser also reads 1 and 0 as booleans (transformers' string_to_bool).
    const ojson b = v.is_number_integer() && (v == 0 || v == 1) ? ojson(v == 1) : v;
    bool on = false;
    if (im.boolean(b, key, on)) im.set("techniques.activation_offload", on, key);
    return true;
  }
  if (name == "disable_gradient_checkpointing") {
    bool off = false;
    if (!im.boolean(v, key, off)) return true;
    im.set("parallel.recompute", off ? "none" : "full", key);
    k.llamafactory_recompute_default = false;
    return true;
  }
  if (name == "flash_attn" || name == "flash_attention") {
    if (v.is_boolean()) return im.set("parallel.flash_attention", v, key), true;
    std::string s;
    if (!im.string(v, key, s)) return true;
    if (s == "disabled" || s == "eager") return im.set("parallel.flash_attention", false, key), true;
    if (s == "auto" || s == "fa2" || s == "sdpa") return im.set("parallel.flash_attention", true, key), true;
    return im.fail(key, "must be one of auto, fa2, sdpa, disabled; got '" + s + "'"), true;
  }
  if (name == "enable_liger_kernel" || name == "use_liger_kernel" || name == "use_liger" ||
      name == "liger_fused_linear_cross_entropy") {
    bool on = false;
    if (im.boolean(v, key, on) && on) im.set("techniques.fused_loss", "liger", key);
    if (!on && im.ok()) im.ignore(key, "false");
    return true;
  }
  if (name == "liger_rms_norm" || name == "liger_glu_activation" || name == "liger_rope") {
    bool on = false;
    if (im.boolean(v, key, on) && on) im.set("techniques.fused_kernels", true, key);
    if (!on && im.ok() && name == "liger_glu_activation")
      k.liger_glu_off_key = key;  // settled in finish(): it matters only beside fused kernels
    else if (!on && im.ok())
      im.ignore(key, "false");
    return true;
  }
  if (name == "use_unsloth" || name == "cut_cross_entropy") {
    bool on = false;
    if (im.boolean(v, key, on) && on)
      im.set("techniques.fused_loss", "cce", key,
             name == "use_unsloth" ? "Unsloth computes the loss with Cut Cross-Entropy" : "");
    if (!on && im.ok()) im.ignore(key, "false");
    return true;
  }
  if (name == "torch_compile") {
    bool on = false;
    if (im.boolean(v, key, on)) im.set("techniques.compile", on, key);
    return true;
  }
  if (name == "optim" || name == "optimizer") return set_optimizer(im, v, key), true;
  if (name == "num_train_epochs" || name == "num_epochs") return im.set("epochs", v, key), true;
  if (name == "max_steps") {
    if (!im.integer(v, key, k.max_steps, -1, 1LL << 40)) return true;
    if (k.max_steps > 0) {
      k.max_steps_key = key;
    } else {
      im.ignore(key, "not positive: the epochs decide");
    }
    return true;
  }
  if (name == "zero_stage") return im.set("parallel.zero", v, key), true;
  if (name == "offload") {
    bool on = false;
    if (im.boolean(v, key, on)) im.set("parallel.offload", on ? "cpu" : "none", key);
    return true;
  }
  if (name == "deepspeed" || name == "deepspeed_config") {
    im.unsupported_key(key, "names a DeepSpeed config file (" + value_text(v) +
                                "): import that file too (llmplan import FILE) for its ZeRO stage and offload");
    return true;
  }
  if (name == "use_dora" || name == "additional_target" || name == "gptq" || name == "rope_scaling") {
    if (v.is_null() || (v.is_boolean() && !v.get<bool>())) return im.ignore(key, "off"), true;
    im.unsupported_key(key, "not modelled (" + value_text(v) + ")");
    return true;
  }
  return false;
}

// The fields several keys decide together: method, global batch, GPUs, tokens.
void finish(Importer& im, Knobs& k) {
  if (!im.ok()) return;
  if (!k.finetuning.empty()) {
    std::string method = k.finetuning;
    std::string note = k.finetuning_note;
    if (method == "lora" && k.quant4) {
      method = "qlora";
      note = "with " + k.quant4_key + ": 4-bit base weights";
    }
    if (method == "full" && k.stage == "pt") {
      method = "continued";
      note = "stage pt from a pretrained model: continued pretraining";
    }
    im.set("method", method, k.finetuning_key, note);
    if (method == "qlora" && k.quant4 && k.quant4_key != k.finetuning_key) im.set("method", method, k.quant4_key);
  } else if (k.quant4) {
    im.set("method", "qlora", k.quant4_key, "4-bit base weights with adapters");
  } else if (k.command) {
    im.unsupported_key("(method)",
                       "the command does not say whether it trains every weight or adapters: set "
                       "method (full, lora, qlora, freeze, continued, pretrain)");
  }
  if (k.llamafactory_recompute_default && !im.has("parallel.recompute"))
    im.set("parallel.recompute", "full", "disable_gradient_checkpointing",
           "absent: LLaMA-Factory checkpoints gradients unless disable_gradient_checkpointing is true");
  // axolotl passes its gradient_checkpointing (false by default) to PEFT's
  // prepare_model_for_kbit_training, where the scenario's QLoRA default is PEFT's own (true).
  if (k.axolotl && im.is("method", "qlora") && !im.has("parallel.recompute"))
    im.set("parallel.recompute", "none", "gradient_checkpointing",
           "absent: axolotl's default is false, which it passes to prepare_model_for_kbit_training");
  // Liger's SwiGLU kernel off while its RMSNorm or RoPE kernel runs: the activation stays eager.
  if (!k.liger_glu_off_key.empty()) {
    const ojson* fused = Importer::at(im.scenario, "techniques.fused_kernels", false);
    if (fused && *fused == true)
      im.set("techniques.eager_activation", true, k.liger_glu_off_key,
             "Liger's other kernels run, its SwiGLU kernel does not");
    else
      im.ignore(k.liger_glu_off_key, "false");
  }
  if (k.micro > 0) im.set("micro_batch", k.micro, k.micro_key);
  if (k.gpus > 0) {
    std::string key = k.gpus_key;
    im.set("cluster.gpus", k.gpus, key);
    if (k.nodes > 1 && k.per_node > 0) im.set("cluster.gpus_per_node", k.per_node, key);
  }
  const long long accum = k.accum > 0 ? k.accum : 1;
  if (k.micro > 0 && k.gpus > 0) {
    std::string key = k.micro_key + (k.accum > 0 ? " x " + k.accum_key : "") + " x " + k.gpus_key;
    im.set("global_batch", k.micro * accum * k.gpus, key,
           "micro-batch x accumulation x GPUs (data-parallel over every GPU: no tensor or pipeline parallelism)");
  } else if (k.accum > 1) {
    im.unsupported_key(k.accum_key, "global_batch = micro-batch x " + std::to_string(k.accum) + " x GPUs needs " +
                                        (k.micro > 0 ? "the GPU count" : "the micro-batch and the GPU count") +
                                        ", which this file does not give: set global_batch");
  }
  if (k.max_steps > 0) {
    const ojson* gb = Importer::at(im.scenario, "global_batch", false);
    const ojson* s = Importer::at(im.scenario, "seq_len", false);
    if (gb && s) {
      const double tokens = static_cast<double>(k.max_steps) * gb->get<double>() * s->get<double>();
      im.set("tokens", tokens, k.max_steps_key, "max_steps x global_batch x seq_len");
    } else {
      im.unsupported_key(k.max_steps_key,
                         "tokens = max_steps x global_batch x seq_len needs both, which this file does not give");
    }
  }
}

// Two architectures the estimate cannot tell apart (the fields count_params and the FLOP count read).
bool same_arch(const ModelArch& a, const ModelArch& b) {
    return a.layers == b.layers && a.hidden == b.hidden && a.heads == b.heads && a.kv_heads == b.kv_heads &&
         a.effective_head_dim() == b.effective_head_dim() && a.ffn == b.ffn && a.vocab == b.vocab &&
         a.gated_mlp == b.gated_mlp && a.tied_embeddings == b.tied_embeddings && a.qkv_bias == b.qkv_bias &&
         a.linear_bias == b.linear_bias && a.norm == b.norm && a.learned_positions == b.learned_positions &&
         a.experts == b.experts && a.top_k == b.top_k && a.shared_experts == b.shared_experts &&
         a.expert_ffn == b.expert_ffn && a.effective_shared_ffn() == b.effective_shared_ffn() &&
         a.dense_layers == b.dense_layers && a.attention == b.attention && a.q_lora_rank == b.q_lora_rank &&
         a.kv_lora_rank == b.kv_lora_rank && a.qk_nope_head_dim == b.qk_nope_head_dim &&
         a.qk_rope_head_dim == b.qk_rope_head_dim && a.v_head_dim == b.v_head_dim;
  }

// ---- Hugging Face config.json ---------------------------------------------

enum class Family { llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma, gemma2, gemma3, deepseek, phi3, gpt_oss };

struct FamilyInfo {
  const char* model_type;
  const char* architecture;
  Family family;
  bool tied_default;  // transformers' default tie_word_embeddings of the config class
};

const FamilyInfo kFamilies[] = {
    {"llama", "LlamaForCausalLM", Family::llama, false},
    {"mistral", "MistralForCausalLM", Family::mistral, false},
    {"mixtral", "MixtralForCausalLM", Family::mixtral, false},
    {"qwen2", "Qwen2ForCausalLM", Family::qwen2, false},
    {"qwen3", "Qwen3ForCausalLM", Family::qwen3, false},
    {"qwen3_moe", "Qwen3MoeForCausalLM", Family::qwen3_moe, false},
    {"gemma", "GemmaForCausalLM", Family::gemma, true},
    {"gemma2", "Gemma2ForCausalLM", Family::gemma2, true},
    {"gemma3_text", "Gemma3ForCausalLM", Family::gemma3, true},
    {"deepseek_v2", "DeepseekV2ForCausalLM", Family::deepseek, false},
    {"deepseek_v3", "DeepseekV3ForCausalLM", Family::deepseek, false},
    {"phi3", "Phi3ForCausalLM", Family::phi3, false},
    {"gpt_oss", "GptOssForCausalLM", Family::gpt_oss, false},
};

std::string family_names() {
  std::string out;
  for (const FamilyInfo& f : kFamilies) out += std::string(out.empty() ? "" : ", ") + f.model_type;
  return out;
}

// config.json keys that add no parameters and change no figure of the estimate.
constexpr std::string_view kHfIgnored[] = {"architectures",
                                                       "model_type",
                                                       "_name_or_path",
                                                       "auto_map",
                                                       "bos_token_id",
                                                       "eos_token_id",
                                                       "pad_token_id",
                                                       "initializer_range",
                                                       "rms_norm_eps",
                                                       "layer_norm_eps",
                                                       "use_cache",
                                                       "transformers_version",
                                                       "attention_dropout",
                                                       "pretraining_tp",
                                                       "embd_pdrop",
                                                       "resid_pdrop",
                                                       "hidden_dropout",
                                                       "output_router_logits",
                                                       "router_aux_loss_coef",
                                                       "aux_loss_alpha",
                                                       "seq_aux",
                                                       "norm_topk_prob",
                                                       "routed_scaling_factor",
                                                       "scoring_func",
                                                       "topk_method",
                                                       "n_group",
                                                       "topk_group",
                                                       "ep_size",
                                                       "query_pre_attn_scalar",
                                                       "attn_logit_softcapping",
                                                       "final_logit_softcapping",
                                                       "cache_implementation",
                                                       "rope_theta",
                                                       "rope_scaling",
                                                       "rope_local_base_freq",
                                                       "original_max_position_embeddings",
                                                       "use_mrope",
                                                       "router_jitter_noise",
                                                       "max_window_layers",
                                                       "boi_token_index",
                                                       "eoi_token_index",
                                                       "image_token_index",
                                                       "mm_tokens_per_image",
                                                       "initializer_factor",
                                                       "hidden_act",
                                                       "hidden_activation",
                                                       "partial_rotary_factor",
                                                       "use_sliding_window",
                                                       "torch_dtype",
                                                       "dtype",
                                                       "tokenizer_class",
                                                       "is_encoder_decoder",
                                                       "tie_encoder_decoder",
                                                       "_attn_implementation_autoset",
                                                       "attention_chunk_size",
                                                       "use_qk_norm"};

struct HfKey {
  const char* key;
  const char* field;  // "" for special handling
};

// Keys read into model fields directly (the field's range check names the key).
const HfKey kHfDirect[] = {
    {"num_hidden_layers", "model.layers"},
    {"hidden_size", "model.hidden"},
    {"num_attention_heads", "model.heads"},
    {"intermediate_size", "model.ffn"},
    {"vocab_size", "model.vocab"},
    {"tie_word_embeddings", "model.tied_embeddings"},
    {"num_local_experts", "model.experts"},
    {"num_experts", "model.experts"},
    {"n_routed_experts", "model.experts"},
    {"num_experts_per_tok", "model.top_k"},
    {"moe_intermediate_size", "model.expert_ffn"},
    {"n_shared_experts", "model.shared_experts"},
    {"first_k_dense_replace", "model.dense_layers"},
    {"kv_lora_rank", "model.kv_lora_rank"},
    {"qk_nope_head_dim", "model.qk_nope_head_dim"},
    {"qk_rope_head_dim", "model.qk_rope_head_dim"},
    {"v_head_dim", "model.v_head_dim"},
};

// Which layers use the sliding window: transformers' per-layer list (layer_types, "sliding_attention"
// or "full_attention"), Gemma 3's sliding_window_pattern (every Nth layer attends globally), Gemma 2's
// alternation (Gemma 2 paper, arXiv:2408.00118 §2: local and global attention "in every other layer",
// the first local), or else every layer (Mistral 7B v0.1).
void set_sliding_layers(Importer& im, const ojson& cfg, Family F, const std::string& prefix) {
  const ojson layers_v = cfg.value("num_hidden_layers", ojson());
  const long long layers = layers_v.is_number_integer() ? layers_v.get<long long>() : 0;
  if (cfg.contains("layer_types") && cfg["layer_types"].is_array()) {
    long long windowed = 0;
    for (const ojson& t : cfg["layer_types"]) windowed += t == "sliding_attention" ? 1 : 0;
    if (windowed != layers)
      im.set("model.sliding_layers", windowed, prefix + "layer_types", "the layers listed as sliding_attention");
    return;
  }
  const ojson pattern = cfg.value("sliding_window_pattern", ojson());
  if (pattern.is_number_integer() && pattern.get<long long>() > 0 && layers > 0) {
    const long long n = pattern.get<long long>();
    im.set("model.sliding_layers", layers - layers / n, prefix + "sliding_window_pattern",
           "every " + std::to_string(n) + "th layer attends globally, the others through the window");
    return;
  }
  if (F == Family::gemma2 && layers > 0)
    im.set("model.sliding_layers", (layers + 1) / 2, prefix + "model_type",
           "Gemma 2 alternates local (windowed) and global attention, starting with a local layer");
}

bool hf_config(Importer& im, const ojson& top, ojson& out_extra) {
  // A vision-language config (Gemma 3 4B and up) keeps the language model under text_config.
  const bool nested = top.contains("text_config") && !top.contains("hidden_size");
  if (nested && !im.object(top["text_config"], "text_config")) return false;
  const ojson& cfg = nested ? top["text_config"] : top;
  const std::string prefix = nested ? "text_config." : "";

  // The model type: the (text) config's model_type, else the wrapper's, else the architecture class.
  const FamilyInfo* fam = nullptr;
  std::string type_key;
  const auto by_type = [&](const ojson& mt, const std::string& key) {
    type_key = key;
    if (!mt.is_string()) return im.fail(key, "must be a string; got " + mt.dump());
    std::string t = mt.get<std::string>();
    if (nested && t == "gemma3") t = "gemma3_text";  // Gemma 3's vision-language wrapper
    for (const FamilyInfo& f : kFamilies)
      if (t == f.model_type) fam = &f;
    return fam != nullptr || im.fail(key, "must be one of " + family_names() + "; got '" + t + "'");
  };
  if (nested && cfg.contains("model_type")) {
    if (!by_type(cfg["model_type"], prefix + "model_type")) return false;
  } else if (top.contains("model_type")) {
    if (!by_type(top["model_type"], "model_type")) return false;
  } else {
    const ojson a = top.contains("architectures") ? top["architectures"] : ojson();
    if (!a.is_array() || a.empty() || !a[0].is_string())
      return im.fail("architectures", "must be a list naming the model class, e.g. [\"LlamaForCausalLM\"]");
    const std::string cls = a[0].get<std::string>();
    for (const FamilyInfo& f : kFamilies)
      if (cls == f.architecture) fam = &f;
    if (!fam) {
      std::string known;
      for (const FamilyInfo& f : kFamilies) known += std::string(known.empty() ? "" : ", ") + f.architecture;
      return im.fail("architectures", "must name one of " + known + "; got '" + cls + "'");
    }
    type_key = "architectures";
  }

  for (const char* required :
       {"num_hidden_layers", "hidden_size", "num_attention_heads", "intermediate_size", "vocab_size"})
    if (!cfg.contains(required))
      return im.fail(prefix + required, "missing: a " + std::string(fam->model_type) +
                                            " config.json gives it (import uses no transformers default for it)");

  const Family F = fam->family;
  const bool moe = F == Family::mixtral || F == Family::qwen3_moe || F == Family::gpt_oss ||
                   (F == Family::deepseek && cfg.contains("n_routed_experts") && !cfg["n_routed_experts"].is_null());
  const bool mla = F == Family::deepseek;
  im.set("model.gated_mlp", true, type_key, "gated MLP (SwiGLU or GeGLU): three matrices");
  if (F == Family::qwen2) im.set("model.qkv_bias", true, type_key, "Qwen2 has biases on q, k and v");
  if (mla) im.set("model.attention", "mla", type_key, "DeepSeek's multi-head latent attention");

  for (auto it = cfg.begin(); it != cfg.end() && im.ok(); ++it) {
    const std::string name = it.key();
    const std::string key = prefix + name;
    const ojson& v = it.value();
    const HfKey* direct = nullptr;
    for (const HfKey& d : kHfDirect)
      if (name == d.key) direct = &d;
    if (direct) {
      const std::string field = direct->field;
      if (!moe && (field == "model.experts" || field == "model.top_k" || field == "model.expert_ffn" ||
                   field == "model.shared_experts" || field == "model.dense_layers")) {
        if (v.is_null()) {
          im.ignore(key, "null: a dense model");
        } else {
          im.unsupported_key(key, "an MoE key in a dense " + std::string(fam->model_type) + " config: not read");
        }
        continue;
      }
      if (!mla && (field == "model.kv_lora_rank" || field == "model.qk_nope_head_dim" ||
                   field == "model.qk_rope_head_dim" || field == "model.v_head_dim")) {
        im.unsupported_key(key, "an MLA key without multi-head latent attention: not read");
        continue;
      }
      im.set(field, v, key);
      if (name == "intermediate_size" && (F == Family::mixtral || F == Family::gpt_oss))
        im.set("model.expert_ffn", v, key, "the experts have the width of a dense MLP (every layer is MoE)");
      continue;
    }
    if (name == "num_key_value_heads") {
      if (v.is_null()) {
        im.ignore(key, "null: as many as heads");
      } else {
        im.set("model.kv_heads", v, key);
      }
    } else if (name == "head_dim") {
      if (v.is_null() || mla) {
        im.ignore(key, mla ? "MLA gives its own head widths" : "null: hidden / heads");
      } else {
        im.set("model.head_dim", v, key);
      }
    } else if (name == "q_lora_rank") {
      if (!mla) {
        im.unsupported_key(key, "an MLA key without multi-head latent attention: not read");
      } else if (v.is_null()) {
        im.set("model.q_lora_rank", 0, key, "null: queries are projected directly");
      } else {
        im.set("model.q_lora_rank", v, key);
      }
    } else if (name == "attention_bias" || name == "qkv_bias") {
      bool on = false;
      if (!im.boolean(v, key, on)) break;
      if (on) {
        im.set("model.qkv_bias", true, key,
               "biases on q, k and v counted; the output projection's bias (hidden per layer) is not");
        im.unsupported_key(key,
                           "a bias on the output projection too: the field table has q/k/v biases "
                           "(qkv_bias) or biases on every linear layer (linear_bias)");
      } else {
        im.ignore(key, "false: no attention biases");
      }
    } else if (name == "mlp_bias") {
      bool on = false;
      if (!im.boolean(v, key, on)) break;
      if (on) {
        im.unsupported_key(key, "MLP biases alone: the field table has them only with every linear layer's");
      } else {
        im.ignore(key, "false: no MLP biases");
      }
    } else if (name == "max_position_embeddings") {
      im.unsupported_key(key, "the model's context (" + value_text(v) +
                                  "): a custom model has no context field, so a seq_len beyond it is not flagged");
    } else if (name == "sliding_window" || name == "sliding_window_size") {
      const bool off = v.is_null() || (cfg.contains("use_sliding_window") && cfg["use_sliding_window"] == false);
      if (off) {
        im.ignore(key, "sliding-window attention is off");
      } else if (im.set("model.sliding_window", v, key)) {
        set_sliding_layers(im, cfg, F, prefix);
      }
    } else if (name == "layer_types" || name == "sliding_window_pattern") {
      im.ignore(key, "read with sliding_window: which layers use the window");
    } else if (name == "moe_layer_freq" || name == "decoder_sparse_step") {
      if (v == 1) {
        im.ignore(key, "1: every layer after the dense ones is MoE");
      } else {
        im.unsupported_key(key, "MoE in every " + value_text(v) +
                                    "th layer: not modelled (MoE layers follow the "
                                    "dense_layers leading ones)");
      }
    } else if (name == "mlp_only_layers") {
      if (!v.is_array()) return im.fail(key, "must be a list of layer indices; got " + v.dump());
      bool leading = true;
      for (size_t i = 0; i < v.size(); ++i)
        if (!(v[i].is_number_integer() && v[i].get<long long>() == static_cast<long long>(i))) leading = false;
      if (v.empty()) {
        im.ignore(key, "[]: every layer is MoE");
      } else if (leading) {
        im.set("model.dense_layers", static_cast<long long>(v.size()), key);
      } else {
        im.unsupported_key(key, "dense layers other than the leading ones are not modelled");
      }
    } else if (name == "num_nextn_predict_layers") {
      if (v == 0) {
        im.ignore(key, "0: no multi-token prediction module");
      } else {
        im.unsupported_key(key, "multi-token prediction modules (" + value_text(v) +
                                    "; DeepSeek-V3: 1 of 14B parameters) train only under Megatron-Core: give "
                                    "techniques.mtp_layers with framework megatron to count them");
      }
    } else if (name == "experts_per_token" && F == Family::gpt_oss) {
      im.ignore(key, "the same as num_experts_per_tok");
    } else if (name == "swiglu_limit" || name == "initial_context_length") {
      im.ignore(key, name == "swiglu_limit" ? "a clamp inside SwiGLU: no parameters, no FLOPs to speak of"
                                            : "the context before YaRN scaling: a custom model has no context field");
    } else if (name == "quantization_config") {
      im.unsupported_key(key, "the checkpoint is stored quantized; training precision is the scenario's precision");
    } else if (name == "torch_dtype" || name == "dtype") {
      im.ignore(key, "the checkpoint's storage type; the training precision is the scenario's precision field");
    } else if (listed(kHfIgnored, name)) {
      im.ignore(key, "adds no parameters and changes no figure");
    } else {
      im.unknown_key(key);
    }
  }
  if (!im.ok()) return false;
  if (nested)
    for (auto it = top.begin(); it != top.end(); ++it) {
      if (it.key() == "text_config") continue;
      if (it.key() == "vision_config") {
        im.unsupported_key("vision_config",
                           "the vision tower and its projector are not counted: the language model only");
      } else if (listed(kHfIgnored, it.key())) {
        im.ignore(it.key(), "adds no parameters and changes no figure");
      } else {
        im.unknown_key(it.key());
      }
    }

  // Defaults of the config class where the key is absent, and what the field table cannot say.
  if (!cfg.contains("tie_word_embeddings") && !top.contains("tie_word_embeddings") && fam->tied_default)
    im.set("model.tied_embeddings", true, type_key,
           "absent: " + std::string(fam->model_type) + " ties them by default");
  if (!cfg.contains("num_key_value_heads"))
    if (const ojson* h = Importer::at(im.scenario, "model.heads", false)) {
      const ojson heads = *h;
      im.set("model.kv_heads", heads, type_key, "num_key_value_heads absent: as many as heads");
    }
  if (F == Family::qwen3 || F == Family::qwen3_moe)
    im.unsupported_key(type_key, "Qwen3's q_norm and k_norm (2 x head_dim per layer) are not counted");
  if (F == Family::gemma2 || F == Family::gemma3)
    im.unsupported_key(type_key, "Gemma's post-attention and post-feedforward norms (2 x hidden per layer)" +
                                     std::string(F == Family::gemma3 ? " and q/k norms (2 x head_dim per layer)" : "") +
                                     " are not counted");
  if (F == Family::deepseek && moe && fam->model_type == std::string("deepseek_v3"))
    im.unsupported_key(type_key, "the router's score-correction bias (experts per MoE layer) is not counted");
  if (!im.ok()) return false;

  // The architecture as the scenario parser reads it, checked, counted and compared with the catalog.
  InputError err;
  detail::Reader r(err);
  ModelArch arch;
  const json model = detail::parse_text(im.scenario["model"].dump());
  if (!detail::read_arch_fields(r, model, "model", arch) || !detail::check_arch(r, arch, "model")) {
    const auto src = im.source_of.find(err.field);
    return im.fail(src != im.source_of.end() ? src->second : err.field, err.message);
  }
  const ParamCount pc = count_params(arch);
  // Llama 3 8B and 3.1 8B share one architecture: the preset of the same context wins.
  const ModelPreset* match = nullptr;
  const long long context =
      cfg.contains("max_position_embeddings") && cfg["max_position_embeddings"].is_number_integer()
          ? cfg["max_position_embeddings"].get<long long>()
          : -1;
  for (const ModelPreset& p : im.catalog_.models)
    if (same_arch(p.arch, arch) && (!match || (match->max_context != context && p.max_context == context))) match = &p;
  if (match) out_extra["matches_preset"] = match->id;
  out_extra["params"] = {{"total", static_cast<long long>(pc.total)}, {"active", static_cast<long long>(pc.active)}};
  return true;
}

// ---- DeepSpeed config JSON --------------------------------------------------

bool offload_device(Importer& im, const ojson& v, const std::string& key, std::string& out, std::string& out_key) {
  if (!im.object(v, key)) return false;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string sub = key + "." + it.key();
    if (it.key() == "device") {
      std::string d;
      if (!im.string(it.value(), sub, d)) return false;
      if (d != "none" && d != "cpu" && d != "nvme")
        return im.fail(sub, "must be one of none, cpu, nvme; got '" + d + "'");
      out = d;
      out_key = sub;
    } else {
      im.ignore(sub, "a transfer setting (pinned memory, buffers, NVMe path): not modelled separately");
    }
  }
  return true;
}

void resolve_offload(Importer& im, Knobs& k) {
  if (!im.ok()) return;
  if (!k.offload_optimizer.empty()) im.set("parallel.offload", k.offload_optimizer, k.offload_optimizer_key);
  if (k.offload_param.empty()) return;
  if (k.offload_optimizer.empty() && k.offload_param == "none") return im.ignore(k.offload_param_key, "none");
  if (k.offload_param == k.offload_optimizer) {
    im.ignore(k.offload_param_key, "the same device as the optimizer states: parallel.offload moves both under ZeRO-3");
  } else if (k.offload_param == "none") {
    im.unsupported_key(k.offload_param_key,
                       "weights kept on the GPU while optimizer states are offloaded: "
                       "parallel.offload with ZeRO-3 moves both, so weights may be undercounted");
  } else {
    im.unsupported_key(k.offload_param_key, "weights offloaded to " + k.offload_param + " but optimizer states to " +
                                                (k.offload_optimizer.empty() ? "none" : k.offload_optimizer) +
                                                ": one offload device for both is modelled");
  }
}

bool deepspeed_config(Importer& im, const ojson& cfg, Knobs& k) {
  im.set("framework", "deepspeed", "(format)", "a DeepSpeed config: the DeepSpeed engine runs the job");
  for (auto it = cfg.begin(); it != cfg.end() && im.ok(); ++it) {
    const std::string key = it.key();
    const ojson& v = it.value();
    if (key == "train_batch_size") {
      if (v.is_string() && v.get<std::string>() == "auto") {
        im.ignore(key, "\"auto\": the Trainer fills it");
      } else {
        im.set("global_batch", v, key);
      }
    } else if (key == "train_micro_batch_size_per_gpu" || key == "gradient_accumulation_steps") {
      training_key(im, k, key, v, key);
    } else if (key == "bf16" || key == "fp16") {
      if (!im.object(v, key)) return false;
      for (auto s = v.begin(); s != v.end(); ++s) {
        const std::string sub = key + "." + s.key();
        if (s.key() == "enabled") {
          set_precision_flag(im, s.value(), sub, key.c_str());
        } else {
          im.ignore(sub, "loss scaling and casting settings: no effect on memory or time");
        }
      }
    } else if (key == "zero_optimization") {
      if (!im.object(v, key)) return false;
      for (auto s = v.begin(); s != v.end() && im.ok(); ++s) {
        const std::string sub = key + "." + s.key();
        const std::string n = s.key();
        if (n == "stage") {
          im.set("parallel.zero", s.value(), sub);
        } else if (n == "offload_optimizer") {
          offload_device(im, s.value(), sub, k.offload_optimizer, k.offload_optimizer_key);
        } else if (n == "offload_param") {
          offload_device(im, s.value(), sub, k.offload_param, k.offload_param_key);
        } else if (n == "cpu_offload") {
          bool on = false;
          if (im.boolean(s.value(), sub, on) && on) k.offload_optimizer = "cpu", k.offload_optimizer_key = sub;
        } else if (n == "zero_hpz_partition_size" || n == "zero_quantized_weights" || n == "zero_quantized_gradients" ||
                   n == "mics_shard_size") {
          if (s.value() == false || s.value() == 1 || s.value() == -1) {
            im.ignore(sub, "off");
          } else {
            im.unsupported_key(sub, "ZeRO++ / MiCS partitioning and quantized communication are not modelled");
          }
        } else {
          im.ignore(sub, "bucket and prefetch tuning: ZeRO's buffers are modelled with their usual sizes");
        }
      }
    } else if (key == "optimizer") {
      if (!im.object(v, key)) return false;
      for (auto s = v.begin(); s != v.end(); ++s) {
        const std::string sub = key + "." + s.key();
        if (s.key() == "type") {
          set_optimizer(im, s.value(), sub);
        } else {
          im.ignore(sub, "optimizer hyper-parameters");
        }
      }
    } else if (key == "communication_data_type") {
      std::string t;
      if (im.string(v, key, t)) im.set("techniques.fp32_grad_reduce", t == "fp32", key);
    } else if (key == "activation_checkpointing") {
      im.unsupported_key(key,
                         "configures DeepSpeed's checkpointing API; whether layers recompute is the training "
                         "script's choice: set parallel.recompute");
    } else if (key == "pipeline" || key == "tensor_parallel" || key == "amp" || key == "sequence_parallel_size") {
      im.unsupported_key(key, "not read: set parallel.pp / parallel.tp / precision in the scenario");
    } else if (key == "scheduler" || key == "gradient_clipping" || key == "steps_per_print" ||
               key == "wall_clock_breakdown" || key == "prescale_gradients" || key == "gradient_predivide_factor" ||
               key == "zero_allow_untested_optimizer" || key == "dump_state" || key == "memory_breakdown" ||
               key == "flops_profiler" || key == "tensorboard" || key == "wandb" || key == "csv_monitor" ||
               key == "comms_logger" || key == "checkpoint" || key == "zero_force_ds_cpu_optimizer" ||
               key == "data_types" || key == "elasticity" || key == "aio") {
      im.ignore(key, "schedule, logging, profiling or I/O tuning: no effect on the estimate");
    } else {
      im.unknown_key(key);
    }
  }
  resolve_offload(im, k);
  return im.ok();
}

// ---- accelerate config YAML -------------------------------------------------

bool accelerate_config(Importer& im, const ojson& cfg, Knobs& k) {
  long long processes = 0, machines = 0;
  std::string processes_key, machines_key;
  for (auto it = cfg.begin(); it != cfg.end() && im.ok(); ++it) {
    const std::string key = it.key();
    const ojson& v = it.value();
    if (key == "distributed_type") {
      // PyYAML reads an unquoted NO as false, and so does this reader.
      const std::string t = v == false ? "NO" : v.is_string() ? v.get<std::string>() : v.dump();
      if (t == "NO") {
        im.ignore(key, "NO: one process");
        if (!cfg.contains("num_processes")) processes = 1, processes_key = key;
      } else if (t == "MULTI_GPU") {
        im.set("parallel.zero", 0, key, "data-parallel (DDP): every GPU holds the whole model");
      } else if (t == "DEEPSPEED") {
        im.set("framework", "deepspeed", key);
      } else if (t == "FSDP") {
        im.set("framework", "fsdp", key);
      } else if (t == "MEGATRON_LM") {
        im.set("framework", "megatron", key);
      } else {
        return im.fail(key, "must be one of NO, MULTI_GPU, DEEPSPEED, FSDP, MEGATRON_LM (GPU setups); got '" + t + "'");
      }
    } else if (key == "mixed_precision") {
      const std::string p = v == false ? "no" : v.is_string() ? v.get<std::string>() : v.dump();
      if (p == "no") {
        im.set("precision", "fp32", key);
      } else if (p == "fp16" || p == "bf16" || p == "fp8") {
        im.set("precision", p, key);
      } else {
        return im.fail(key, "must be one of no, fp16, bf16, fp8; got '" + p + "'");
      }
    } else if (key == "num_processes") {
      if (im.integer(v, key, processes, 1, 1000000)) processes_key = key;
    } else if (key == "num_machines") {
      if (im.integer(v, key, machines, 1, 100000)) machines_key = key;
    } else if (key == "deepspeed_config") {
      if (!im.object(v, key)) return false;
      for (auto s = v.begin(); s != v.end() && im.ok(); ++s) {
        const std::string sub = key + "." + s.key();
        const std::string n = s.key();
        if (n == "zero_stage") {
          im.set("parallel.zero", s.value(), sub);
        } else if (n == "offload_optimizer_device" || n == "offload_param_device") {
          std::string d;
          if (!im.string(s.value(), sub, d)) return false;
          if (d != "none" && d != "cpu" && d != "nvme")
            return im.fail(sub, "must be one of none, cpu, nvme; got '" + d + "'");
          (n == "offload_optimizer_device" ? k.offload_optimizer : k.offload_param) = d;
          (n == "offload_optimizer_device" ? k.offload_optimizer_key : k.offload_param_key) = sub;
        } else if (n == "gradient_accumulation_steps") {
          training_key(im, k, n, s.value(), sub);
        } else if (n == "deepspeed_config_file") {
          im.unsupported_key(sub, "names a DeepSpeed config file (" + value_text(s.value()) +
                                      "): import that file too (llmplan import FILE)");
        } else {
          im.ignore(sub, "launch and save settings: no effect on the estimate");
        }
      }
    } else if (key == "fsdp_config") {
      if (!im.object(v, key)) return false;
      for (auto s = v.begin(); s != v.end() && im.ok(); ++s) {
        const std::string sub = key + "." + s.key();
        const std::string n = s.key();
        const ojson& x = s.value();
        if (n == "fsdp_sharding_strategy") {
          const std::string st = x.is_string() ? x.get<std::string>() : x.dump();
          if (st == "FULL_SHARD" || st == "1") {
            im.set("parallel.zero", 3, sub);
          } else if (st == "SHARD_GRAD_OP" || st == "2") {
            im.set("parallel.zero", 2, sub);
          } else if (st == "NO_SHARD" || st == "3") {
            im.set("parallel.zero", 0, sub);
          } else if (st == "HYBRID_SHARD" || st == "4" || st == "HYBRID_SHARD_ZERO2" || st == "5") {
            im.set("parallel.zero", st == "HYBRID_SHARD_ZERO2" || st == "5" ? 2 : 3, sub,
                   "hybrid sharding (within a node, replicated across nodes) counted as sharding over every GPU");
          } else {
            return im.fail(sub,
                           "must be one of FULL_SHARD, SHARD_GRAD_OP, NO_SHARD, HYBRID_SHARD, "
                           "HYBRID_SHARD_ZERO2 (or 1-5); got '" +
                               st + "'");
          }
        } else if (n == "fsdp_reshard_after_forward") {
          bool on = false;
          if (im.boolean(x, sub, on))
            im.set("parallel.zero", on ? 3 : 2, sub, "FSDP2: resharding after forward is ZeRO-3");
        } else if (n == "fsdp_offload_params") {
          bool on = false;
          if (im.boolean(x, sub, on)) im.set("parallel.offload", on ? "cpu" : "none", sub);
        } else if (n == "fsdp_activation_checkpointing") {
          bool on = false;
          if (im.boolean(x, sub, on)) im.set("parallel.recompute", on ? "full" : "none", sub);
        } else {
          im.ignore(sub, "wrapping, prefetch and state-dict settings: no effect on the estimate");
        }
      }
    } else if (key == "dynamo_config") {
      if (!im.object(v, key)) return false;
      for (auto s = v.begin(); s != v.end(); ++s) {
        const std::string sub = key + "." + s.key();
        if (s.key() == "dynamo_backend") {
          const std::string b = s.value().is_string() ? s.value().get<std::string>() : s.value().dump();
          im.set("techniques.compile", b != "NO" && b != "no" && b != "false", sub);
        } else {
          im.ignore(sub, "torch.compile options");
        }
      }
    } else if (key == "megatron_lm_config") {
      im.unsupported_key(key, "Megatron-LM's layout: set parallel.tp and parallel.pp in the scenario");
    } else if (key == "use_cpu") {
      if (v == true) return im.fail(key, "true: a CPU run; llmplan estimates GPU training");
      im.ignore(key, "false");
    } else if (key == "compute_environment" || key == "machine_rank" || key == "main_process_ip" ||
               key == "main_process_port" || key == "main_training_function" || key == "rdzv_backend" ||
               key == "same_network" || key == "gpu_ids" || key == "downcast_bf16" || key == "debug" ||
               key == "enable_cpu_affinity" || key == "tpu_env" || key == "tpu_use_cluster" || key == "tpu_use_sudo" ||
               key == "num_cpu_threads_per_process" || key == "ipex_config" || key == "mpirun_config") {
      im.ignore(key, "launch settings: no effect on the estimate");
    } else {
      im.unknown_key(key);
    }
  }
  if (!im.ok()) return false;
  // accelerate's FullyShardedDataParallelPlugin defaults to FULL_SHARD (FSDP1) and to resharding
  // after forward (FSDP2): a config that names neither shards every state.
  if (im.has("framework") && !im.has("parallel.zero") && cfg.contains("distributed_type") &&
      cfg["distributed_type"] == "FSDP")
    im.set("parallel.zero", 3, "fsdp_config.fsdp_sharding_strategy",
           "absent: accelerate's default is FULL_SHARD (ZeRO-3)");
  if (processes > 0) {
    k.gpus = processes;
    k.gpus_key = processes_key;
    if (machines > 0) {
      k.nodes = machines;
      if (processes % machines != 0)
        return im.fail(processes_key, "must be a multiple of num_machines (" + std::to_string(machines) + "); got " +
                                          std::to_string(processes));
      k.per_node = processes / machines;
      k.gpus_key = processes_key + " (over " + machines_key + ")";
    }
  } else if (machines > 1) {
    im.unsupported_key(machines_key, "the GPU count needs num_processes");
  }
  resolve_offload(im, k);
  return im.ok();
}

// ---- LLaMA-Factory and axolotl YAML -------------------------------------------

bool training_yaml(Importer& im, const ojson& cfg, Knobs& k, bool llamafactory) {
  if (llamafactory) k.llamafactory_recompute_default = true;
  k.axolotl = !llamafactory;
  // What each tool does when the key is absent: LLaMA-Factory's finetuning_type defaults to lora,
  // axolotl without an adapter trains every weight.
  if (llamafactory && !cfg.contains("finetuning_type")) {
    k.finetuning = "lora";
    k.finetuning_key = "finetuning_type";
    k.finetuning_note = "absent: LLaMA-Factory's default is lora";
  }
  if (!llamafactory && (!cfg.contains("adapter") || cfg["adapter"].is_null())) {
    k.finetuning = "full";
    k.finetuning_key = "adapter";
    k.finetuning_note = "no adapter: axolotl trains every weight";
  }
  for (auto it = cfg.begin(); it != cfg.end() && im.ok(); ++it) {
    const std::string key = it.key();
    const ojson& v = it.value();
    if (training_key(im, k, key, v, key)) continue;
    if (!im.ok()) break;
    if (!llamafactory && (key == "fsdp" || key == "fsdp_config")) {
      if (key == "fsdp") {
        if (!fsdp_options(im, v, key)) return false;
        continue;
      }
      Knobs dummy;
      ojson wrapped = {{"fsdp_config", v}};
      // The same keys as accelerate's fsdp_config.
      if (!im.object(v, key)) break;
      accelerate_config(im, wrapped, dummy);
      continue;
    }
    if (listed(kBookkeeping, key)) {
      im.ignore(key, kBookkeepingReason);
    } else {
      im.unknown_key(key);
    }
  }
  return im.ok();
}

// ---- torchrun / deepspeed command lines -------------------------------------

struct Token {
  std::string text;
  int line = 0;
};

// Splits a shell command into words: quotes, backslash escapes and line continuations, comments.
bool shell_words(std::string_view text, std::vector<Token>& out, InputError& err) {
  const auto fail = [&](int line, const std::string& message) {
    err.field = "line " + std::to_string(line);
    err.message = err.field + ": " + message;
    return false;
  };
  std::string cur;
  bool in_word = false;
  int line = 1, word_line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      const char n = text[i + 1];
      ++i;
      if (n == '\n') {
        ++line;
        continue;
      }
      if (n == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
        ++i;
        ++line;
        continue;
      }
      if (!in_word) word_line = line;
      cur += n;
      in_word = true;
      continue;
    }
    if (c == '\'' || c == '"') {
      const size_t end = text.find(c, i + 1);
      if (end == std::string_view::npos) return fail(line, std::string("the closing ") + c + " is missing");
      if (!in_word) word_line = line;
      for (size_t j = i + 1; j < end; ++j)
        if (text[j] == '\n') ++line;
      cur.append(text.substr(i + 1, end - i - 1));
      in_word = true;
      i = end;
      continue;
    }
    if (c == '#' && !in_word) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) out.push_back({cur, word_line});
      cur.clear();
      in_word = false;
      if (c == '\n') {
        ++line;
        if (!out.empty() && out.back().text != "\n") out.push_back({"\n", line - 1});
      }
      continue;
    }
    if (c == ';' || c == '|' || c == '&' || c == '`' || c == '>' || c == '<' || c == '(' || c == ')')
      return fail(line, std::string("'") + c + "': one command is read, without pipes, redirections or subshells");
    if (!in_word) word_line = line;
    cur += c;
    in_word = true;
  }
  if (in_word) out.push_back({cur, word_line});
  return true;
}

bool is_launcher(const std::vector<Token>& w, size_t i, size_t& skip, std::string& format) {
  if (i >= w.size()) return false;
  const std::string& t = w[i].text;
  const std::string base = t.substr(t.rfind('/') == std::string::npos ? 0 : t.rfind('/') + 1);
  if (base == "torchrun") return skip = 1, format = "torchrun", true;
  if (base == "deepspeed") return skip = 1, format = "deepspeed_cli", true;
  if ((base == "python" || base == "python3") && i + 2 < w.size() && w[i + 1].text == "-m" &&
      (w[i + 2].text == "torch.distributed.run" || w[i + 2].text == "torch.distributed.launch"))
    return skip = 3, format = "torchrun", true;
  return false;
}

// Whether the text is a torchrun / deepspeed command line (its first command names a launcher).
bool looks_like_command(std::string_view text, std::string& format) {
  std::vector<Token> w;
  InputError err;
  if (!shell_words(text, w, err)) return false;
  size_t i = 0;
  while (i < w.size() && (w[i].text == "\n" || w[i].text == "export" ||
                          (w[i].text.find('=') != std::string::npos && w[i].text[0] != '-')))
    ++i;
  size_t skip = 0;
  return is_launcher(w, i, skip, format);
}

// ---- Megatron-LM command line -------------------------------------------------

// The arguments of Megatron-LM's pretrain_gpt.py (megatron/training/arguments.py) that decide a
// figure, as the launch artefacts write them (launch.cpp, megatron_args). They are collected first
// and resolved together: the defaults of absent flags depend on the others. Switches (store_true)
// take no value.
constexpr std::string_view kMegatronSwitches[] = {
    "account_for_embedding_in_pipeline_split", "account_for_loss_in_pipeline_split", "sequence_parallel",
    "tp_comm_overlap", "overlap_moe_expert_parallel_comm", "delay_wgrad_compute", "no_overlap_p2p_communication",
    "use_distributed_optimizer", "use_torch_fsdp2", "overlap_grad_reduce", "overlap_param_gather",
    "recompute_activations", "cpu_offloading", "moe_router_force_load_balancing", "moe_pad_expert_input_to_capacity",
    "cross_entropy_loss_fusion", "no_bias_swiglu_fusion", "bf16", "fp16", "fp8_param_gather", "grad_reduce_in_bf16",
    "group_query_attention", "multi_latent_attention", "swiglu", "untie_embeddings_and_output_weights",
    "disable_bias_linear", "add_qkv_bias", "use_rotary_position_embeddings", "no_position_embedding",
    "pretrained_checkpoint_is_dir"};
constexpr std::string_view kMegatronValued[] = {
    "tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size",
    "expert_model_parallel_size", "expert_tensor_parallel_size", "num_virtual_stages_per_pipeline_rank",
    "num_layers_per_virtual_pipeline_stage", "decoder_first_pipeline_num_layers",
    "decoder_last_pipeline_num_layers", "pipeline_model_parallel_layout", "recompute_granularity",
    "recompute_method", "recompute_num_layers", "cpu_offloading_num_layers", "moe_token_dispatcher_type",
    "moe_flex_dispatcher_backend", "moe_flex_dispatcher_num_sms", "moe_expert_capacity_factor", "attention_backend",
    "cross_entropy_fusion_impl", "mtp_num_layers", "fp8_format", "seq_length", "max_position_embeddings",
    "micro_batch_size", "global_batch_size", "train_iters", "train_samples", "pretrained_checkpoint", "finetune",
    "attention_dropout", "hidden_dropout", "num_layers", "hidden_size", "ffn_hidden_size", "num_attention_heads",
    "kv_channels", "num_query_groups", "q_lora_rank", "kv_lora_rank", "qk_head_dim", "qk_pos_emb_head_dim",
    "v_head_dim", "num_experts", "moe_router_topk", "moe_ffn_hidden_size", "moe_shared_expert_intermediate_size",
    "moe_layer_freq", "normalization", "position_embedding_type", "vocab_size", "make_vocab_size_divisible_by",
    "tokenizer_model"};

// Megatron-LM arguments that change no figure: data, schedule, logging, saving, initialisation.
constexpr std::string_view kMegatronBookkeeping[] = {
    "save", "load", "save_interval", "data_path", "split", "tokenizer_type", "lr", "min_lr", "lr_decay_style",
    "lr_decay_iters", "lr_decay_samples", "lr_warmup_iters", "lr_warmup_fraction", "lr_warmup_samples",
    "weight_decay", "clip_grad", "adam_beta1", "adam_beta2", "adam_eps", "init_method_std", "log_interval",
    "eval_interval", "eval_iters", "tensorboard_dir", "wandb_project", "wandb_exp_name", "seed",
    "distributed_backend", "use_mcore_models", "transformer_impl", "log_throughput", "exit_duration_in_mins",
    "no_load_optim", "no_load_rng", "ckpt_format", "data_cache_path", "mock_data", "rotary_base", "rotary_percent",
    "norm_epsilon", "manual_gc", "log_timers_to_tensorboard", "timing_log_level", "exit_interval",
    "no_masked_softmax_fusion", "no_async_tensor_model_parallel_allreduce", "train_data_path", "valid_data_path",
    "test_data_path", "vocab_file", "merge_file"};

// A flag and the scenario field it gives: a number copied (value null), or a switch that sets value.
struct FlagField {
  std::string_view flag;
  const char* path;
  const char* value;  // JSON text; nullptr: the flag's own number
};
constexpr FlagField kMegatronFields[] = {
    {"tensor_model_parallel_size", "parallel.tp", nullptr},
    {"pipeline_model_parallel_size", "parallel.pp", nullptr},
    {"context_parallel_size", "parallel.cp", nullptr},
    {"expert_model_parallel_size", "parallel.ep", nullptr},
    {"expert_tensor_parallel_size", "parallel.etp", nullptr},
    {"num_virtual_stages_per_pipeline_rank", "parallel.vp", nullptr},
    {"moe_flex_dispatcher_num_sms", "parallel.ep_comm_sms", nullptr},
    {"moe_expert_capacity_factor", "parallel.moe_capacity_factor", nullptr},
    {"mtp_num_layers", "techniques.mtp_layers", nullptr},
    {"seq_length", "seq_len", nullptr},
    {"micro_batch_size", "micro_batch", nullptr},
    {"global_batch_size", "global_batch", nullptr},
    {"sequence_parallel", "parallel.sequence_parallel", "true"},
    {"tp_comm_overlap", "parallel.tp_comm_overlap", "true"},
    {"overlap_moe_expert_parallel_comm", "parallel.ep_comm_overlap", "true"},
    {"no_overlap_p2p_communication", "parallel.pp_comm_overlap", "false"},
    {"use_distributed_optimizer", "parallel.zero", "1"},
    {"use_torch_fsdp2", "parallel.zero", "3"},
    {"recompute_activations", "parallel.recompute", "\"selective\""},
    {"moe_router_force_load_balancing", "parallel.moe_routing", "\"random\""},
    {"no_bias_swiglu_fusion", "techniques.eager_activation", "true"},
    {"cross_entropy_loss_fusion", "techniques.fused_loss", "\"fused_ce\""},
    {"fp8_param_gather", "fp8_params", "true"},
    {"grad_reduce_in_bf16", "techniques.fp32_grad_reduce", "false"},
    {"fp16", "precision", "\"fp16\""},
};

// A model field and the flag it comes from (absent: Megatron-LM's default, model()).
struct ModelFlag {
  const char* field;
  std::string_view flag;
};
constexpr ModelFlag kMegatronModel[] = {
    {"layers", "num_layers"},
    {"hidden", "hidden_size"},
    {"heads", "num_attention_heads"},
    {"kv_heads", "num_query_groups"},
    {"kv_heads", "group_query_attention"},
    {"head_dim", "kv_channels"},
    {"ffn", "ffn_hidden_size"},
    {"gated_mlp", "swiglu"},
    {"tied_embeddings", "untie_embeddings_and_output_weights"},
    {"qkv_bias", "add_qkv_bias"},
    {"linear_bias", "disable_bias_linear"},
    {"norm", "normalization"},
    {"learned_positions", "max_position_embeddings"},
    {"learned_positions", "position_embedding_type"},
    {"learned_positions", "use_rotary_position_embeddings"},
    {"learned_positions", "no_position_embedding"},
    {"experts", "num_experts"},
    {"top_k", "moe_router_topk"},
    {"shared_experts", "moe_shared_expert_intermediate_size"},
    {"expert_ffn", "moe_ffn_hidden_size"},
    {"shared_expert_ffn", "moe_shared_expert_intermediate_size"},
    {"dense_layers", "moe_layer_freq"},
    {"attention", "multi_latent_attention"},
    {"q_lora_rank", "q_lora_rank"},
    {"kv_lora_rank", "kv_lora_rank"},
    {"qk_nope_head_dim", "qk_head_dim"},
    {"qk_rope_head_dim", "qk_pos_emb_head_dim"},
    {"v_head_dim", "v_head_dim"},
    {"vocab", "vocab_size"},
    {"vocab", "make_vocab_size_divisible_by"},
    {"vocab", "tokenizer_model"},
};
// Model flags that give a width or a count as their value.
constexpr std::string_view kMegatronModelNumbers[] = {
    "num_layers", "hidden_size", "num_attention_heads", "kv_channels", "ffn_hidden_size", "num_experts",
    "moe_router_topk", "moe_ffn_hidden_size", "moe_shared_expert_intermediate_size", "q_lora_rank", "kv_lora_rank",
    "qk_head_dim", "qk_pos_emb_head_dim", "v_head_dim"};
// The model fields that only multi-latent attention has (--multi-latent-attention).
constexpr std::string_view kMegatronMlaFields[] = {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim",
                                                   "qk_rope_head_dim", "v_head_dim"};

// A flag's name as Megatron-LM spells it: num_layers -> --num-layers.
std::string dashed(std::string_view name) {
  std::string out = "--" + std::string(name);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

// --moe-layer-freq "([0]*N+[1]*M)": N, with M in `moe_blocks`; -1 for any other form.
long long layer_freq(const std::string& t, long long& moe_blocks) {
  size_t at = 0;
  const auto number = [&t, &at]() {
    long long v = -1;
    while (at < t.size() && std::isdigit(static_cast<unsigned char>(t[at])) && v < 1000000)
      v = std::max(v, 0LL) * 10 + (t[at++] - '0');
    return v;
  };
  const auto expect = [&t, &at](std::string_view s) {
    if (t.compare(at, s.size(), s) != 0) return false;
    at += s.size();
    return true;
  };
  if (!expect("([0]*")) return -1;
  const long long dense = number();
  if (dense < 0 || !expect("+[1]*")) return -1;
  moe_blocks = number();
  return moe_blocks >= 0 && expect(")") && at == t.size() ? dense : -1;
}

// A --pipeline-model-parallel-layout with its repeats written out: "t*3" -> "ttt", "(tt|)*2" ->
// "tt|tt|"; commas and spaces dropped (Megatron-Core PipelineParallelLayerLayout). Nested repeats
// and counts above 100,000 characters are left as they are (the layout then reads as not the estimate's).
std::string expand_layout(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size() && out.size() < 100000; ++i) {
    const char c = text[i];
    if (c == ',' || c == ' ') continue;
    std::string unit(1, c);
    if (c == '(') {
      const size_t close = text.find(')', i);
      if (close == std::string::npos) return text;
      unit = text.substr(i + 1, close - i - 1);
      i = close;
    }
    long long n = 1;
    if (i + 1 < text.size() && text[i + 1] == '*') {
      n = 0;
      for (i += 2; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n < 100000; ++i)
        n = n * 10 + (text[i] - '0');
      --i;
    }
    for (long long k = 0; k < n && out.size() < 100000; ++k) out += unit;
  }
  std::erase(out, ',');
  return out;
}

struct MegatronFlag {
  ojson value;
  std::string text, key;
  bool variable = false;  // a shell variable: its value is not known here
};
using MegatronFlags = std::map<std::string, MegatronFlag, std::less<>>;

// Whether the command runs Megatron-LM: its GPT or Mamba script, or flags only Megatron-LM has.
bool megatron_script(const std::string& script, const std::vector<Token>& w, size_t from) {
  const std::string base = script.substr(script.rfind('/') == std::string::npos ? 0 : script.rfind('/') + 1);
  if (base == "pretrain_gpt.py" || base == "pretrain_mamba.py") return true;
  for (size_t i = from; i < w.size(); ++i) {  // argparse spells them with dashes only
    const std::string& t = w[i].text;
    if (t.rfind("--tensor-model-parallel-size", 0) == 0 || t.rfind("--pipeline-model-parallel-size", 0) == 0)
      return true;
  }
  return false;
}

constexpr const char* kMegatronDefault = "absent: Megatron-LM's default";

class Megatron {
 public:
  Megatron(Importer& im, Knobs& k, const MegatronFlags& f) : im_(im), k_(k), f_(f) {}

  void resolve() {
    for (const auto& e : f_) {
      const MegatronFlag& f = e.second;
      if (listed(kMegatronSwitches, e.first) && !f.text.empty())
        return void(im_.fail(f.key, "is a switch and takes no value; got '" + f.text + "'"));
      if (!listed(kMegatronSwitches, e.first) && f.text.empty())
        return void(im_.fail(f.key, "needs a value"));
    }
    for (const FlagField& m : kMegatronFields)
      if (const MegatronFlag* f = get(m.flag)) im_.set(m.path, m.value ? ojson::parse(m.value) : f->value, f->key);
    for (void (Megatron::*step)() : {&Megatron::layout, &Megatron::precision, &Megatron::batch, &Megatron::model}) {
      if (!im_.ok()) return;
      (this->*step)();
    }
    if (im_.ok()) account();
  }

 private:
  Importer& im_;
  Knobs& k_;
  const MegatronFlags& f_;

  // A flag whose value is known (nullptr: absent, or a shell variable).
  const MegatronFlag* get(std::string_view name) const {
    const auto it = f_.find(name);
    return it == f_.end() || it->second.variable ? nullptr : &it->second;
  }
  bool on(std::string_view name) const { return f_.find(name) != f_.end(); }
  bool variable(std::string_view name) const { return on(name) && !get(name); }
  // The flag's whole number, or `fallback` when absent or refused (the refusal is the error).
  long long integer(std::string_view name, long long fallback, long long lo = 1, long long hi = 1LL << 40) {
    const MegatronFlag* f = get(name);
    long long v = fallback;
    if (f && !im_.integer(f->value, f->key, v, lo, hi, f->text)) return fallback;
    return v;
  }
  // The flag's text, one of `allowed` (or `fallback` when absent).
  std::string choice(std::string_view name, std::initializer_list<const char*> allowed, const char* fallback) {
    const MegatronFlag* f = get(name);
    if (!f) return fallback;
    std::string list;
    for (const char* a : allowed) {
      if (f->text == a) return a;
      list += std::string(list.empty() ? "" : ", ") + a;
    }
    im_.fail(f->key, "must be one of " + list + "; got '" + f->text + "'");
    return fallback;
  }
  void absent(const char* path, const ojson& v, std::string_view flag, const char* note = kMegatronDefault) {
    if (im_.ok() && !im_.has(path)) im_.set(path, v, dashed(flag), note);
  }

  void layout() {
    const long long pp = integer("pipeline_model_parallel_size", 1);
    const long long layers = integer("num_layers", 0);
    const bool known = !variable("pipeline_model_parallel_size") && !variable("num_layers") && layers > 0;
    if (const MegatronFlag* f = get("num_layers_per_virtual_pipeline_stage"); f && known) {
      // The embedding and the loss count as blocks where the account-for flags say so (arguments.py).
      const long long blocks = layers + on("account_for_embedding_in_pipeline_split") +
                               on("account_for_loss_in_pipeline_split");
      const long long per = integer("num_layers_per_virtual_pipeline_stage", 1);
      if (!im_.ok() || blocks % (pp * per) != 0)
        return void(im_.fail(f->key, "must divide --num-layers / --pipeline-model-parallel-size (" +
                                         std::to_string(blocks) + " / " + std::to_string(pp) +
                                         ", the embedding and loss counted where the account-for flags say); got " +
                                         f->text));
      im_.set("parallel.vp", blocks / (pp * per), f->key, "blocks / (--pipeline-model-parallel-size x this)");
    }
    split_flags(known, layers, pp);
    const ojson* vp = Importer::at(im_.scenario, "parallel.vp", false);
    if (vp && *vp > 1)
      absent("parallel.pp_comm_overlap", true, "no_overlap_p2p_communication",
             "absent: Megatron-LM overlaps the interleaved schedule's transfers");
    if (!im_.is("framework", "deepspeed"))  // Megatron-DeepSpeed's ZeRO stage is in its DeepSpeed config
      absent("parallel.zero", 0, "use_distributed_optimizer", "absent: Megatron-LM's DDP keeps every state on each rank");
    for (std::string_view name : {"overlap_grad_reduce", "overlap_param_gather", "delay_wgrad_compute",
                                  "moe_pad_expert_input_to_capacity"}) {
      if (on(name))
        im_.ignore(dashed(name), "overlap or padding the estimate counts as this flag runs it");
      else if (!im_.is("framework", "deepspeed") &&  // Megatron-DeepSpeed: the DeepSpeed config's overlap_comm
               ((name == "overlap_grad_reduce" && !on("use_torch_fsdp2")) ||
                (name == "overlap_param_gather" && on("use_distributed_optimizer"))))
        im_.unsupported_key(dashed(name), "absent: the job runs this data-parallel traffic after the compute, which "
                                          "the estimate overlaps (the job is slower than estimated)");
    }
    recompute();
    dispatch();
    offload(layers, pp);
  }

  // Megatron-LM's stage split flags, compared with the split the estimate uses (pipeline_split).
  void split_flags(bool known, long long layers, long long pp) {
    const ojson* v = Importer::at(im_.scenario, "parallel.vp", false);
    const PipelineSplit split = pipeline_split(static_cast<int>(layers), static_cast<int>(pp));
    bool layout_ours = false;
    if (const MegatronFlag* f = get("pipeline_model_parallel_layout"); f && known && split.ok) {
      const std::string layout = expand_layout(f->text);
      const long long stages = std::count(layout.begin(), layout.end(), '|') + 1;
      const int vp = static_cast<int>(stages / pp);
      const ojson* mtp = Importer::at(im_.scenario, "techniques.mtp_layers", false);
      layout_ours = layout == megatron_pipeline_layout(split, static_cast<int>(pp), vp, mtp ? mtp->get<int>() : 0);
      if (stages % pp == 0 && !v) {
        im_.set("parallel.vp", vp, f->key, "the layout's virtual stages over --pipeline-model-parallel-size");
        v = Importer::at(im_.scenario, "parallel.vp", false);
      }
    }
    const int vp = v ? v->get<int>() : 1;
    const bool ends = on("account_for_embedding_in_pipeline_split") && on("account_for_loss_in_pipeline_split");
    for (std::string_view name : {"decoder_first_pipeline_num_layers", "decoder_last_pipeline_num_layers",
                                  "account_for_embedding_in_pipeline_split", "account_for_loss_in_pipeline_split",
                                  "pipeline_model_parallel_layout"}) {
      if (!on(name)) continue;
      // Both account-for flags: the first and last stage one block short, as pipeline_split gives.
      const bool short_ends = split.first + 1 == split.middle && split.last + 1 == split.middle;
      const bool ours = known && split.ok &&
                        (name == "decoder_first_pipeline_num_layers"  ? integer(name, 0) == split.first
                         : name == "decoder_last_pipeline_num_layers" ? integer(name, 0) == split.last
                         : name.rfind("account", 0) == 0
                             ? ends && (embedding_counts_as_block(split, static_cast<int>(pp), vp) || (vp == 1 && short_ends))
                             : layout_ours);
      if (ours)
        im_.ignore(dashed(name), "the estimate's own split (layout.stage_layers)");
      else
        im_.unsupported_key(dashed(name), "a stage split the estimate does not take: it puts ceil(layers / pp) "
                                          "blocks on a stage, the remainder off the first and last (layout.stage_layers)");
    }
  }

  void recompute() {
    const MegatronFlag* g = get("recompute_granularity");
    if (!g) return;
    if (on("recompute_activations"))  // arguments.py: it sets the granularity to selective
      return void(im_.ignore(g->key, "--recompute-activations sets selective"));
    const std::string granularity = choice("recompute_granularity", {"full", "selective"}, "full");
    im_.set("parallel.recompute", granularity, g->key);
    const std::string method = choice("recompute_method", {"uniform", "block"}, "uniform");
    const long long n = integer("recompute_num_layers", 1, 1, 100000);
    if (variable("recompute_method") || variable("recompute_num_layers") || granularity != "full") return;
    if (method == "block")
      im_.set("parallel.recompute_layers", n, dashed("recompute_method") + " " + dashed("recompute_num_layers"),
              "the first N blocks of each chunk");
    else if (n > 1)
      im_.unsupported_key(dashed("recompute_num_layers"),
                          "uniform groups of blocks: counted as every block checkpointed alone");
  }

  void dispatch() {
    if (variable("moe_token_dispatcher_type")) return;
    const MegatronFlag* t = get("moe_token_dispatcher_type");
    const std::string type = choice("moe_token_dispatcher_type", {"alltoall", "flex", "allgather"}, "allgather");
    const bool experts_split = integer("expert_model_parallel_size", 1) > 1 || variable("expert_model_parallel_size");
    if (type == "allgather" && experts_split)
      im_.unsupported_key(dashed("moe_token_dispatcher_type"),
                          "allgather (Megatron-Core's default) is not modelled: the estimate counts an all-to-all");
    else if (type == "allgather" && t)
      im_.ignore(t->key, "no expert parallelism: nothing is dispatched between ranks");
    if (type == "alltoall") im_.set("parallel.ep_dispatcher", "alltoall", t->key);
    if (type == "flex")
      im_.set("parallel.ep_dispatcher", choice("moe_flex_dispatcher_backend", {"deepep", "hybridep"}, "deepep"),
              t->key + (on("moe_flex_dispatcher_backend") ? " " + dashed("moe_flex_dispatcher_backend") : ""),
              on("moe_flex_dispatcher_backend") ? "" : "flex's default backend, DeepEP");
  }

  // --cpu-offloading offloads --cpu-offloading-num-layers blocks (0 by default), at most all but
  // the last (TransformerConfig), which the launch artefacts write for the estimate's "every block".
  void offload(long long layers, long long pp) {
    const MegatronFlag* n = get("cpu_offloading_num_layers");
    const long long count = integer("cpu_offloading_num_layers", 0, 0, 100000);
    if (!on("cpu_offloading") && count == 0) return;  // a count above 0 turns offloading on by itself
    if (count == 0)
      return void(im_.unsupported_key(dashed("cpu_offloading"),
                                      variable("cpu_offloading_num_layers") ? "the number of blocks is a shell variable"
                                      : "without --cpu-offloading-num-layers Megatron-LM offloads no block"));
    const bool every = pp == 1 && count == layers - 1;
    im_.set("techniques.activation_offload", true, on("cpu_offloading") ? dashed("cpu_offloading") : n->key);
    im_.set("techniques.activation_offload_layers", every ? 0 : count, n->key,
            every ? "all but the last block, the most Megatron-LM offloads: every block in the estimate" : "");
  }

  void precision() {
    if (on("fp8_format")) {
      choice("fp8_format", {"hybrid", "e4m3"}, "hybrid");
      im_.set("precision", "fp8", dashed("fp8_format"), "Transformer Engine's FP8 linear layers");
      if (on("bf16")) im_.ignore(dashed("bf16"), "the rest of the model in bf16 beside FP8: precision fp8");
    } else if (on("bf16")) {
      im_.set("precision", "bf16", dashed("bf16"));
    }
    absent("precision", "fp32", "bf16", "absent (and no --fp16): Megatron-LM trains in fp32");
    if ((on("bf16") || on("fp8_format")) && !im_.is("framework", "deepspeed"))
      absent("techniques.fp32_grad_reduce", true, "grad_reduce_in_bf16",
             "absent: Megatron-LM accumulates and reduces bf16 gradients in fp32");
    if (const MegatronFlag* a = get("attention_backend")) {
      const std::string b = choice("attention_backend", {"flash", "fused", "unfused", "local", "auto"}, "auto");
      if (b != "auto") im_.set("parallel.flash_attention", b == "flash" || b == "fused", a->key);
      if (b == "fused") im_.set("parallel.attention_kernel", "cudnn", a->key);
    }
    if (on("cross_entropy_fusion_impl")) choice("cross_entropy_fusion_impl", {"te", "native"}, "native");
    // Dropout: Megatron-LM drops 0.1 of the attention probabilities and hidden states by default.
    if (variable("attention_dropout") || variable("hidden_dropout")) return;
    bool dropout = false;
    std::string keys, absent_note;
    for (std::string_view name : {"attention_dropout", "hidden_dropout"}) {
      const MegatronFlag* f = get(name);
      const double p = !f ? 0.1 : f->value.is_number() ? f->value.get<double>() : -1;
      if (p < 0 || p >= 1)
        return void(im_.fail(f->key, "must be a number in 0..1 (exclusive of 1); got '" + f->text + "'"));
      dropout = dropout || p > 0;
      std::string& into = f ? keys : absent_note;
      into += into.empty() ? (f ? "" : "absent ") : (f ? " " : " and ");
      into += dashed(name);
    }
    im_.set("dropout", dropout, keys.empty() ? dashed("hidden_dropout") : keys,
            absent_note.empty() ? "" : absent_note + ": 0.1, Megatron-LM's default");
  }

  void batch() {
    if (const MegatronFlag* m = get("micro_batch_size"); m && !on("global_batch_size") && k_.gpus > 0) {
      const long long model = integer("tensor_model_parallel_size", 1) * integer("pipeline_model_parallel_size", 1) *
                              integer("context_parallel_size", 1);
      const bool known = !variable("tensor_model_parallel_size") && !variable("pipeline_model_parallel_size") &&
                         !variable("context_parallel_size");
      if (known && k_.gpus % model == 0)
        im_.set("global_batch", integer("micro_batch_size", 1) * (k_.gpus / model), m->key + " x " + k_.gpus_key,
                "absent --global-batch-size: micro-batch x data-parallel size, Megatron-LM's default");
    }
    const ojson* global = Importer::at(im_.scenario, "global_batch", false);
    const MegatronFlag* seq = get("seq_length");
    for (std::string_view name : {"train_iters", "train_samples"}) {
      const MegatronFlag* f = get(name);
      if (!f) continue;
      const bool iters = name == "train_iters";
      if (!seq || (iters && !global)) {
        im_.unsupported_key(f->key, std::string("tokens need ") + (iters ? "the global batch and " : "") +
                                        "--seq-length, which the command does not give");
        continue;
      }
      const double n = static_cast<double>(integer(name, 1)) * static_cast<double>(integer("seq_length", 1));
      im_.set("tokens", iters ? n * global->get<double>() : n, f->key,
              iters ? "iterations x global_batch x seq_len" : "samples x seq_len");
    }
    if (on("pretrained_checkpoint") || on("finetune"))
      im_.unsupported_key(dashed(on("finetune") ? "finetune" : "pretrained_checkpoint"),
                          "starts from trained weights: set method (full or continued)");
    else
      im_.set("method", "pretrain", dashed("pretrained_checkpoint"), "absent: training from initialisation");
    k_.command = false;  // the method is settled here
  }

  // The model's flags the command gives, as one key.
  std::string model_keys() const {
    std::string keys;
    for (const ModelFlag& f : kMegatronModel)
      if (on(f.flag) && keys.find(dashed(f.flag)) == std::string::npos)
        keys += (keys.empty() ? "" : ", ") + dashed(f.flag);
    return keys;
  }
  void leave_model_out(const std::string& why) { im_.unsupported_key(model_keys(), why + ": the model is left out"); }

  // The architecture, Megatron-LM's defaults where a flag is absent (arguments.py).
  void model() {
    if (!on("num_layers") && !on("hidden_size") && !on("num_attention_heads")) return;
    for (const ModelFlag& f : kMegatronModel)
      if (variable(f.flag) && !(f.flag == "tokenizer_model" && get("vocab_size")))
        return leave_model_out(dashed(f.flag) + " is a shell variable");
    if (variable("tensor_model_parallel_size") && on("vocab_size"))
      return leave_model_out("the vocabulary's padding needs --tensor-model-parallel-size, a shell variable");
    for (std::string_view name : {"num_layers", "hidden_size", "num_attention_heads"})
      if (!on(name)) return leave_model_out(dashed(name) + " is absent");
    ojson m = ojson::object();
    for (const ModelFlag& f : kMegatronModel) {
      if (!listed(kMegatronModelNumbers, f.flag) || !get(f.flag) || std::string_view(f.field) == "shared_experts")
        continue;
      const bool moe = f.flag.rfind("moe_", 0) == 0, mla = listed(kMegatronMlaFields, f.field);
      if ((moe && !on("num_experts")) || (mla && !on("multi_latent_attention")))
        im_.ignore(get(f.flag)->key, moe ? "without --num-experts there are no experts" : "without --multi-latent-attention");
      else
        m[f.field] = integer(f.flag, 1, 1, 10000000);
    }
    const long long hidden = integer("hidden_size", 1);
    const bool swiglu = on("swiglu");
    // --ffn-hidden-size: 4h, or with SwiGLU 2/3 of it rounded down to a multiple of 64.
    if (!m.contains("ffn")) m["ffn"] = swiglu ? (4 * hidden * 2 / 3) / 64 * 64 : 4 * hidden;
    m["gated_mlp"] = swiglu;
    // Multi-latent attention has no key/value heads of its own (--num-query-groups does not apply).
    const bool groups = on("group_query_attention") && !on("multi_latent_attention");
    m["kv_heads"] = groups ? ojson(integer("num_query_groups", 1)) : m["heads"];
    const std::string norm = choice("normalization", {"LayerNorm", "RMSNorm"}, "LayerNorm");
    m["norm"] = norm == "RMSNorm" ? "rmsnorm" : "layernorm";
    const std::string pos =
        on("use_rotary_position_embeddings") ? "rope"
        : on("no_position_embedding")
            ? "none"
            : choice("position_embedding_type", {"learned_absolute", "rope", "mrope", "relative", "none"},
                     "learned_absolute");
    const bool learned = pos == "learned_absolute";
    if (learned && !on("max_position_embeddings"))
      return void(im_.fail(dashed("position_embedding_type"),
                           "learned_absolute (the default) needs --max-position-embeddings"));
    m["learned_positions"] = learned ? integer("max_position_embeddings", 1) : 0;
    if (!learned && on("max_position_embeddings"))
      im_.ignore(dashed("max_position_embeddings"), "without learned positions it sizes no tensor the estimate counts");
    m["tied_embeddings"] = !on("untie_embeddings_and_output_weights");
    m["linear_bias"] = !on("disable_bias_linear");
    m["qkv_bias"] = on("disable_bias_linear") && on("add_qkv_bias");
    if (on("num_experts")) {
      if (!m.contains("top_k")) m["top_k"] = 2;
      if (!m.contains("expert_ffn")) m["expert_ffn"] = m["ffn"];
      if (m.contains("shared_expert_ffn")) m["shared_experts"] = 1;
      if (const MegatronFlag* f = get("moe_layer_freq")) {
        long long moe_blocks = -1;
        const long long dense = f->value == 1 ? 0 : layer_freq(f->text, moe_blocks);
        if (f->value != 1 && (dense < 0 || dense + moe_blocks != integer("num_layers", 1)))
          return leave_model_out("--moe-layer-freq '" + f->text +
                                 "': only 1 or ([0]*N+[1]*M), N dense blocks first, with N + M = --num-layers is read");
        if (dense > 0) m["dense_layers"] = dense;
      }
    }
    if (on("multi_latent_attention")) {
      m["attention"] = "mla";
      for (const auto& [field, value] : {std::pair{"kv_lora_rank", 32}, {"qk_nope_head_dim", 128},
                                         {"qk_rope_head_dim", 64}, {"v_head_dim", 128}})
        if (!m.contains(field)) m[field] = value;
    }
    if (im_.ok()) vocab_and_preset(m);
  }

  // The flag a model field came from, and whether it was given.
  std::pair<std::string, bool> source(const std::string& field) const {
    if (field == "kv_heads" && on("multi_latent_attention")) return {dashed("multi_latent_attention"), true};
    std::string keys;
    for (const ModelFlag& f : kMegatronModel)
      if (field == f.field && on(f.flag)) {
        if (!keys.empty()) keys += ' ';
        keys += dashed(f.flag);
      }
    if (!keys.empty()) return {keys, true};
    for (const ModelFlag& f : kMegatronModel)
      if (field == f.field) return {dashed(f.flag), false};
    return {dashed("num_layers"), false};
  }

  // The vocabulary comes from the tokenizer: --vocab-size, or the preset the tokenizer names. The
  // preset of this architecture is matched on it as the tokenizer gives it; a model of its own takes
  // it padded as Megatron-LM pads it (to a multiple of --make-vocab-size-divisible-by x TP:
  // tokenizer.py, _vocab_size_with_padding).
  void vocab_and_preset(ojson m) {
    long long vocab = 0;
    std::string vocab_key = dashed("vocab_size");
    if (get("vocab_size")) {
      vocab = integer("vocab_size", 0, 1, 100000000);
    } else if (const MegatronFlag* t = get("tokenizer_model")) {
      if (const ModelPreset* p = im_.catalog_.find_model(preset_for_model_name(t->text, im_.catalog_))) {
        vocab = p->arch.vocab;
        vocab_key = t->key;
      }
    }
    InputError err;
    detail::Reader r(err);
    ModelArch a;
    m["vocab"] = vocab > 0 ? vocab : 1;
    if (!detail::read_arch_fields(r, detail::parse_text(m.dump()), "model", a) || !detail::check_arch(r, a, "model"))
      return void(im_.fail(source(err.field.substr(err.field.find('.') + 1)).first,
                           err.message.substr(err.field.size() + 2)));
    a.vocab = static_cast<int>(vocab);
    const long long context = integer("max_position_embeddings", -1);
    std::vector<const ModelPreset*> matches;
    for (const ModelPreset& p : im_.catalog_.models) {
      ModelArch b = p.arch;
      if (vocab == 0) b.vocab = 0;
      // The launch artefacts write the shared experts as one of their summed width.
      b.shared_expert_ffn = b.shared_experts * b.effective_shared_ffn();
      b.shared_experts = b.shared_experts > 0 ? 1 : 0;
      if (same_arch(b, a)) matches.push_back(&p);
    }
    // Presets of one architecture and one vocabulary (Llama 3 and 3.1 8B): the one of this context.
    const ModelPreset* match = matches.empty() ? nullptr : matches.front();
    for (const ModelPreset* p : matches) {
      if (p->arch.vocab != match->arch.vocab) {
        std::string ids;
        for (const ModelPreset* q : matches) ids += (ids.empty() ? "" : ", ") + q->id;
        return leave_model_out("presets " + ids + " have this architecture and differ in vocabulary, which the "
                               "tokenizer gives: set model.preset");
      }
      if (match->max_context != context && p->max_context == context) match = p;
    }
    if (match) return void(im_.set("model.preset", match->id, model_keys(), "the flags give this preset's architecture"));
    if (vocab == 0)
      return leave_model_out("no preset has this architecture and no vocabulary size is known (the tokenizer's): "
                             "give --vocab-size, or set model.vocab");
    const long long multiple =
        integer("make_vocab_size_divisible_by", 128, 1, 100000) * integer("tensor_model_parallel_size", 1);
    m["vocab"] = (vocab + multiple - 1) / multiple * multiple;
    for (auto it = m.begin(); it != m.end() && im_.ok(); ++it) {
      const auto [key, given] = source(it.key());
      const bool padded = it.key() == "vocab" && m["vocab"] != vocab;
      im_.set("model." + it.key(), it.value(), it.key() == "vocab" ? vocab_key : key,
              padded   ? std::to_string(vocab) + " padded to a multiple of " + std::to_string(multiple) + ", as Megatron-LM does"
              : given  ? ""
                       : kMegatronDefault);
    }
  }

  // Flags read only beside others (a backend with its dispatcher, the tokenizer for the vocabulary)
  // and not named in any list yet: listed as ignored, so every flag is accounted for.
  void account() {
    std::vector<std::string> named;
    for (const ojson* list : {&im_.mapped, &im_.ignored, &im_.unsupported})
      for (const ojson& e : *list) named.push_back(e["key"].get<std::string>());
    for (const auto& entry : f_) {
      const MegatronFlag& f = entry.second;
      const bool listed = std::any_of(named.begin(), named.end(), [&f](const std::string& k) {
        const size_t at = k.find(f.key);
        const size_t end = at + f.key.size();
        return at != std::string::npos && (end == k.size() || k[end] == ' ' || k[end] == ',');
      });
      if (!listed) im_.ignore(f.key, "read with the flags it qualifies, or not needed beside them");
    }
  }
};

bool command_line(Importer& im, std::string_view text, Knobs& k, std::string& format) {
  std::vector<Token> w;
  InputError err;
  if (!shell_words(text, w, err)) return im.fail(err.field, err.message.substr(err.field.size() + 2));
  size_t i = 0;
  // Leading lines: blank, comments (gone already), `export VAR=value` and VAR=value prefixes.
  while (i < w.size()) {
    const std::string& t = w[i].text;
    if (t == "\n") {
      ++i;
    } else if (t == "export") {
      ++i;
    } else if (t.find('=') != std::string::npos && t[0] != '-') {
      im.unsupported_key(t.substr(0, t.find('=')), "an environment variable: not read");
      ++i;
    } else {
      break;
    }
  }
  size_t skip = 0;
  k.command = true;
  if (!is_launcher(w, i, skip, format))
    return im.fail("line " + std::to_string(i < w.size() ? w[i].line : 1),
                   "expected a torchrun, python -m torch.distributed.run or deepspeed command; got '" +
                       (i < w.size() ? w[i].text.substr(0, 60) : std::string()) + "'");
  i += skip;
  const bool ds = format == "deepspeed_cli";
  // Launcher options, up to the script (the first word that is not an option or its value).
  long long nproc = 0, nnodes = 0;
  std::string nproc_key, nnodes_key;
  static constexpr std::string_view launcher_with_value[] = {"node_rank",         "master_addr",
                                                     "master_port",       "rdzv_backend",
                                                     "rdzv_endpoint",     "rdzv_id",
                                                     "rdzv_conf",         "max_restarts",
                                                     "monitor_interval",  "role",
                                                     "log_dir",           "log-dir",
                                                     "redirects",         "tee",
                                                     "start_method",      "start-method",
                                                     "local_addr",        "hostfile",
                                                     "exclude",           "launcher",
                                                     "launcher_args",     "ssh_port",
                                                     "master-addr",       "master-port",
                                                     "node-rank",         "rdzv-backend",
                                                     "rdzv-endpoint",     "rdzv-id",
                                                     "max-restarts",      "min_elastic_nodes",
                                                     "max_elastic_nodes", "local-ranks-filter",
                                                     "local_ranks_filter"};
  static constexpr std::string_view launcher_flags[] = {
      "standalone",       "no_python",    "no-python", "module",      "m",          "use_env",
      "use-env",          "run_path",     "run-path",  "force_multi", "autotuning", "bind_cores_to_rank",
      "elastic_training", "no_local_rank"};
  std::string script;
  while (i < w.size() && im.ok()) {
    std::string t = w[i].text;
    if (t == "\n") {
      ++i;
      continue;
    }
    if (t.rfind("-", 0) != 0) {
      script = t;
      ++i;
      break;
    }
    std::string name = t.substr(t.rfind("--", 0) == 0 ? 2 : 1), value;
    bool has_value = false;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    std::replace(name.begin(), name.end(), '-', '_');
    const std::string key = "--" + name;
    const auto take_value = [&]() {
      if (!has_value && i + 1 < w.size() && w[i + 1].text != "\n") {
        value = w[++i].text;
        has_value = true;
      }
      return has_value;
    };
    if (name == "nproc_per_node" || name == "num_gpus") {
      if (!take_value()) return im.fail(key, "needs a value");
      const ojson v = detail::yaml_plain_scalar(value);
      if (v.is_number()) {  // a count out of range or not whole is refused; "gpu" or "auto" is not known here
        if (!im.integer(v, key, nproc, 1, 1024, value)) return false;
        nproc_key = key;
      } else {
        im.unsupported_key(key, "'" + value + "': the machine's GPU count, not known here: set cluster.gpus");
      }
    } else if (name == "nnodes" || name == "num_nodes") {
      if (!take_value()) return im.fail(key, "needs a value");
      const ojson v = detail::yaml_plain_scalar(value);
      if (v.is_number()) {  // "1:4" is an elastic range, not a number
        if (!im.integer(v, key, nnodes, 1, 100000, value)) return false;
        nnodes_key = key;
      } else {
        im.unsupported_key(key, "'" + value + "': an elastic node range; set cluster.gpus for the size you run");
      }
    } else if (name == "include" && ds) {
      if (!take_value()) return im.fail(key, "needs a value");
      // host:slot,slot@host:slot...
      long long total = 0, hosts = 0;
      bool known = true;
      size_t start = 0;
      while (start <= value.size()) {
        const size_t at = value.find('@', start);
        const std::string host = value.substr(start, at == std::string::npos ? std::string::npos : at - start);
        const size_t colon = host.find(':');
        if (colon == std::string::npos) {
          known = false;
        } else {
          total += 1 + static_cast<long long>(std::count(host.begin() + static_cast<long>(colon), host.end(), ','));
        }
        ++hosts;
        if (at == std::string::npos) break;
        start = at + 1;
      }
      if (known && total > 0) {
        nproc = total / hosts;
        nnodes = hosts;
        nproc_key = nnodes_key = key;
        if (total % hosts != 0) im.unsupported_key(key, "hosts with different GPU counts: the average is used");
      } else {
        im.unsupported_key(key, "'" + value + "': a host without slots uses all its GPUs, not known here");
      }
    } else if (listed(launcher_with_value, name)) {
      take_value();
      im.ignore(key, "launch setting: no effect on the estimate");
    } else if (listed(launcher_flags, name)) {
      if (name == "standalone" && nnodes == 0) nnodes = 1, nnodes_key = key;
      im.ignore(key, "launch setting: no effect on the estimate");
    } else {
      take_value();
      im.unknown_key(key);
    }
    ++i;
  }
  if (!im.ok()) return false;
  if (script.empty())
    return im.fail("line " + std::to_string(w.empty() ? 1 : w.back().line),
                   "the training script is missing after the launcher's options");
  if (nproc > 0) {
    k.gpus = nproc * (nnodes > 0 ? nnodes : 1);
    k.nodes = nnodes > 0 ? nnodes : 1;
    k.per_node = nproc;
    k.gpus_key = nproc_key + (nnodes > 1 ? " x " + nnodes_key : "");
  } else if (nnodes > 1) {
    im.unsupported_key(
        nnodes_key, "the GPU count needs GPUs per node (" + std::string(ds ? "--num_gpus" : "--nproc_per_node") + ")");
  } else if (ds) {
    im.unsupported_key("--num_gpus",
                       "absent: DeepSpeed uses every GPU of the machine, not known here: set cluster.gpus");
  }
  if (ds) im.set("framework", "deepspeed", "deepspeed", "the DeepSpeed launcher runs a DeepSpeed engine");
  const bool megatron = megatron_script(script, w, i);
  // Under the DeepSpeed launcher the script is Megatron-DeepSpeed's, run by a DeepSpeed engine.
  if (megatron && !ds) im.set("framework", "megatron", script, "Megatron-LM's training script");
  MegatronFlags mflags;
  // The script's own flags.
  while (i < w.size() && im.ok()) {
    const std::string t = w[i].text;
    ++i;
    if (t == "\n") continue;
    if (t.rfind("--", 0) != 0) {
      im.unknown_key(t);
      continue;
    }
    std::string name = t.substr(2), value;
    bool has_value = false;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    std::replace(name.begin(), name.end(), '-', '_');
    if (!has_value && i < w.size() && w[i].text != "\n" &&
        (w[i].text.rfind("-", 0) != 0 ||
         (w[i].text.size() > 1 && std::isdigit(static_cast<unsigned char>(w[i].text[1]))))) {
      value = w[i].text;
      has_value = true;
      ++i;
    }
    const std::string key = "--" + name;
    if (megatron) {
      const std::string typed = t.substr(0, t.find('='));
      if (listed(kMegatronSwitches, name) || listed(kMegatronValued, name)) {
        if (mflags.count(name)) return im.fail(dashed(name), "is given twice");
        const bool var = has_value && value.find('$') != std::string::npos;
        if (var) im.unsupported_key(dashed(name), "'" + value + "' is a shell variable: its value is not known here");
        mflags[name] = {var || !has_value ? ojson(true) : detail::yaml_plain_scalar(value), has_value ? value : "",
                        dashed(name), var};
      } else if (name == "deepspeed_config" || name == "deepspeed") {
        im.unsupported_key(typed, "names a DeepSpeed config (Megatron-DeepSpeed): import that file too for its ZeRO "
                                  "stage and offload");
      } else if (name == "use_checkpoint_args") {
        im.unsupported_key(typed, "the architecture comes from the checkpoint's saved arguments: set model.preset");
      } else if (listed(kMegatronBookkeeping, name)) {
        im.ignore(typed, kBookkeepingReason);
        // --data-path takes several words (weights and prefixes).
        while (i < w.size() && w[i].text != "\n" && w[i].text.rfind("-", 0) != 0) ++i;
      } else {
        im.unknown_key(typed);
      }
      continue;
    }
    if (has_value && value.find('$') != std::string::npos) {
      im.unsupported_key(key, "'" + value + "' is a shell variable: its value is not known here");
      continue;
    }
    // A flag without a value is true (HfArgumentParser's boolean flags).
    ojson v = has_value ? detail::yaml_plain_scalar(value) : ojson(true);
    if (name == "lora_target" || name == "lora_target_modules") {
      // Space-separated module names: every following word that is not a flag.
      std::string list = has_value ? value : "";
      while (i < w.size() && w[i].text != "\n" && w[i].text.rfind("-", 0) != 0) list += "," + w[i++].text;
      v = list;
    }
    if (training_key(im, k, name, v, key)) continue;
    if (!im.ok()) break;
    if (name == "fsdp") {
      // TrainingArguments.fsdp: the options the Trainer passes to FSDP.
      if (!fsdp_options(im, v, key)) break;
    } else if (listed(kBookkeeping, name)) {
      im.ignore(key, kBookkeepingReason);
    } else {
      im.unknown_key(key);
    }
  }
  if (megatron && im.ok()) Megatron(im, k, mflags).resolve();
  return im.ok();
}

// ---- detection ---------------------------------------------------------------

const char* kLookedFor =
    "not a recognised training config; looked for a Hugging Face config.json (model_type or architectures), "
    "a DeepSpeed config JSON (zero_optimization or train_micro_batch_size_per_gpu), an accelerate config YAML "
    "(compute_environment or distributed_type), a LLaMA-Factory YAML (stage, finetuning_type, cutoff_len, "
    "model_name_or_path), an axolotl YAML (base_model, adapter, sequence_len, micro_batch_size), or a torchrun / "
    "deepspeed command line";

int count_keys(const ojson& o, std::initializer_list<const char*> keys) {
  int n = 0;
  for (const char* k : keys) n += o.contains(k) ? 1 : 0;
  return n;
}

std::string error_json(const InputError& e) {
  return ojson{{"error", {{"field", e.field}, {"message", e.message}}}}.dump(2);
}

}  // namespace

ScenarioParse parse_imported_scenario(std::string_view scenario_json, const Catalog& catalog) {
  ojson check = ojson::parse(scenario_json, nullptr, false);
  if (!check.is_object()) return parse_scenario(scenario_json, catalog);
  const ojson x = check.value("parallel", ojson::object());
  const bool experts = x.contains("ep") || x.contains("etp");
  if (!check.contains("model")) check["model"] = {{"preset", experts ? kCheckMoeModel : kCheckModel}};
  ScenarioParse p = parse_scenario(check.dump(), catalog);
  // A command whose GPU count the shell gives (torchrun $DISTRIBUTED_ARGS): the layout is checked
  // over the GPUs it could run on, the model-parallel ranks times data-parallel ones.
  const bool gpus = check.contains("cluster") && check["cluster"].contains("gpus");
  if (p.scenario || gpus || !check.contains("parallel")) return p;
  const auto number = [](const ojson& o, const char* key) {
    return o.contains(key) && o[key].is_number_integer() ? o[key].get<long long>() : 1LL;
  };
  const long long model = number(x, "tp") * number(x, "pp") * number(x, "cp"), ep = number(x, "ep");
  const long long micro = number(check, "micro_batch"), global = number(check, "global_batch");
  const long long dp = check.contains("global_batch") && global % micro == 0 ? global / micro : 1;
  for (long long d : {1LL, ep, dp, dp * ep}) {
    if (model * d > 1000000) break;
    check["cluster"]["gpus"] = model * d;
    if (const ScenarioParse q = parse_scenario(check.dump(), catalog); q.scenario) return q;
  }
  return p;
}

std::string import_config(std::string_view text, const Catalog& catalog) {
  try {
    if (const size_t bad = first_bad_utf8(text); bad != std::string_view::npos)
      return error_json({"(file)", "(file): byte " + std::to_string(bad) + " is not UTF-8 text"});
    Importer im(catalog);
    Knobs k;
    ojson extra = ojson::object();
    std::string format;
    size_t first = 0;
    while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
    if (first == text.size()) return error_json({"(file)", "(file): empty; " + std::string(kLookedFor)});
    if (text[first] == '{' || text[first] == '[') {
      std::string problem, at;
      const json doc = detail::parse_checked(text, problem, &at);
      if (doc.is_discarded() && text[first] == '[')  // "[rank0]: ..." is a log, not a JSON list
        return error_json({"(file)", "(file): " + std::string(kLookedFor)});
      if (doc.is_discarded())
        return error_json({at.empty() ? "(json)" : at, (at.empty() ? "(json)" : at) + ": " + problem});
      if (!doc.is_object()) return error_json({"(json)", "(json): must be an object; " + std::string(kLookedFor)});
      const ojson cfg = detail::parse_untrusted<ojson>(text);  // the same document, in the file's key order
      if (cfg.contains("model_type") || cfg.contains("architectures")) {
        format = "hf_config";
        hf_config(im, cfg, extra);
      } else if (cfg.contains("zero_optimization") || cfg.contains("train_micro_batch_size_per_gpu")) {
        format = "deepspeed";
        deepspeed_config(im, cfg, k);
      } else {
        return error_json({"(file)", "(file): " + std::string(kLookedFor)});
      }
    } else if (std::string f; looks_like_command(text, f)) {
      command_line(im, text, k, format);
    } else {
      detail::YamlError ye;
      const ojson cfg = detail::parse_yaml_lite(text, ye);
      // Text without a single "key:" is no YAML config at all: say what was looked for.
      const bool any_key = text.find(": ") != std::string_view::npos || text.find(":\n") != std::string_view::npos ||
                           (!text.empty() && text.back() == ':');
      if (ye.line && !any_key) return error_json({"(file)", "(file): " + std::string(kLookedFor)});
      if (ye.line) {
        const std::string where = "line " + std::to_string(ye.line);
        return error_json({where, where + ": " + ye.message});
      }
      if (!cfg.is_object()) return error_json({"(file)", "(file): " + std::string(kLookedFor)});
      const int lf = count_keys(cfg, {"stage", "finetuning_type", "cutoff_len", "model_name_or_path"});
      const int ax = count_keys(cfg, {"base_model", "adapter", "sequence_len", "micro_batch_size"});
      if (cfg.contains("compute_environment") || cfg.contains("distributed_type")) {
        format = "accelerate";
        accelerate_config(im, cfg, k);
      } else if (lf > 0 && lf >= ax) {
        format = "llamafactory";
        training_yaml(im, cfg, k, true);
      } else if (ax > 0) {
        format = "axolotl";
        training_yaml(im, cfg, k, false);
      } else {
        return error_json({"(file)", "(file): " + std::string(kLookedFor)});
      }
    }
    finish(im, k);
    if (!im.ok()) return error_json(*im.error);

    // The contract: the partial scenario parses.
    const ScenarioParse p = parse_imported_scenario(im.scenario.dump(), catalog);
    if (!p.scenario) {
      const auto src = im.source_of.find(p.error.field);
      const std::string field = src != im.source_of.end() ? src->second : p.error.field;
      return error_json({field, field + ": the imported values do not make a valid scenario: " + p.error.message});
    }

    // The model's fields in the field table's order (the order of docs/scenario.md).
    if (im.scenario.contains("model") && im.scenario["model"].size() > 1) {
      ojson model = ojson::object();
      for (const FieldSpec& f : all_fields()) {
        const std::string path = f.path;
        if (path.rfind("model.", 0) == 0 && im.scenario["model"].contains(path.substr(6)))
          model[path.substr(6)] = im.scenario["model"][path.substr(6)];
      }
      im.scenario["model"] = model;
    }
    ojson out = {{"format", format}, {"scenario", im.scenario}};
    for (auto it = extra.begin(); it != extra.end(); ++it) out[it.key()] = it.value();
    out["mapped"] = im.mapped;
    out["ignored"] = im.ignored;
    out["unsupported"] = im.unsupported;
    out["unknown"] = im.unknown;
    return out.dump(2);
  } catch (const std::exception& e) {
    return error_json({"(file)", std::string("(file): internal error: ") + e.what()});
  }
}

}  // namespace llmplan
