// panel_inputs.cpp: the scenario editor (model, training, cluster, parallel layout).
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/units.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

bool model_preset_combo(AppState& app) {
  const Catalog& catalog = app_catalog(app);
  const char* current = app.preset_index >= 0 ? catalog.models[static_cast<size_t>(app.preset_index)].name.c_str()
                                              : tr(S::custom_arch);
  bool changed = false;
  if (ImGui::BeginCombo("##preset", current)) {
    for (int i = 0; i < static_cast<int>(catalog.models.size()); ++i) {
      const ModelPreset& m = catalog.models[static_cast<size_t>(i)];
      if (ImGui::Selectable(m.name.c_str(), i == app.preset_index)) {
        app.preset_index = i;
        app.scenario.model_preset = m.id;
        app.scenario.model = m.arch;
        changed = true;
      }
    }
    if (ImGui::Selectable(tr(S::custom_arch), app.preset_index < 0)) {
      app.preset_index = -1;
      app.scenario.model_preset.clear();  // keep the current architecture as the starting point
      changed = true;
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool architecture_rows(AppState& app) {
  ModelArch& m = app.scenario.model;
  const InputError& e = app.error;
  bool c = false;
  c |= form_int(tr(S::layers), "model.layers", &m.layers, 1, 1000, e);
  c |= form_int(tr(S::hidden), "model.hidden", &m.hidden, 1, 1000000, e);
  c |= form_int(tr(S::heads), "model.heads", &m.heads, 1, 4096, e);
  c |= form_int(tr(S::kv_heads), "model.kv_heads", &m.kv_heads, 1, 4096, e);
  c |= form_int(tr(S::ffn), "model.ffn", &m.ffn, 1, 10000000, e);
  c |= form_int(tr(S::vocab), "model.vocab", &m.vocab, 1, 10000000, e);
  c |= form_checkbox(tr(S::gated_mlp), &m.gated_mlp);
  c |= form_checkbox(tr(S::tied_embeddings), &m.tied_embeddings);
  return c;
}

bool model_section(AppState& app) {
  section_header(tr(S::section_model));
  bool c = false;
  if (begin_form("model")) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr(S::preset));
    ImGui::TableSetColumnIndex(1);
    ImGui::SetNextItemWidth(-1.0f);
    c |= model_preset_combo(app);
    if (app.preset_index < 0) c |= architecture_rows(app);
    if (app.has_result) form_text(tr(S::params), format_count(app.result.params.total).c_str());
    end_form();
  }
  if (app.preset_index >= 0) {
    const ModelPreset& p = app_catalog(app).models[static_cast<size_t>(app.preset_index)];
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", p.source.c_str());
    ImGui::PopTextWrapPos();
  }
  return c;
}

bool training_section(AppState& app) {
  section_header(tr(S::section_training));
  Scenario& s = app.scenario;
  const InputError& e = app.error;
  bool c = false;
  if (!begin_form("training")) return false;
  const char* methods[] = {tr(S::method_pretrain), tr(S::method_continued), tr(S::method_full)};
  int method = static_cast<int>(s.method);
  if (form_combo(tr(S::method), "method", &method, methods, 3, e)) {
    s.method = static_cast<Method>(method);
    c = true;
  }
  const char* precisions[] = {"bf16", "fp16", "fp32"};
  int precision = static_cast<int>(s.precision);
  if (form_combo(tr(S::precision), "precision", &precision, precisions, 3, e)) {
    s.precision = static_cast<Precision>(precision);
    c = true;
  }
  form_text(tr(S::optimizer), "AdamW");
  c |= form_int(tr(S::seq_len), "seq_len", &s.seq_len, 1, 1048576, e);
  c |= form_int(tr(S::micro_batch), "micro_batch", &s.micro_batch, 1, 65536, e);
  c |= form_int(tr(S::global_batch), "global_batch", &s.global_batch, 0, 100000000, e);
  help_marker(tr(S::global_batch_auto));
  end_form();
  return c;
}

bool cluster_section(AppState& app) {
  section_header(tr(S::section_cluster));
  Cluster& k = app.scenario.cluster;
  const InputError& e = app.error;
  bool c = false;
  if (!begin_form("cluster")) return false;
  c |= form_int(tr(S::gpus), "cluster.gpus", &k.gpus, 1, 1000000, e);
  c |= form_int(tr(S::gpus_per_node), "cluster.gpus_per_node", &k.gpus_per_node, 1, 72, e);
  c |= form_double(tr(S::gpu_memory), "cluster.gpu_memory_gb", &k.gpu_memory_gb, 1, 1000, "%.1f", e);
  help_marker(tr(S::gpu_memory_hint));
  end_form();
  return c;
}

bool layout_section(AppState& app) {
  section_header(tr(S::section_layout));
  Parallel& x = app.scenario.parallel;
  const InputError& e = app.error;
  bool c = false;
  if (!begin_form("layout")) return false;
  c |= form_int(tr(S::tp), "parallel.tp", &x.tp, 1, 1024, e);
  c |= form_int(tr(S::pp), "parallel.pp", &x.pp, 1, 1000, e);
  char dp[32];
  std::snprintf(dp, sizeof dp, "%d", app.has_result && !app.result_is_stale ? app.result.dp : 0);
  form_text(tr(S::dp), app.result_is_stale ? "-" : dp);
  const char* stages[] = {tr(S::zero_0), tr(S::zero_1), tr(S::zero_2), tr(S::zero_3)};
  c |= form_combo(tr(S::zero), "parallel.zero", &x.zero, stages, 4, e);
  c |= form_checkbox(tr(S::sequence_parallel), &x.sequence_parallel);
  const char* recompute[] = {tr(S::recompute_none), tr(S::recompute_selective), tr(S::recompute_full)};
  int r = static_cast<int>(x.recompute);
  if (form_combo(tr(S::recompute), "parallel.recompute", &r, recompute, 3, e)) {
    x.recompute = static_cast<Recompute>(r);
    c = true;
  }
  c |= form_checkbox(tr(S::flash_attention), &x.flash_attention);
  end_form();
  return c;
}

}  // namespace

bool draw_inputs(AppState& app) {
  bool changed = model_section(app);
  changed |= training_section(app);
  changed |= cluster_section(app);
  changed |= layout_section(app);
  return changed;
}

}  // namespace llmplan::web
