// i18n.hpp: every string the UI shows, in English and Simplified Chinese. The build subsets the
// fonts to the characters of i18n.cpp, so a string drawn from anywhere else may lack glyphs.
#pragma once

namespace llmplan::web {

enum class Lang { en, zh };

enum class S {
  tagline, language_toggle,
  section_model, preset, custom_arch, layers, hidden, heads, kv_heads, ffn, vocab, gated_mlp, tied_embeddings,
  params, params_detail,
  section_training, method, method_pretrain, method_continued, method_full, precision, optimizer,
  seq_len, micro_batch, global_batch, global_batch_auto, batch_detail,
  section_cluster, gpus, gpus_per_node, gpu_memory, gpu_memory_hint,
  section_layout, tp, pp, dp, zero, zero_0, zero_1, zero_2, zero_3, sequence_parallel, recompute,
  recompute_none, recompute_selective, recompute_full, flash_attention,
  section_result, fits, does_not_fit, headroom, over_by, of_capacity,
  weights, gradients, optimizer_states, activations, logits, buffers, runtime, total, capacity,
  col_component, col_share, max_micro_batch, max_micro_batch_none, stage, stage_only, stage_first, stage_last,
  invalid_input, warnings, unit_note, sources_note,
  catalog, as_of, load_catalog, use_builtin_catalog, catalog_refused, more_problems,
  copy_link, copy_embed, copied, link_notice, link_changes, dismiss,
  view_results,
  // [planner strings: add above this line]
  // [estimate strings: add above this line]
  count
};

const char* tr(S s);
Lang language();
void set_language(Lang lang);
// Every string of one language joined (to build the font's glyph ranges).
const char* all_strings(Lang lang);

}  // namespace llmplan::web
