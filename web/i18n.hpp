// i18n.hpp: every string the UI shows, in English and Simplified Chinese. The build subsets the
// fonts to the characters of i18n.cpp, so a string drawn from anywhere else may lack glyphs.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {
struct LinkNotice;
struct InputError;
struct DataPlacement;
struct CheckpointPlacement;
struct RdmaAdvice;
struct Check;
enum class Recompute;
struct Layout;
struct PlanWhy;
}  // namespace llmplan

namespace llmplan::web {

enum class Lang { en, zh };

// Every UI string by name. The names are also the keys the field table (core/src/fields.cpp)
// uses for each field's label and tooltip.
// clang-format off
#define LLMPLAN_UI_STRINGS(X) \
  X(tagline) X(language_toggle) \
  X(section_model) X(preset) X(custom_arch) X(layers) X(hidden) X(heads) X(kv_heads) X(ffn) X(vocab) \
  X(gated_mlp) X(tied_embeddings) \
  X(params) X(params_detail) X(params_detail_mtp) \
  X(section_training) X(method) X(method_pretrain) X(method_continued) X(method_full) X(precision) X(optimizer) \
  X(seq_len) X(micro_batch) X(global_batch) X(global_batch_auto) X(batch_detail) X(batch_schedules) \
  X(section_cluster) X(gpus) X(gpus_per_node) X(gpu_memory) X(gpu_memory_hint) \
  X(section_layout) X(tp) X(pp) X(dp) X(zero) X(zero_0) X(zero_1) X(zero_2) X(zero_3) X(sequence_parallel) \
  X(recompute) \
  X(recompute_none) X(recompute_selective) X(recompute_full) X(recompute_selective_op) X(rc_none) X(rc_selective) X(rc_full) X(rc_selective_op) X(rc_partial) X(why_cheapest) X(why_fastest) X(why_same_cost_larger) X(why_fewer_gpus) X(why_less_peak) X(why_same_gpu_dearer) X(why_dearer_gpu_hour) X(why_billing_block) X(why_exposed_comm) X(why_bubble) X(why_lower_mfu) X(why_slower_more) X(why_slower_less) X(why_faster_more) X(why_faster_less) X(why_layout_sep) X(why_note_no_shorter) X(why_note_one_shorter) X(why_note_two_shorter) X(flash_attention) \
  X(section_result) X(fits) X(does_not_fit) X(headroom) X(over_by) X(of_capacity) \
  X(weights) X(gradients) X(optimizer_states) X(activations) X(logits) X(buffers) X(runtime) X(total) X(capacity) \
  X(col_component) X(col_share) X(max_micro_batch) X(max_micro_batch_none) X(stage) X(stage_only) \
  X(stage_first) X(stage_last) \
  X(invalid_input) X(warnings) X(unit_note) X(sources_note) \
  X(catalog) X(as_of) X(load_catalog) X(use_builtin_catalog) X(catalog_refused) X(more_problems) \
  X(copy_link) X(copy_embed) X(copied) X(link_notice) X(link_changes) X(link_model_changes) \
  X(link_model_changes_tip) X(dismiss) \
  X(view_results) \
  X(view_planner) X(view_design) X(view_topology) X(planner_question) X(objective) X(obj_min_cost) X(obj_min_time) \
  X(obj_cost_deadline) X(obj_time_budget) X(max_gpus) X(deadline_days) X(budget_usd) X(budget_cny) X(providers) \
  X(accelerators) X(any_all) \
  X(n_selected) X(clear_selection) X(spot_allowed) X(run_planner) X(cancel) X(planner_hint) X(searching) X(cancelled) \
  X(searched_summary) X(no_offering) X(no_plan_deadline) X(no_plan_budget) X(no_plan_memory) X(plan_batch_fmt) X(plan_batch_default) X(planner_error) X(stale_question) X(rejected) X(rej_memory) X(rej_divisibility) X(rej_batch) \
  X(rej_deadline) X(rej_budget) X(rej_no_price) X(rej_software) X(rej_network) X(no_plan) X(col_instance) \
  X(col_layout) \
  X(col_time) X(col_cost) X(col_mfu) X(col_why) X(layout_fmt) X(cpu_offload) X(pareto_title) X(axis_time) X(axis_cost) \
  X(pareto_point) X(click_to_select) X(selected_plan) X(plan_heading) X(tier) X(use_plan) X(plan_in_use) \
  X(advice) X(rdma) \
  X(data_location) X(checkpoint_location) X(node_sizing) X(col_need) X(col_have) X(vcpus) X(host_ram) \
  X(local_nvme) X(launch) \
  X(copy) X(checklist) X(expect) X(design_title) X(design_metric) X(design_computing) X(design_done) \
  X(design_cell_none) \
  X(click_to_use) X(design_grey) X(design_empty_rows) X(shader_failed) X(topo_no_result) X(topo_summary) X(topo_color_by) X(topo_by_tp) \
  X(topo_by_pp) X(topo_by_dp) X(topo_more_nodes) X(topo_node) X(topo_nvswitch) X(topo_nvlink) X(topo_xgmi) \
  X(topo_hccs) \
  X(topo_pcie) X(topo_nic) X(topo_gpu_tip) X(topo_fabric) X(topo_rdma) X(topo_tcp) X(topo_single_node) \
  X(topo_scale_up) \
  X(topo_legend) X(topo_tp_crosses) \
  X(currency_any) X(priced_in) X(download_csv) \
  X(topo_by_cp) X(topo_by_ep) X(topo_more_layout) \
  /* [planner strings: add above this line] */ \
  X(catalog_with_edits) X(view_catalog) X(sec_model) X(sec_method) X(sec_data) X(sec_cluster) X(sec_layout) \
  X(sec_network) \
  X(sec_storage) X(sec_pricing) X(reset_tip) X(range_fmt) X(input_error) X(input_error_in) X(default_word) X(auto_word) \
  X(u_tokens) X(u_sequences) \
  X(u_gpus) X(u_nodes) X(u_layers) X(u_h) X(u_months) X(u_per_node_hour) X(u_per_gpu_hour) X(u_usd_gpu_h) X(u_cny_gpu_h) X(price_cny_note) \
  X(u_x) X(u_bytes_token) X(u_checkpoints) \
  X(t_preset) X(t_layers) X(t_hidden) X(t_heads) X(t_kv_heads) X(t_ffn) X(t_vocab) X(t_head_dim) X(t_gated) \
  X(t_tied) X(experts) \
  X(t_experts) X(top_k) X(t_top_k) X(shared_experts) X(t_shared) X(expert_ffn) X(t_expert_ffn) X(dense_layers) \
  X(t_dense_layers) X(head_dim) X(method_lora) X(method_qlora) X(method_freeze) X(t_method) X(lora_rank) \
  X(t_lora_rank) \
  X(lora_targets) X(t_lora_targets) X(lora_targets_attention) X(lora_targets_all_linear) X(trainable_layers) \
  X(t_trainable) X(t_precision) \
  X(pure_bf16) X(t_pure_bf16) X(fp8_params) X(t_fp8_params) X(t_optimizer) X(t_seq_len) X(t_micro_batch) X(t_global_batch) X(tokens) X(t_tokens) \
  X(dataset_tokens) X(t_dataset_tokens) X(epochs) X(t_epochs) X(bytes_per_token) X(t_bytes_per_token) X(cluster_mode) \
  X(mode_accel) X(mode_instance) X(t_cluster_mode) X(accelerator) X(t_accelerator) X(t_gpus) X(t_gpus_per_node) \
  X(t_gpu_memory) X(instance) X(t_instance) X(nodes) X(per_node_fmt) X(t_nodes) X(filter) X(offering_fmt) X(offering_price) \
  X(na) X(t_tp) X(t_pp) \
  X(t_dp) X(t_zero) X(t_sp) X(t_recompute) X(offload) X(t_offload) X(offload_none) X(offload_cpu) \
  X(offload_nvme) X(t_flash) \
  X(tp_overlap) X(t_tp_overlap) X(inter_link) X(t_inter_link) X(inter_gbps) X(t_inter_gbps) X(u_gbit_s) \
  X(from_catalog) \
  X(data_tier) X(t_data_tier) X(ckpt_tier) X(t_ckpt_tier) X(ckpt_interval) X(t_ckpt_interval) X(retention) \
  X(t_retention) \
  X(ckpt_kept) X(t_ckpt_kept) X(price_mode) X(t_price_mode) X(price_mode_on_demand) X(price_mode_spot) \
  X(price_mode_reserved_1yr) X(price_mode_reserved_3yr) X(price) \
  X(t_price) X(overhead) X(t_overhead) X(currency) X(t_currency) X(spot_rate) X(t_spot_rate) X(failure_rate) \
  X(t_failure_rate) \
  X(card_fits) X(card_time) X(card_cost) X(card_mfu) X(card_tier) X(yes) X(no) X(tier_l1) X(tier_l2) \
  X(tier_l3) X(gpu_hours_fmt) \
  X(per_gpu_hour_fmt) X(in_other_currency) X(sec_step) X(part_compute) X(part_comm) X(part_bubble) X(part_offload) X(part_io) X(step_total) \
  X(tokens_per_s) X(u_tok_s) X(steps) X(sec_cost) X(cost_compute) X(cost_storage) X(cost_total) \
  X(cost_per_btok) X(col_item) \
  X(col_value) X(col_provided) X(col_needed) X(price_source) X(sec_needs) X(need_data_rate) X(need_ckpt) \
  X(need_ckpt_interval) X(need_inter) X(need_vcpus) X(need_ram) X(need_nvme) X(need_rdma) X(rdma_needed) \
  X(rdma_not_needed) \
  X(unknown) X(where_data) X(where_ckpt) X(why_title) X(why_formula) X(why_inputs) X(why_in_yuan) X(stale) X(export_md) \
  X(export_scenario) \
  X(export_result) X(exported) X(w_memory_exceeds) X(w_tp_crosses_nodes) X(w_seq_exceeds_context) \
  X(w_multinode_without_rdma) X(w_data_on_block_disk) X(w_io_bound) X(w_host_ram_below_2x_gpu) X(w_few_vcpus) \
  X(w_pcie_only_gpus) X(w_checkpoints_on_local_disk) X(w_offload_exceeds_host_ram) X(w_comm_dominates) X(w_no_price) \
  X(w_spot_without_rate) X(cat_accelerators) X(cat_instances) X(cat_models) X(col_id) X(col_name) \
  X(col_vendor) X(col_memory) \
  X(col_hbm) X(col_bf16) X(fp16_stand_in) X(t_fp16_stand_in) X(col_fp8) X(col_max_node) X(t_col_max_node) X(col_source) X(col_as_of) X(col_provider) X(col_gpus) X(col_region) \
  X(col_on_demand) \
  X(col_spot) X(col_params) X(col_context) X(use) X(override_price) X(apply) X(remove) X(add_gpu) X(based_on) \
  X(gpu_id) X(gpu_name) \
  X(your_edits) X(export_edits) X(export_catalog) X(clear_edits) X(edits_refused) X(edit_price_fmt) X(edit_gpu_fmt) \
  X(no_edits) X(custom_gpu_source) X(rows_fmt) \
  X(gpu_hours) X(edits_tab) \
  X(default_fmt) X(on) X(off) X(sec_techniques) X(qkv_bias) X(t_qkv_bias) X(linear_bias) X(t_linear_bias) \
  X(norm) X(t_norm) X(norm_rmsnorm) X(norm_layernorm) X(learned_positions) X(t_learned_positions) \
  X(shared_expert_ffn) X(t_shared_expert_ffn) X(sliding_window) X(t_sliding_window) X(sliding_layers) X(t_sliding_layers) X(attention) X(t_attention) X(attention_mha) X(attention_mla) \
  X(q_lora_rank) X(t_q_lora_rank) X(kv_lora_rank) X(t_kv_lora_rank) X(qk_nope_head_dim) X(t_qk_nope_head_dim) \
  X(qk_rope_head_dim) X(t_qk_rope_head_dim) X(v_head_dim) X(t_v_head_dim) X(dropout) X(t_dropout) \
  X(loss_chunks) X(t_loss_chunks) X(activation_offload) X(t_activation_offload) X(activation_offload_layers) X(t_activation_offload_layers) X(recompute_layers) X(t_recompute_layers) X(mtp_layers) X(t_mtp_layers) X(optimizer_in_backward) \
  X(t_optimizer_in_backward) X(fp32_norm_inputs) X(t_fp32_norm_inputs) X(fused_loss) X(t_fused_loss) X(fused_loss_none) X(fused_loss_liger) X(fused_loss_cce) X(fused_loss_fused_ce) \
  X(fp32_grad_reduce) X(t_fp32_grad_reduce) X(kbit_fp32_cast) X(t_kbit_fp32_cast) X(ep_overlap) X(t_ep_overlap) X(ep_comm_sms) X(t_ep_comm_sms) X(pp_overlap) X(t_pp_overlap) X(pp_flushes) X(t_pp_flushes) X(torch_compile) X(t_torch_compile) X(fused_kernels) X(t_fused_kernels) X(eager_activation) X(t_eager_activation) X(range_80) X(range_to) X(framework) X(t_framework) X(framework_hf) X(framework_torchtune) \
  X(framework_fsdp) X(framework_deepspeed) X(framework_megatron) X(framework_torchtitan) \
  X(attention_kernel) X(t_attention_kernel) X(attention_kernel_auto) X(attention_kernel_flash1) \
  X(attention_kernel_flash_triton) X(attention_kernel_flash2) X(attention_kernel_flash3) X(attention_kernel_flash4) \
  X(attention_kernel_cudnn) X(attention_kernel_aotriton) X(attention_kernel_aiter) X(intra_gb_per_s) X(t_intra_gb_per_s) \
  X(busbw_fraction) X(t_busbw_fraction) X(restart_h) X(t_restart_h) X(optimizer_adamw) X(optimizer_adamw8bit) \
  X(optimizer_sgd) X(optimizer_adafactor) X(currency_usd) X(currency_cny) X(u_stages) X(u_chunks) X(u_flushes) X(u_modules) \
  X(u_positions) X(u_sms) \
  X(latency_us) X(t_latency_us) X(u_us) X(stage_middle) \
  X(cp) X(t_cp) X(ep) X(t_ep) X(vp) X(t_vp) X(etp) X(t_etp) \
  X(sec_calibration) X(cal_tokens) X(t_cal_tokens) X(cal_step) X(t_cal_step) X(cal_mfu) X(t_cal_mfu) \
  X(cal_memory) X(t_cal_memory) X(cal_memory_from) X(t_cal_memory_from) X(cal_memory_from_allocated) \
  X(cal_memory_from_nvidia_smi) X(cal_memory_from_reserved) X(cal_busbw_intra) X(t_cal_busbw_intra) \
  X(cal_busbw_inter) X(t_cal_busbw_inter) X(cal_read) X(t_cal_read) X(cal_on_accelerator) \
  X(t_cal_on_accelerator) X(cal_on_gpus) X(cal_on_per_node) X(cal_on_tp) X(cal_on_pp) X(cal_on_cp) \
  X(cal_on_ep) X(cal_on_zero) X(cal_on_micro_batch) X(cal_on_seq_len) X(cal_on_global_batch) X(cal_on_pp_flushes) X(t_cal_on) \
  X(paste_measurement) X(t_paste_measurement) X(read_log) X(log_read_ok) X(log_refused) X(range_measured) \
  X(calibration_title) X(calibration_row) X(clear_calibration) X(not_calibrated) X(t_not_calibrated) \
  X(w_memory_exceeds_one_gpu) X(w_minimum_billing) X(w_unsupported_layout) X(within_fmt) X(used_hours) X(billed_hours) X(billed_fmt) X(t_billed) \
  X(cards) X(t_cards) X(per_card_fmt) X(n_one_machine_only) X(rej_precision) X(executed_fmt) X(off_peak_gradients) X(off_peak_activations) \
  X(note_compute) X(note_memory) X(note_network) X(note_data_read) X(note_other_accelerator) X(note_other_layout) \
  X(compute_optimal_fmt) X(regime_under) X(regime_near) X(regime_over) \
  X(view_tco) X(tco_intro) X(tco_accelerator) X(tco_count) X(tco_gpus_per_server) X(tco_currency) X(tco_price_usd) X(tco_price_cny) X(tco_utilisation) X(tco_horizon) X(tco_depreciation) X(tco_residual) X(tco_network) X(tco_storage) X(tco_kwh_usd) X(tco_kwh_cny) X(tco_pue) X(tco_colocation) X(tco_colocation_cny) X(tco_staff) X(tco_staff_cny) X(tco_lead_time) X(tco_own_title) X(tco_own_fmt) X(tco_breakdown_fmt) X(tco_rent_title) X(tco_no_rent) X(tco_col_mode) X(tco_col_offering) X(tco_col_per_hour) X(tco_col_month) X(tco_col_be_u) X(tco_col_be_m) X(tco_your_quote) X(tco_never) X(tco_months_fmt) X(tco_committed_note) X(tco_cheapest_note) X(tco_chart_title) X(tco_axis_months) X(tco_own_line) X(tco_chart_note) X(tco_assumptions) X(tco_left_out_fmt) X(tco_us_figure_fmt) \
  X(budget_optimal_fmt) X(tco_use_scenario) X(tco_use_scenario_fmt) X(tco_workload_fmt) X(tco_from_workload) \
  X(rej_provider_kind) X(rej_lead_time) X(rej_no_rdma) \
  X(provider_kinds) X(kind_hyperscaler) X(kind_gpu_cloud) X(kind_marketplace) X(kind_compute_centre) X(limit_start) X(start_within_days) X(debug_hours) X(ways_to_pay) X(col_way) X(pay_on_demand) X(pay_spot) X(pay_two_phase) X(pay_note_fmt) X(cat_providers) X(prov_col_kind) X(prov_col_gpus) X(prov_col_rdma) X(prov_col_storage) X(prov_col_platform) X(prov_col_billing) X(prov_col_lead) X(plan_with) X(pay_no_spot_fmt) X(pay_no_on_demand_fmt) \
  X(import_config) X(import_unknown) X(import_done_fmt) X(import_not_fmt) \
  X(ln_link_too_long) X(ln_newer_format) X(ln_bad_format_version) X(ln_missing_format_version) X(ln_bad_catalog_version) X(ln_catalog_unavailable) X(ln_newer_model) X(ln_bad_model_version) X(ln_bad_view_state) X(ln_unknown_code) X(ln_duplicate) X(ln_invalid_default) X(ln_invalid_dropped) X(ln_invalid_model) X(ln_invalid) X(ln_missing_model) X(ln_question_scenario_only) X(ln_catalog_damaged) X(ln_catalog_release_missing) \
  X(page_form_title) \
  X(edit_scenario) \
  X(ep_dispatcher) X(t_ep_dispatcher) X(ep_dispatcher_alltoall) X(ep_dispatcher_deepep) X(ep_dispatcher_hybridep) \
  X(moe_routing) X(t_moe_routing) X(moe_capacity_factor) X(t_moe_capacity_factor) X(moe_routing_learned) X(moe_routing_fake_balanced) X(moe_routing_random) \
  X(place_data_local_fmt) X(place_data_staging_fmt) X(place_data_fs_fmt) X(place_data_too_big) X(place_data_unknown_nvme) X(place_fs_examples) X(place_ckpt_local_fmt) X(place_ckpt_fs_fmt) X(place_ckpt_fs_slower_fmt) X(place_ckpt_fs_run_fmt) X(place_ckpt_fs_end) X(rdma_one_node_fmt) X(rdma_needed_fmt) X(rdma_no_fabric) X(rdma_optional_fmt) \
  X(label_sep) X(no_tokens_hint) X(price_per_gpu_hour) X(price_src_user) X(price_src_instance_fmt) X(price_src_median_fmt) X(price_src_none) \
  X(w_mfu_above_one) X(w_failures_dominate) X(w_slow_attention_kernel) X(w_known_slow_path) X(w_reserved_term) \
  X(slow_path_dropless_moe_small_batch) X(slow_path_pytorch_ring_attention) X(slow_path_pytorch_expert_parallel) \
  X(rule_qlora_vendor) X(rule_peft) X(rule_kv_heads) X(rule_offload) X(rule_per_op_checkpointing) X(rule_zero_stage) X(rule_fsdp_with_ep) \
  X(rule_activation_offload_pp) X(rule_activation_offload_recompute) \
  X(remedy_raise_zero) X(remedy_model_parallel) X(remedy_recompute) X(remedy_lower_micro_batch) X(remedy_chunked_loss) \
  X(remedy_adapters) X(remedy_qlora) X(remedy_eight_bit_optimizer) X(remedy_offload_optimizer) X(remedy_bigger_gpu) \
  X(list_sep) X(list_or) \
  /* [estimate strings: add above this line] */
// clang-format on

enum class S {
#define LLMPLAN_S_ENUM(n) n,
  LLMPLAN_UI_STRINGS(LLMPLAN_S_ENUM)
#undef LLMPLAN_S_ENUM
      count
};

const char* tr(S s);
// A plan's "why" in the UI language, from the core's reason and figures (PlanWhy), with `layout`
// the app's words for the plan's layout (Chinese; English keeps the core's); in English it reads
// as PlanResult::why.
std::string plan_why_text(const PlanWhy& w, const std::string& layout);
// A recompute value in a layout line ("none", "full"; "无", "完全").
const char* recompute_name(Recompute r);
// A layout's recompute in a layout line: its name, and with partial recompute the blocks of each
// chunk that recompute ("full (21 blocks of each chunk)").
std::string recompute_label(const Layout& l);
// A catalog provider kind (kProviderKinds) in the UI language; another value as it is written.
const char* provider_kind_name(const std::string& kind);
// A plan's advice in the UI language, worded from its figures (advice.hpp): where the data and the
// checkpoints go, and why RDMA is or is not needed.
std::string data_placement_text(const DataPlacement& d);
std::string checkpoint_placement_text(const CheckpointPlacement& c);
std::string rdma_reason_text(const RdmaAdvice& a, int nodes, double intra_node_gb_per_s, bool has_rdma);
// A checklist item's title, command and expectation in the app's language, from its wording key
// and figures (English: the core's own text).
std::string check_title_text(const Check& c);
std::string check_command_text(const Check& c);
std::string check_expect_text(const Check& c);
// Whether the app words `key` of kCheckWordings in every language it has.
bool has_check_wording(const char* key);
// A pricing mode (kPricingModeNames) in the UI language; another value as it is written.
const char* pricing_mode_name(const std::string& mode);
// A rule by which no framework runs a layout (kMegatronRefusals, the unsupported_layout warning's
// rule) in the UI language; another rule as the core wrote it.
const char* layout_rule_text(const char* rule);
// The remedies a memory_exceeds warning advises (Warning::remedies), as a list in the language.
std::string memory_remedy_list(unsigned remedies);

// A link notice in the UI language: the core's English message, or in Chinese its code's wording
// (the reasons the core gives, such as a field's allowed range, stay as the core wrote them).
std::string link_notice_text(const LinkNotice& notice);
// An input error in the current language: the core's English message, or in Chinese its code's
// wording with the same values (English where the code has none).
std::string input_error_text(const InputError& e);
// An explanation's formula (Explanation::formula) in the UI language: the core's English, or its
// Chinese wording where the app has one (English otherwise).
std::string formula_text(const std::string& english);
// An accelerator vendor id of the catalog ("nvidia") as the maker writes its name; others as they are.
const char* vendor_name(const std::string& id);
// The formulas the app words in Chinese: the core's English (with {0}, {1} ... where the core puts a
// count, an id or a list) and the Chinese.
struct FormulaWording {
  const char* en;
  const char* zh;
};
std::vector<FormulaWording> formula_wordings();
// The Chinese wording of an input error code (wording.hpp), or nullptr.
const char* input_error_chinese(std::string_view code);
// The string named `name` (an enumerator's name, e.g. "t_tp"); false when there is none.
bool string_named(std::string_view name, S& out);
// The string named `name` in the UI language ("t_tp"), or `fallback` when there is none.
const char* table_string(const char* name, const char* fallback);
// A field's unit in the UI language: the string u_<unit> ("per GPU-hour" -> u_per_gpu_hour), else as written.
const char* unit_text(const char* unit);
Lang language();
void set_language(Lang lang);
// Every string of one language joined (to build the font's glyph ranges).
const char* all_strings(Lang lang);

}  // namespace llmplan::web
