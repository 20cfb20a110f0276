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
  view_planner, view_design, view_topology, planner_question, objective, obj_min_cost, obj_min_time,
  obj_cost_deadline, obj_time_budget, max_gpus, deadline_days, budget_usd, providers, accelerators, any_all,
  n_selected, clear_selection, spot_allowed, run_planner, cancel, planner_hint, searching, cancelled,
  searched_summary, planner_error, stale_question, rejected, rej_memory, rej_divisibility, rej_batch,
  rej_deadline, rej_budget, rej_no_price, rej_software, rej_network, no_plan, col_instance, col_layout,
  col_time, col_cost, col_mfu, col_why, layout_fmt, cpu_offload, pareto_title, axis_time, axis_cost,
  pareto_point, click_to_select, selected_plan, plan_heading, tier, use_plan, plan_in_use, advice, rdma,
  data_location, checkpoint_location, node_sizing, col_need, col_have, vcpus, host_ram, local_nvme, launch,
  copy, checklist, expect, design_title, design_metric, design_computing, design_done, design_cell_none,
  click_to_use, design_grey, shader_failed, topo_no_result, topo_summary, topo_color_by, topo_by_tp,
  topo_by_pp, topo_by_dp, topo_more_nodes, topo_node, topo_nvswitch, topo_nvlink, topo_xgmi, topo_hccs,
  topo_pcie, topo_nic, topo_gpu_tip, topo_fabric, topo_rdma, topo_tcp, topo_single_node, topo_scale_up,
  topo_legend, topo_tp_crosses,
  currency_any, priced_in, download_csv,
  // [planner strings: add above this line]
  catalog_with_edits, view_catalog, sec_model, sec_method, sec_data, sec_cluster, sec_layout, sec_network,
  sec_storage, sec_pricing, reset_tip, range_fmt, input_error, default_word, auto_word, u_tokens, u_seqs,
  u_gpus, u_nodes, u_layers, u_h, u_months, u_per_h, u_per_gpu_h, u_usd_gpu_h, u_x, u_bytes, u_count,
  t_preset, t_layers, t_hidden, t_heads, t_kv_heads, t_ffn, t_vocab, t_head_dim, t_gated, t_tied, experts,
  t_experts, top_k, t_top_k, shared_experts, t_shared, expert_ffn, t_expert_ffn, dense_layers,
  t_dense_layers, head_dim, method_lora, method_qlora, method_freeze, t_method, lora_rank, t_lora_rank,
  lora_targets, t_lora_targets, targets_attention, targets_all, trainable_layers, t_trainable, t_precision,
  pure_bf16, t_pure_bf16, t_optimizer, t_seq_len, t_micro_batch, t_global_batch, tokens, t_tokens,
  dataset_tokens, t_dataset_tokens, epochs, t_epochs, bytes_per_token, t_bytes_per_token, cluster_mode,
  mode_accel, mode_instance, t_cluster_mode, accelerator, t_accelerator, t_gpus, t_gpus_per_node,
  t_gpu_memory, instance, t_instance, nodes, t_nodes, filter, offering_fmt, offering_price, na, t_tp, t_pp,
  t_dp, t_zero, t_sp, t_recompute, offload, t_offload, offload_none, offload_cpu, offload_nvme, t_flash,
  tp_overlap, t_tp_overlap, inter_link, t_inter_link, inter_gbps, t_inter_gbps, u_gbps, from_catalog,
  data_tier, t_data_tier, ckpt_tier, t_ckpt_tier, ckpt_interval, t_ckpt_interval, retention, t_retention,
  ckpt_kept, t_ckpt_kept, price_mode, t_price_mode, mode_on_demand, mode_spot, mode_r1, mode_r3, price,
  t_price, overhead, t_overhead, currency, t_currency, spot_rate, t_spot_rate, failure_rate, t_failure_rate,
  card_fits, card_time, card_cost, card_mfu, card_tier, yes, no, tier_l1, tier_l2, tier_l3, gpu_hours_fmt,
  per_gpu_hour_fmt, sec_step, part_compute, part_comm, part_bubble, part_offload, part_io, step_total,
  tokens_per_s, u_tok_s, steps, sec_cost, cost_compute, cost_storage, cost_total, cost_per_btok, col_item,
  col_value, col_provided, col_needed, price_source, sec_needs, need_data_rate, need_ckpt,
  need_ckpt_interval, need_inter, need_vcpus, need_ram, need_nvme, need_rdma, rdma_needed, rdma_not_needed,
  unknown, where_data, where_ckpt, why_title, why_formula, why_inputs, stale, export_md, export_scenario,
  export_result, exported, w_memory_exceeds, w_tp_crosses_nodes, w_seq_exceeds_context,
  w_multinode_without_rdma, w_data_on_block_disk, w_io_bound, w_host_ram_below_2x_gpu, w_few_vcpus,
  w_pcie_only_gpus, w_checkpoints_on_local_disk, w_offload_exceeds_host_ram, w_comm_dominates, w_no_price,
  w_spot_without_rate, cat_accelerators, cat_instances, cat_models, col_id, col_name, col_vendor, col_memory,
  col_hbm, col_bf16, col_fp8, col_source, col_as_of, col_provider, col_gpus, col_region, col_on_demand,
  col_spot, col_params, col_context, use, override_price, apply, remove, add_gpu, based_on, gpu_id, gpu_name,
  your_edits, export_edits, export_catalog, clear_edits, edits_refused, edit_price_fmt, edit_gpu_fmt,
  no_edits, custom_gpu_source, rows_fmt,
  gpu_hours, edits_tab,
  // [estimate strings: add above this line]
  count
};

const char* tr(S s);
Lang language();
void set_language(Lang lang);
// Every string of one language joined (to build the font's glyph ranges).
const char* all_strings(Lang lang);

}  // namespace llmplan::web
