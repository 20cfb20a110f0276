// i18n.cpp: the UI string table. Fonts are subset to the characters in this file (see
// web/CMakeLists.txt), so every UI string must live here.
#include "i18n.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/link.hpp"
#include "llmplan/planner.hpp"
#include "llmplan/scenario.hpp"
#include "llmplan/units.hpp"

namespace llmplan::web {
namespace {

struct Entry {
  S id;
  const char* en;
  const char* zh;
};

// Order matches enum S; checked at start-up by string_table().
// One line per string.
// clang-format off
constexpr Entry kStrings[] = {
    {S::tagline, "GPUs, time and cost to train or fine-tune a large language model", "大模型训练与微调：算力、时间与成本规划"},
    {S::language_toggle, "中文", "English"},
    {S::section_model, "Model", "模型"},
    {S::preset, "Preset", "预设"},
    {S::custom_arch, "Custom architecture", "自定义结构"},
    {S::layers, "Layers", "层数"},
    {S::hidden, "Hidden size", "隐藏维度"},
    {S::heads, "Attention heads", "注意力头数"},
    {S::kv_heads, "KV heads (GQA)", "KV 头数 (GQA)"},
    {S::ffn, "FFN size", "FFN 维度"},
    {S::vocab, "Vocabulary", "词表大小"},
    {S::gated_mlp, "Gated MLP (SwiGLU)", "门控 MLP (SwiGLU)"},
    {S::tied_embeddings, "Tied embeddings", "输入输出词嵌入共享"},
    {S::params, "Parameters", "参数量"},
    {S::params_detail, "%s per layer x %d layers, %s embeddings and head", "每层 %s x %d 层，词嵌入与输出层 %s"},
    {S::params_detail_mtp, "%s per layer x %d layers, %s embeddings and head, %s multi-token prediction", "每层 %s x %d 层，词嵌入与输出层 %s，多词元预测模块 %s"},
    {S::section_training, "Training", "训练"},
    {S::method, "Method", "训练方式"},
    {S::method_pretrain, "Pretraining", "预训练"},
    {S::method_continued, "Continued pretraining", "继续预训练"},
    {S::method_full, "Full fine-tune", "全参数微调"},
    {S::precision, "Precision", "精度"},
    {S::optimizer, "Optimizer", "优化器"},
    {S::seq_len, "Sequence length", "序列长度"},
    {S::micro_batch, "Micro-batch per GPU", "单卡微批大小"},
    {S::global_batch, "Global batch (sequences)", "全局批大小（序列数）"},
    {S::global_batch_auto, "0 = micro-batch x data parallel", "0 = 微批 x 数据并行数"},
    {S::batch_detail, "%d = micro-batch %d x DP %d x accumulation %d", "%d = 微批 %d x 数据并行 %d x 梯度累积 %d"},
    {S::batch_schedules, "%s, in %d pipeline schedules", "%s，分 %d 次流水线调度"},
    {S::section_cluster, "Cluster", "集群"},
    {S::gpus, "GPUs", "GPU 总数"},
    {S::gpus_per_node, "GPUs per node", "每节点 GPU 数"},
    {S::gpu_memory, "GPU memory (GB)", "单卡显存 (GB)"},
    {S::gpu_memory_hint, "Usable memory per GPU in GB (10^9 bytes)", "每卡可用显存，单位 GB（10^9 字节）"},
    {S::section_layout, "Parallel layout", "并行策略"},
    {S::tp, "Tensor parallel (TP)", "张量并行 (TP)"},
    {S::pp, "Pipeline parallel (PP)", "流水线并行 (PP)"},
    {S::dp, "Data parallel (DP)", "数据并行 (DP)"},
    {S::zero, "ZeRO stage", "ZeRO 阶段"},
    {S::zero_0, "0: none (DDP)", "0：不切分 (DDP)"},
    {S::zero_1, "1: optimizer states", "1：切分优化器状态"},
    {S::zero_2, "2: + gradients", "2：再切分梯度"},
    {S::zero_3, "3: + weights (FSDP)", "3：再切分权重 (FSDP)"},
    {S::sequence_parallel, "Sequence parallel", "序列并行"},
    {S::recompute, "Activation recompute", "激活重计算"},
    {S::recompute_none, "none", "不重计算"},
    {S::recompute_selective, "selective (attention)", "选择性（注意力）"},
    {S::recompute_full, "full (every layer)", "完全（每一层）"},
    {S::recompute_selective_op, "per op (torchtitan)", "逐算子（torchtitan）"},
    // The recompute value inside a layout line ("..., recompute full").
    {S::rc_none, "none", "无"},
    {S::rc_selective, "selective", "选择性"},
    {S::rc_full, "full", "完全"},
    {S::rc_selective_op, "per op", "逐算子"},
    {S::rc_partial, "%s (%d blocks of each chunk)", "%s（每个流水线分段前 %d 块）"},
    // A plan's "why" (planner.hpp, WhyReason and kWhyEnglish: the English must read as the core's).
    {S::why_cheapest, "cheapest of {0} feasible offerings and sizes: {1} over {2}, MFU {3} %, {4} per GPU-hour incl. overhead", "{0} 个可行的云产品与规模中最便宜：{1}，耗时 {2}，MFU {3} %，含开销每卡时 {4}"},
    {S::why_fastest, "fastest of {0} feasible offerings and sizes: {1} over {2}, MFU {3} %, {4} per GPU-hour incl. overhead", "{0} 个可行的云产品与规模中最快：{1}，耗时 {2}，MFU {3} %，含开销每卡时 {4}"},
    {S::why_same_cost_larger, "same cost within 1 % and {0}x the time on {1} GPUs instead of {2}: at equal cost the smaller cluster ranks first (fewer machines to rent, fail and debug)", "成本相差不到 1 %，时间为 {0} 倍，用 {1} 张卡而非 {2} 张：成本相同时较小的集群排在前面（要租用、会出故障、要调试的机器更少）"},
    {S::why_fewer_gpus, "{2} GPUs instead of {3}", "{2} 张卡而非 {3} 张"},
    {S::why_less_peak, "a GPU with {2}x less peak: {3} TFLOP/s on {4} vs {5} on {6}", "显卡峰值低 {2} 倍：{4} 为 {3} TFLOP/s，{6} 为 {5}"},
    {S::why_same_gpu_dearer, "the same {2} at {3} instead of {4} per GPU-hour (incl. overhead)", "同为 {2}，含开销每卡时 {3} 而非 {4}"},
    {S::why_dearer_gpu_hour, "its GPU-hour costs {2}x more ({3} vs {4} incl. overhead)", "每卡时贵 {2} 倍（含开销 {3} 对 {4}）"},
    {S::why_billing_block, "a minimum billing block: {2} billed for {3} used", "最低计费周期：计费 {2}，实际使用 {3}"},
    {S::why_exposed_comm, "exposed communication is {2} % of its step (vs {3} %) across {4} nodes over {5} (MFU {6} % vs {7} %)", "未被计算掩盖的通信占每步 {2} %（第 1 名 {3} %），跨 {4} 个节点，经 {5}（MFU {6} % 对 {7} %）"},
    {S::why_bubble, "the pipeline bubble takes {2} % of its step (PP {3}{4}; MFU {5} % vs {6} %)", "流水线气泡占每步 {2} %（PP {3}{4}；MFU {5} % 对 {6} %）"},
    {S::why_lower_mfu, "MFU {2} % on {3} vs {4} % on {5}", "{3} 上 MFU {2} %，第 1 名的 {5} 上 {4} %"},
    {S::why_slower_more, "{0}x the time and {1} more than #1: ", "时间为第 1 名的 {0} 倍，多花 {1}："},
    {S::why_slower_less, "{0}x the time and {1} less than #1: ", "时间为第 1 名的 {0} 倍，少花 {1}："},
    {S::why_faster_more, "{0}x faster and {1} more than #1: ", "比第 1 名快 {0} 倍，多花 {1}："},
    {S::why_faster_less, "{0}x faster and {1} less than #1: ", "比第 1 名快 {0} 倍，少花 {1}："},
    {S::why_layout_sep, "; ", "；"},
    {S::why_note_no_shorter, "; it takes {0} days of wall clock, and no plan finishes within {1} days", "；需 {0} 天（墙钟时间），没有方案能在 {1} 天内完成"},
    {S::why_note_one_shorter, "; it takes {0} days of wall clock: see the cheapest plan within {1} days", "；需 {0} 天（墙钟时间）：另见 {1} 天内完成的最便宜方案"},
    {S::why_note_two_shorter, "; it takes {0} days of wall clock: see the cheapest plans within {1} and {2} days", "；需 {0} 天（墙钟时间）：另见 {1} 天和 {2} 天内完成的最便宜方案"},
    {S::flash_attention, "FlashAttention", "FlashAttention"},
    {S::section_result, "Memory per GPU", "单卡显存"},
    {S::fits, "Fits", "放得下"},
    {S::does_not_fit, "Does not fit", "放不下"},
    {S::headroom, "headroom", "余量"},
    {S::over_by, "over by", "超出"},
    {S::of_capacity, "of", "/ 容量"},
    {S::weights, "Weights", "权重"},
    {S::gradients, "Gradients", "梯度"},
    {S::optimizer_states, "Optimizer states", "优化器状态"},
    {S::activations, "Activations", "激活值"},
    {S::logits, "Logits and loss", "Logits 与损失"},
    {S::buffers, "Communication buffers", "通信缓冲区"},
    {S::runtime, "CUDA context and fragmentation", "CUDA 上下文与显存碎片"},
    {S::total, "Total", "合计"},
    {S::capacity, "GPU capacity", "显存容量"},
    {S::col_component, "Component", "组成部分"},
    {S::col_share, "Share", "占比"},
    {S::max_micro_batch, "Largest micro-batch that fits", "放得下的最大微批"},
    {S::max_micro_batch_none, "none: even 1 does not fit", "无：微批为 1 也放不下"},
    {S::stage, "Most loaded pipeline stage", "负载最重的流水线阶段"},
    {S::stage_only, "single stage", "单阶段"},
    {S::stage_first, "first stage", "第一阶段"},
    {S::stage_last, "last stage", "最后阶段"},
    {S::invalid_input, "Check this input", "请检查此输入"},
    {S::warnings, "Warnings", "警告"},
    {S::unit_note, "GB = 10^9 bytes, GiB = 2^30 bytes. ", "GB = 10^9 字节，GiB = 2^30 字节。"},
    {S::sources_note, "Model states: ZeRO (Rajbhandari et al. 2020). Activations: Korthikanti et al. 2022, per tensor.",
     "模型状态：ZeRO（Rajbhandari 等，2020）。激活值：Korthikanti 等，2022，逐张量计算。"},
    {S::catalog, "Catalog", "目录版本"},
    {S::as_of, "as of", "数据截至"},
    {S::load_catalog, "Load catalog...", "加载目录文件..."},
    {S::use_builtin_catalog, "Use built-in", "改用内置目录"},
    {S::catalog_refused, "Still using the previous catalog; could not use", "仍使用之前的目录；无法使用"},
    {S::more_problems, " (and %d more problems)", "（另有 %d 个问题）"},
    {S::copy_link, "Copy link", "复制链接"},
    {S::copy_embed, "Copy embed code", "复制嵌入代码"},
    {S::copied, "copied", "已复制"},
    {S::link_notice, "Link:", "链接："},
    {S::link_changes, "Opened with catalog %s, as when the link was made; catalog %s changed %d figures it uses",
     "按链接创建时的目录 %s 打开；目录 %s 中它用到的数据有 %d 处变化"},
    {S::link_model_changes, "Figures changed since this link was made (estimator model %d → %d)", "此链接创建后估算结果已有变化（估算模型 %d → %d）"},
    {S::link_model_changes_tip, "What changed in the estimator since — and what it does to the figures:", "此后估算器的变化——及其对结果的影响："},
    {S::dismiss, "Dismiss", "知道了"},
    {S::view_results, "Results", "结果"},
    {S::view_planner, "Planner", "规划器"},
    {S::view_design, "Design space", "设计空间"},
    {S::view_topology, "Topology", "集群拓扑"},
    {S::planner_question, "Searches every offering, node count and parallel layout of the catalog for this scenario's model, method, data and batch.", "为当前场景的模型、训练方式、数据与批大小，搜索目录中的所有云实例、节点数与并行布局。"},
    {S::objective, "Objective", "目标"},
    {S::obj_min_cost, "Lowest cost", "成本最低"},
    {S::obj_min_time, "Shortest time", "时间最短"},
    {S::obj_cost_deadline, "Lowest cost within the deadline", "截止期限内成本最低"},
    {S::obj_time_budget, "Shortest time within the budget", "预算内时间最短"},
    {S::max_gpus, "Max GPUs", "最多 GPU 数"},
    {S::deadline_days, "Deadline (days, 0 = none)", "截止期限（天，0 = 不限）"},
    {S::budget_usd, "Budget (USD, 0 = none)", "预算（美元，0 = 不限）"},
    {S::budget_cny, "Budget (CNY, 0 = none)", "预算（人民币，0 = 不限）"},
    {S::providers, "Providers", "云厂商"},
    {S::accelerators, "Accelerators", "加速卡"},
    {S::any_all, "all", "全部"},
    {S::n_selected, "%d selected", "已选 %d 项"},
    {S::clear_selection, "Clear", "清除"},
    {S::spot_allowed, "Also consider spot prices", "同时考虑竞价实例"},
    {S::run_planner, "Run planner", "运行规划"},
    {S::cancel, "Cancel", "取消"},
    {S::planner_hint, "Set the objective and constraints, then run.", "设置目标与约束后运行。"},
    {S::searching, "%.0f %%: %s layouts estimated", "%.0f %%：已估算 %s 个布局"},
    {S::cancelled, "Search cancelled.", "搜索已取消。"},
    {S::searched_summary, "%s layouts, %s estimated, %d offerings, in %s", "共 %s 个布局，估算 %s 个，%d 个云实例，用时 %s"},
    {S::no_offering, "No offering matches the providers, accelerators, currency and provider kinds chosen: widen them.", "没有云产品符合所选的云厂商、加速卡、报价币种与平台类型：请放宽这些条件。"},
    {S::no_plan_deadline, " Layouts that miss the deadline: a later deadline, or more GPUs (max GPUs), may let one through.", "有布局超出截止期限：放宽截止期限或增加最多 GPU 数，可能会有方案。"},
    {S::no_plan_budget, " Layouts over the budget: a larger budget may let one through.", "有布局超出预算：提高预算可能会有方案。"},
    {S::no_plan_memory, " Layouts that run out of memory may fit on more GPUs (ZeRO-3 shards the model over them), with recompute, or with LoRA/QLoRA.", "有布局显存不足：更多 GPU（ZeRO-3 把模型分片到这些卡上）、激活重计算或 LoRA/QLoRA 可能放得下。"},
    {S::plan_batch_fmt, "Every plan trains global batches of %d sequences (%s tokens).", "每个方案的全局批大小均为 %d 条序列（%s 词元）。"},
    {S::plan_batch_default,
     " Global batch is 0 in the inputs (one micro-batch per GPU for an estimate), so the planner uses 64 sequences for fine-tuning and about 4M tokens for pretraining; set it under Data & batch to plan another.",
     "输入中的全局批大小为 0（估算时表示每卡一个微批），因此规划器对微调使用 64 条序列、对预训练使用约 4M 词元；如需其他批大小，请在“数据与批大小”中设置。"},
    {S::planner_error, "Cannot plan this:", "无法规划："},
    {S::stale_question, "The scenario changed since this search: run again for its plans.", "场景在此次搜索后已更改：请重新运行以得到新方案。"},
    {S::rejected, "Rejected:", "已排除："},
    {S::rej_memory, "memory", "显存不足"},
    {S::rej_divisibility, "divisibility", "无法整除"},
    {S::rej_batch, "batch", "批大小不整除"},
    {S::rej_deadline, "deadline", "超出期限"},
    {S::rej_budget, "budget", "超出预算"},
    {S::rej_no_price, "no price", "无价格"},
    {S::rej_software, "framework", "框架不支持"},
    {S::rej_network, "network", "无节点间网络"},
    {S::no_plan, "No offering satisfies the constraints; the rejections above count why.", "没有满足约束的方案；上面的排除计数说明了原因。"},
    {S::col_instance, "Instance", "实例"},
    {S::col_layout, "Layout", "并行布局"},
    {S::col_time, "Time", "时间"},
    {S::col_cost, "Cost", "成本"},
    {S::col_mfu, "MFU", "MFU"},
    {S::col_why, "Why", "原因"},
    {S::layout_fmt, "TP %d x PP %d x DP %d%s, ZeRO-%d%s, micro-batch %d, recompute %s", "TP %d x PP %d x DP %d%s，ZeRO-%d%s，微批 %d，重计算 %s"},
    {S::cpu_offload, " + CPU offload", " + CPU 卸载"},
    {S::pareto_title, "Time vs cost: the Pareto front (blue) and the ranked plans (orange); log axes", "时间与成本：帕累托前沿（蓝）与排名方案（橙）；对数坐标"},
    {S::axis_time, "training time", "训练时间"},
    {S::axis_cost, "cost", "成本"},
    {S::pareto_point, "on the Pareto front", "位于帕累托前沿"},
    {S::click_to_select, "click to select", "点击选中"},
    {S::selected_plan, "Selected plan", "所选方案"},
    {S::plan_heading, "%d x %s on %s (%s)", "%d 张 %s，实例 %s（%s）"},
    {S::tier, "Tier", "级别"},
    {S::use_plan, "Use this plan", "采用此方案"},
    {S::plan_in_use, "in use (Results, link)", "已采用（结果页、链接）"},
    {S::advice, "Advice", "建议"},
    {S::rdma, "RDMA", "RDMA"},
    {S::data_location, "Data", "数据"},
    {S::checkpoint_location, "Checkpoints", "检查点"},
    {S::node_sizing, "Per node", "单节点"},
    {S::col_need, "needed", "需要"},
    {S::col_have, "offering has", "实例提供"},
    {S::vcpus, "vCPUs", "vCPU"},
    {S::host_ram, "Host RAM", "主机内存"},
    {S::local_nvme, "Local NVMe", "本地 NVMe"},
    {S::launch, "Launch artefacts (%s)", "启动配置（%s）"},
    {S::copy, "Copy", "复制"},
    {S::checklist, "Post-provisioning checklist", "开通后检查清单"},
    {S::expect, "expect", "预期"},
    {S::design_title, "Best plan per accelerator and GPU count at the lowest cost (deadline and budget not applied)", "每种加速卡与 GPU 数下成本最低的方案（不计截止期限与预算）"},
    {S::design_metric, "Colour by", "颜色表示"},
    {S::design_computing, "computing %.0f %%", "计算中 %.0f %%"},
    {S::design_done, "%s layouts estimated in %s", "已估算 %s 个布局，用时 %s"},
    {S::design_cell_none, "%s x %d: no offering runs this scenario at this GPU count", "%s x %d：没有实例能以此 GPU 数运行该场景"},
    {S::click_to_use, "click to use this plan", "点击采用此方案"},
    {S::design_grey, "Log colour scale (viridis); grey: does not fit or no offering at that size.", "对数色标（viridis）；灰色：放不下或没有该规模的实例。"},
    {S::design_empty_rows, "No plan at any size on %s: the job fits on none of the machines or clusters the catalog prices for them (where the catalog prices only single machines, as for most Chinese clouds, whose multi-node RDMA clusters are quoted in their purchase consoles, no plan spans nodes). The planner tab names the causes; a quoted cluster can be estimated with cluster.accelerator, cluster.gpus and pricing.usd_per_gpu_hour.",
     "%s 在任何规模都没有方案：目录中为这些卡标价的机器或集群都放不下此任务（目录只有单机标价时，方案不会跨节点；多数国内云的多节点 RDMA 集群只在购买控制台报价）。规划器会列出原因；拿到集群报价后可用 cluster.accelerator、cluster.gpus 与 pricing.usd_per_gpu_hour 估算。"},
    {S::shader_failed, "The heat map shader did not compile: %s", "热力图着色器编译失败：%s"},
    {S::topo_no_result, "Enter a valid scenario to see its cluster.", "请输入有效场景以显示其集群。"},
    {S::topo_summary, "Nodes: %d, GPUs per node: %d (%s); TP %d x PP %d x DP %d", "节点数：%d，每节点 GPU：%d（%s）；TP %d x PP %d x DP %d"},
    {S::topo_color_by, "Colour GPUs by", "GPU 着色依据"},
    {S::topo_by_tp, "TP group", "TP 组"},
    {S::topo_by_pp, "PP stage", "PP 阶段"},
    {S::topo_by_dp, "DP group", "DP 组"},
    {S::topo_more_nodes, "... %d more", "…… 另 %d 个"},
    {S::topo_node, "Node %d", "节点 %d"},
    {S::topo_nvswitch, "NVSwitch (all-to-all NVLink)", "NVSwitch（NVLink 全互联）"},
    {S::topo_nvlink, "NVLink mesh", "NVLink 网状互联"},
    {S::topo_xgmi, "Infinity Fabric (xGMI)", "Infinity Fabric (xGMI)"},
    {S::topo_hccs, "HCCS", "HCCS"},
    {S::topo_pcie, "PCIe switch / host", "PCIe 交换 / 主机"},
    {S::topo_nic, "NIC", "网卡"},
    {S::topo_gpu_tip, "rank %d on node %d: TP rank %d, CP rank %d, PP stage %d, DP replica %d, EP rank %d", "全局序号 %d，节点 %d：TP 序号 %d，CP 序号 %d，PP 阶段 %d，DP 副本 %d，EP 序号 %d"},
    {S::topo_fabric, "Scale-out: %s, %d NIC x %.0f Gb/s = %.0f Gb/s per node, %s", "节点间：%s，%d 个网卡 x %.0f Gb/s = 每节点 %.0f Gb/s，%s"},
    {S::topo_rdma, "RDMA", "RDMA"},
    {S::topo_tcp, "kernel TCP (no RDMA)", "内核 TCP（无 RDMA）"},
    {S::topo_single_node, "One node: no scale-out traffic.", "单节点：无节点间通信。"},
    {S::topo_scale_up, "Scale-up: %s, %s/s per GPU each way", "节点内互联：%s，每卡单向 %s/s"},
    {S::topo_legend, "GPU labels: T = tensor-parallel rank, C = context-parallel rank, P = pipeline stage, D = data-parallel replica, E = expert-parallel rank (Megatron rank order: TP, CP, DP, PP).", "GPU 标注：T = 张量并行序号，C = 上下文并行序号，P = 流水线阶段，D = 数据并行副本，E = 专家并行序号（Megatron 序号顺序：TP、CP、DP、PP）。"},
    {S::topo_tp_crosses, "Tensor parallelism spans nodes: every layer waits on the scale-out fabric.", "张量并行跨节点：每一层都要等待节点间网络。"},
    {S::currency_any, "Any currency", "任意币种"},
    {S::priced_in, "Offerings priced in", "报价币种"},
    {S::download_csv, "Download plans (CSV)", "下载方案 (CSV)"},
    {S::topo_by_cp, "CP group", "CP 组"},
    {S::topo_by_ep, "EP group", "EP 组"},
    {S::topo_more_layout, "CP %d (sequence split, ring attention), EP %d (experts split inside DP), VP %d virtual stages per rank", "CP %d（序列切分，环形注意力），EP %d（在 DP 内切分专家），每 rank 虚拟阶段 VP %d"},
    // [planner strings: add above this line]
    {S::catalog_with_edits, "+ your edits", "+ 你的修改"},
    {S::view_catalog, "Catalog", "硬件与模型目录"},
    {S::sec_model, "Model", "模型"},
    {S::sec_method, "Method & precision", "训练方式与精度"},
    {S::sec_data, "Data & batch", "数据与批大小"},
    {S::sec_cluster, "Cluster or cloud offering", "集群或云上实例"},
    {S::sec_layout, "Parallel layout", "并行策略"},
    {S::sec_network, "Network", "网络"},
    {S::sec_storage, "Storage", "存储"},
    {S::sec_pricing, "Pricing", "价格"},
    {S::reset_tip, "Back to the default", "恢复默认值"},
    {S::range_fmt, "Range: %s to %s", "范围：%s 至 %s"},
    {S::input_error, "Input error: %s", "输入有误：%s"},
    {S::input_error_in, "Input error in %s: %s", "输入有误（%s）：%s"},
    {S::default_word, "default", "默认"},
    {S::auto_word, "auto", "自动"},
    {S::u_tokens, "tokens", "词元"},
    {S::u_sequences, "sequences", "条序列"},
    {S::u_gpus, "GPUs", "卡"},
    {S::u_nodes, "nodes", "节点"},
    {S::u_layers, "layers", "层"},
    {S::u_h, "h", "小时"},
    {S::u_months, "months", "月"},
    {S::u_per_node_hour, "per node-hour", "次/节点小时"},
    {S::u_per_gpu_hour, "per GPU-hour", "次/卡时"},
    {S::u_usd_gpu_h, "USD/GPU-h", "美元/卡时"},
    {S::u_cny_gpu_h, "CNY/GPU-h", "元/卡时"},
    {S::price_cny_note, "Typed in yuan, kept as pricing.usd_per_gpu_hour at the catalog's rate (%s CNY per USD).", "按人民币填写，以目录汇率（1 美元 = %s 元）换算后存为 pricing.usd_per_gpu_hour。"},
    {S::u_x, "x", "倍"},
    {S::u_bytes_token, "bytes/token", "字节/词元"},
    {S::u_checkpoints, "checkpoints", "个"},
    {S::t_preset, "A model from the catalog (architecture from its published config). Custom architecture: type the shape yourself, e.g. for a model not in the list.", "目录中的模型（结构来自其公开配置）。选“自定义结构”可自行输入形状，用于列表里没有的模型。"},
    {S::t_layers, "Transformer blocks (num_hidden_layers).", "Transformer 层数（num_hidden_layers）。"},
    {S::t_hidden, "Model width h (hidden_size).", "模型宽度 h（hidden_size）。"},
    {S::t_heads, "Attention heads a; tensor parallelism must divide it.", "注意力头数 a；张量并行数必须整除它。"},
    {S::t_kv_heads, "Key/value heads for grouped-query attention; default = heads (plain multi-head attention).", "分组查询注意力的 KV 头数；默认等于注意力头数（普通多头注意力）。"},
    {S::t_ffn, "MLP inner width (intermediate_size).", "MLP 中间层宽度（intermediate_size）。"},
    {S::t_vocab, "Vocabulary size V (embedding rows).", "词表大小 V（词嵌入行数）。"},
    {S::t_head_dim, "Per-head width where it differs from hidden/heads (Gemma, Qwen3); 0 = hidden/heads.", "每个头的宽度（Gemma、Qwen3 与 hidden/heads 不同）；0 = hidden/heads。"},
    {S::t_gated, "SwiGLU MLP with 3 matrices (Llama, Qwen); off: GeLU MLP with 2 (GPT).", "SwiGLU 门控 MLP，3 个矩阵（Llama、Qwen）；关闭为 GeLU MLP，2 个矩阵（GPT）。"},
    {S::t_tied, "The output head shares the input embedding matrix.", "输出层与输入词嵌入共享同一矩阵。"},
    {S::experts, "Experts (MoE)", "专家数 (MoE)"},
    {S::t_experts, "Routed experts per MoE layer; 0 = dense model.", "每个 MoE 层的路由专家数；0 = 稠密模型。"},
    {S::top_k, "Experts per token (top-k)", "每词元激活专家数 (top-k)"},
    {S::t_top_k, "Routed experts each token uses.", "每个词元使用的路由专家数。"},
    {S::shared_experts, "Shared experts", "共享专家数"},
    {S::t_shared, "Experts every token uses (DeepSeek, Qwen MoE).", "每个词元都会使用的专家（DeepSeek、Qwen MoE）。"},
    {S::expert_ffn, "Expert FFN size", "专家 FFN 维度"},
    {S::t_expert_ffn, "MLP inner width of one expert; 0 = the FFN size.", "单个专家的 MLP 中间层宽度；0 = FFN 维度。"},
    {S::dense_layers, "Dense layers (MoE)", "稠密层数 (MoE)"},
    {S::t_dense_layers, "Leading layers with a dense MLP before the MoE layers (DeepSeek-V3: 3).", "MoE 层之前使用稠密 MLP 的层数（DeepSeek-V3 为 3）。"},
    {S::head_dim, "Head dimension", "头维度"},
    {S::method_lora, "LoRA", "LoRA"},
    {S::method_qlora, "QLoRA (4-bit base)", "QLoRA（4 位基座）"},
    {S::method_freeze, "Freeze (top layers train)", "冻结微调（仅训练顶层）"},
    {S::t_method, "Pretraining and continued pretraining train every weight on new tokens; full fine-tune too, on your data; LoRA/QLoRA train small adapters on a frozen (QLoRA: 4-bit) base; freeze trains only the top layers.", "预训练与继续预训练更新全部权重；全参数微调同样更新全部权重；LoRA/QLoRA 在冻结（QLoRA 为 4 位量化）的基座上只训练小适配器；冻结微调只训练顶层。"},
    {S::lora_rank, "LoRA rank r", "LoRA 秩 r"},
    {S::t_lora_rank, "Rank of each adapter pair (A: r x in, B: out x r).", "每对适配矩阵的秩（A：r x 输入，B：输出 x r）。"},
    {S::lora_targets, "LoRA targets", "LoRA 作用层"},
    {S::t_lora_targets, "Which linear layers get adapters: attention (q, k, v, o) or all linear layers.", "哪些线性层加适配器：仅注意力（q、k、v、o）或全部线性层。"},
    {S::lora_targets_attention, "attention (q, k, v, o)", "注意力 (q, k, v, o)"},
    {S::lora_targets_all_linear, "all linear layers", "全部线性层"},
    {S::trainable_layers, "Trainable layers", "可训练层数"},
    {S::t_trainable, "Freeze-tuning: the top layers that train; 0 = a quarter of them.", "冻结微调：参与训练的顶部层数；0 = 四分之一的层。"},
    {S::t_precision, "Mixed precision keeps an fp32 master copy; fp8 needs FP8 tensor cores (Hopper, Blackwell, MI300).", "混合精度保留 fp32 主权重；fp8 需要 FP8 张量核心（Hopper、Blackwell、MI300）。"},
    {S::pure_bf16, "Pure bf16 (no fp32 master)", "纯 bf16（无 fp32 主权重）"},
    {S::t_pure_bf16, "bf16 weights, gradients and optimizer states with no fp32 master copy (torchtune).", "权重、梯度和优化器状态都用 bf16，不保留 fp32 主权重（torchtune）。"},
    {S::fp8_params, "FP8 weights", "FP8 权重"},
    {S::t_fp8_params, "Block linear weights in FP8, 1 byte instead of 2. Megatron (NeMo fp8_params, Megatron-LM --fp8-param-gather) holds and gathers them in FP8, with an FP8 transpose of each whole weight on Hopper and Ada GPUs (compute capability below 10.0 or 12.x); torchtitan (torchao float8 all-gather) gathers its nn.Linear weights, not the routed experts', in FP8 from 16-bit shards. Embeddings, norms and the output layer stay 16-bit; trained weights keep their fp32 master. Per-tensor FP8 scaling is assumed (MXFP8 keeps two copies).", "块内线性层的权重用 FP8，每个 1 字节而非 2 字节。Megatron（NeMo fp8_params、Megatron-LM --fp8-param-gather）以 FP8 保存和聚合，在 Hopper 和 Ada GPU 上（计算能力低于 10.0 或为 12.x）每个完整权重还另有一份 FP8 转置；torchtitan（torchao float8 all-gather）从 16 位分片以 FP8 聚合其 nn.Linear 权重，路由专家的权重除外。嵌入、归一化和输出层仍为 16 位；训练的权重保留 fp32 主权重。假定 FP8 按张量缩放（MXFP8 保留两份）。"},
    {S::t_optimizer, "AdamW keeps two fp32 states per trainable parameter (8 bytes); 8-bit Adam 2 bytes; SGD with momentum 4; Adafactor about 4 bytes factored.", "AdamW 每个可训练参数保存两个 fp32 状态（8 字节）；8 位 Adam 2 字节；带动量 SGD 4 字节；Adafactor 约 4 字节（分解存储）。"},
    {S::t_seq_len, "Tokens per training sequence s.", "每条训练序列的词元数 s。"},
    {S::t_micro_batch, "Sequences each GPU processes per forward/backward pass b.", "每张卡每次前向/反向处理的序列数 b。"},
    {S::t_global_batch, "Sequences per optimizer step; a multiple of micro-batch x data parallel (the rest is gradient accumulation). 0 = micro-batch x data parallel.", "每次优化器更新的序列数；须为微批 x 数据并行数的整数倍（其余由梯度累积补足）。0 = 微批 x 数据并行数。"},
    {S::tokens, "Training tokens", "训练词元数"},
    {S::t_tokens, "Tokens the run trains on (e.g. 2e12 for pretraining, 1e8 for a fine-tune). 0 = dataset tokens x epochs.", "整个训练处理的词元数（预训练如 2e12，微调如 1e8）。0 = 数据集词元数 x 轮数。"},
    {S::dataset_tokens, "Dataset tokens", "数据集词元数"},
    {S::t_dataset_tokens, "Size of the dataset in tokens (for staging, storage and, with epochs, the training tokens). Default: tokens / epochs.", "数据集的词元数（用于数据拷贝、存储，与轮数一起决定训练词元数）。默认：训练词元数 / 轮数。"},
    {S::epochs, "Epochs", "训练轮数"},
    {S::t_epochs, "Passes over the dataset.", "遍历数据集的次数。"},
    {S::bytes_per_token, "Bytes per token on disk", "每词元磁盘字节数"},
    {S::t_bytes_per_token, "Pre-tokenised uint32 = 4, uint16 = 2, raw text about 4.", "预分词 uint32 为 4，uint16 为 2，原始文本约 4。"},
    {S::cluster_mode, "Hardware", "硬件"},
    {S::mode_accel, "Accelerator x count", "加速卡 x 数量"},
    {S::mode_instance, "Cloud offering", "云上实例"},
    {S::t_cluster_mode, "Either an accelerator and a GPU count (priced at the catalog median), or a cloud offering (instance) and a node count: GPUs, host, network and price come from the offering.", "可选加速卡加卡数（按目录中位价计价），或云上实例加节点数：卡、主机、网络和价格都取自该实例。"},
    {S::accelerator, "Accelerator", "加速卡"},
    {S::t_accelerator, "Memory, peak FLOPS, HBM and scale-up link from the catalog. Default H100 SXM5 80GB.", "显存、峰值算力、HBM 带宽和机内互联取自目录。默认 H100 SXM5 80GB。"},
    {S::t_gpus, "Total accelerators N; a multiple of TP x PP.", "加速卡总数 N；须为 TP x PP 的整数倍。"},
    {S::t_gpus_per_node, "GPUs in one node (its NVLink/PCIe domain); TP should stay within it. At most the largest node the accelerator is sold in (8 on HGX boards, 72 in an NVL72 rack). Default min(8, GPUs).", "每个节点的卡数（NVLink/PCIe 域）；张量并行应在节点内。不超过该加速卡在售的最大节点（HGX 板 8 张卡，NVL72 机柜 72 张卡）。默认 min(8, 卡数)。"},
    {S::t_gpu_memory, "Usable memory per GPU in GB (1e9 bytes). Default: the accelerator's.", "每卡可用显存，单位 GB（10^9 字节）。默认取加速卡的显存。"},
    {S::instance, "Offering", "实例"},
    {S::t_instance, "A cloud instance type in one region from the catalog, with its GPUs, vCPUs, RAM, NVMe, network and prices.", "目录中某地域的云实例规格，含卡、vCPU、内存、NVMe、网络和价格。"},
    {S::nodes, "Nodes", "节点数"},
    {S::per_node_fmt, "%s per node", "每节点 %s"},
    {S::t_nodes, "How many instances of the offering.", "实例的台数。"},
    {S::filter, "Filter", "筛选"},
    {S::offering_fmt, "%s, %s: %d x %s, %s vCPUs, %s GB RAM", "%s，%s：%d x %s，%s vCPU，%s GB 内存"},
    {S::offering_price, "On-demand %s per instance-hour, spot %s (%s, as of %s)", "按需每实例小时 %s，竞价 %s（%s，截至 %s）"},
    {S::na, "n/a", "无"},
    {S::t_tp, "Tensor parallel size: splits every layer's matrices over GPUs of one node; divides heads.", "张量并行数：把每层矩阵切到同一节点的多张卡上；须整除注意力头数。"},
    {S::t_pp, "Pipeline stages (1F1B); divides layers.", "流水线阶段数（1F1B）；须整除层数。"},
    {S::t_dp, "GPUs / (TP x CP x PP): replicas that each see different data.", "卡数 / (TP x CP x PP)：各自处理不同数据的副本数。"},
    {S::t_zero, "ZeRO stage over the data-parallel group: 1 shards optimizer states, 2 also gradients, 3 also weights (FSDP full-shard).", "在数据并行组内的 ZeRO 阶段：1 切分优化器状态，2 再切分梯度，3 再切分权重（FSDP 全切分）。"},
    {S::t_sp, "Megatron sequence parallelism: norms and dropout split along the sequence (needs TP > 1).", "Megatron 序列并行：归一化与 dropout 沿序列切分（需 TP > 1）。"},
    {S::t_recompute, "Recompute activations in backward instead of storing them: selective = attention only (Korthikanti 2022), full = every layer, per operator = torchtitan's selective_ac_option op (every second matmul and all elementwise ops).\nDefault: none; full for QLoRA with Hugging Face (PEFT's prepare_model_for_kbit_training checkpoints by default).", "反向时重算激活而不保存：选择性 = 只重算注意力（Korthikanti 2022），完全 = 每一层，逐算子 = torchtitan 的 selective_ac_option op（每隔一个矩阵乘及全部逐元素算子）。\n默认：不重计算；Hugging Face 上的 QLoRA 默认完全重计算（PEFT 的 prepare_model_for_kbit_training 默认开启梯度检查点）。"},
    {S::offload, "Offload", "卸载"},
    {S::t_offload, "ZeRO-Offload moves optimizer states (ZeRO-3: also weights) to CPU RAM, ZeRO-Infinity to NVMe; needs ZeRO >= 1.", "ZeRO-Offload 把优化器状态（ZeRO-3 时含权重）移到 CPU 内存，ZeRO-Infinity 移到 NVMe；需 ZeRO >= 1。"},
    {S::offload_none, "none", "不卸载"},
    {S::offload_cpu, "CPU RAM", "CPU 内存"},
    {S::offload_nvme, "NVMe", "NVMe"},
    {S::t_flash, "No s x s attention score matrix is stored.", "不保存 s x s 注意力分数矩阵。"},
    {S::tp_overlap, "Overlap TP communication", "张量并行通信重叠"},
    {S::t_tp_overlap, "Megatron-Core --tp-comm-overlap hides tensor-parallel collectives behind GEMMs.", "Megatron-Core --tp-comm-overlap：把张量并行通信隐藏在矩阵乘之后。"},
    {S::inter_link, "Inter-node link", "节点间网络"},
    {S::t_inter_link, "The scale-out fabric between nodes, one port per GPU. Default InfiniBand NDR 400G (an offering's own link when one is chosen).", "节点间的横向扩展网络，每卡一个端口。默认 InfiniBand NDR 400G（选择实例时取实例自带网络）。"},
    {S::inter_gbps, "Node bandwidth override", "节点带宽覆盖"},
    {S::t_inter_gbps, "Total scale-out bandwidth of one node in Gb/s (all NICs). Default: from the link.", "单节点横向扩展总带宽，单位 Gb/s（所有网卡）。默认取自网络类型。"},
    {S::u_gbit_s, "Gb/s", "Gb/s"},
    {S::from_catalog, "(from the catalog)", "（取自目录）"},
    {S::data_tier, "Data tier", "数据存储"},
    {S::t_data_tier, "Where the training data is read from. Default: local NVMe (one Gen4 drive per node).", "训练数据从哪里读取。默认：本地 NVMe（每节点一块 Gen4 盘）。"},
    {S::ckpt_tier, "Checkpoint tier", "检查点存储"},
    {S::t_ckpt_tier, "Where checkpoints are written. Default: the data tier.", "检查点写到哪里。默认与数据存储相同。"},
    {S::ckpt_interval, "Checkpoint interval", "检查点间隔"},
    {S::t_ckpt_interval, "Hours between checkpoints; auto = Young's optimum sqrt(2 x write time x mean time between interruptions).", "两次检查点之间的小时数；自动 = Young 最优值 sqrt(2 x 写入时间 x 平均中断间隔)。"},
    {S::retention, "Retention", "保留时长"},
    {S::t_retention, "Months checkpoints and data are kept (storage cost).", "检查点和数据保留的月数（存储费用）。"},
    {S::ckpt_kept, "Checkpoints kept", "保留检查点数"},
    {S::t_ckpt_kept, "How many checkpoints are kept at once.", "同时保留的检查点个数。"},
    {S::price_mode, "Pricing mode", "计费方式"},
    {S::t_price_mode, "On-demand, spot (interruptible) or 1/3-year reserved prices from the catalog.", "目录中的按需、竞价（可被中断）或 1/3 年预留价格。"},
    {S::price_mode_on_demand, "on-demand", "按需"},
    {S::price_mode_spot, "spot", "竞价"},
    {S::price_mode_reserved_1yr, "reserved 1 year", "预留 1 年"},
    {S::price_mode_reserved_3yr, "reserved 3 years", "预留 3 年"},
    {S::price, "Price override", "价格覆盖"},
    {S::t_price, "USD per GPU-hour. Default: the offering's price, else the catalog median for the accelerator.", "每卡每小时美元价。默认取实例价格，否则取目录中该加速卡的中位价。"},
    {S::overhead, "Overhead factor", "额外开销系数"},
    {S::t_overhead, "Debugging, reruns and idle time on top of pure training (a common planning allowance is 1.3 to 1.5).", "纯训练之外的调试、重跑和空闲时间（常用的规划余量为 1.3 至 1.5）。"},
    {S::currency, "Currency", "币种"},
    {S::t_currency, "The currency results are shown in first; both are always given.", "结果优先显示的币种；两种币种都会给出。"},
    {S::spot_rate, "Spot interruptions", "竞价中断率"},
    {S::t_spot_rate, "Expected spot reclaims per instance-hour (e.g. 0.05).", "每实例小时预计被回收的次数（如 0.05）。"},
    {S::failure_rate, "Failure rate", "故障率"},
    {S::t_failure_rate, "Job interruptions per GPU-hour; default 1.97e-5 (Llama 3: 419 in 54 days on 16,384 GPUs).", "每卡时的任务中断次数；默认 1.97e-5（Llama 3：16,384 卡 54 天 419 次）。"},
    {S::card_fits, "Fits?", "放得下？"},
    {S::card_time, "Wall-clock", "训练时长"},
    {S::card_cost, "Cost", "费用"},
    {S::card_mfu, "MFU", "MFU"},
    {S::card_tier, "Tier", "级别"},
    {S::yes, "yes", "是"},
    {S::no, "no", "否"},
    {S::tier_l1, "L1: 1-13B PEFT, 1-2 GPUs", "L1：1-13B 参数高效微调，1-2 卡"},
    {S::tier_l2, "L2: one 8-GPU node", "L2：单台 8 卡节点"},
    {S::tier_l3, "L3: multi-node", "L3：多节点"},
    {S::gpu_hours_fmt, "%s GPU-hours", "%s 卡时"},
    {S::per_gpu_hour_fmt, "at %s per GPU-hour", "每卡时 %s"},
    {S::in_other_currency, "= %s, ", "折合 %s，"},
    {S::sec_step, "Step time", "单步时间"},
    {S::part_compute, "Compute", "计算"},
    {S::part_comm, "Exposed communication", "未被掩盖的通信"},
    {S::part_bubble, "Pipeline bubble", "流水线气泡"},
    {S::part_offload, "Offload", "卸载"},
    {S::part_io, "Waiting for data", "等待数据"},
    {S::step_total, "Step", "每步"},
    {S::tokens_per_s, "Throughput", "吞吐"},
    {S::u_tok_s, "tokens/s", "词元/秒"},
    {S::steps, "Steps", "步数"},
    {S::sec_cost, "Cost", "费用"},
    {S::cost_compute, "Compute", "算力"},
    {S::cost_storage, "Storage", "存储"},
    {S::cost_total, "Total", "合计"},
    {S::cost_per_btok, "Per 1B tokens", "每十亿词元"},
    {S::col_item, "Item", "项目"},
    {S::col_value, "Value", "数值"},
    {S::col_provided, "Provided", "硬件提供"},
    {S::col_needed, "Needed", "需要"},
    {S::price_source, "Price source", "价格来源"},
    {S::sec_needs, "Network and storage needs", "网络与存储需求"},
    {S::need_data_rate, "Data read rate", "数据读取速率"},
    {S::need_ckpt, "Checkpoint: size, write time", "检查点：大小、写入时间"},
    {S::need_ckpt_interval, "Checkpoint interval, overhead", "检查点间隔、开销"},
    {S::need_inter, "Inter-node traffic per GPU per step", "每卡每步节点间流量"},
    {S::need_vcpus, "vCPUs per node", "每节点 vCPU"},
    {S::need_ram, "Host RAM per node", "每节点内存"},
    {S::need_nvme, "Local NVMe per node", "每节点本地 NVMe"},
    {S::need_rdma, "RDMA (InfiniBand / RoCE)", "RDMA（InfiniBand / RoCE）"},
    {S::rdma_needed, "needed", "需要"},
    {S::rdma_not_needed, "not needed", "不需要"},
    {S::unknown, "unknown", "未知"},
    {S::where_data, "Data placement", "数据放置"},
    {S::where_ckpt, "Checkpoint placement", "检查点放置"},
    {S::why_title, "Why this number", "这个数怎么来的"},
    {S::why_formula, "Formula", "公式"},
    {S::why_inputs, "Values plugged in", "代入的数值"},
    {S::why_in_yuan, "= %s (at %s CNY per USD)", "= %s（按 1 美元 = %s 元）"},
    {S::stale, "The inputs are invalid: these results are from the last valid inputs.", "输入有误：以下结果来自上一次有效输入。"},
    {S::export_md, "Copy Markdown summary", "复制 Markdown 摘要"},
    {S::export_scenario, "Download scenario JSON", "下载场景 JSON"},
    {S::export_result, "Download result JSON", "下载结果 JSON"},
    {S::exported, "done", "完成"},
    {S::w_memory_exceeds, "Needs %s per GPU but the GPU has %s: %s.", "每卡需要 %s，但显卡只有 %s：%s。"},
    {S::w_tp_crosses_nodes, "Tensor parallelism of %s spans nodes of %s GPUs: every layer's all-reduce crosses the inter-node network. Keep TP within a node.", "张量并行 %s 跨越了 %s 卡的节点：每层的 all-reduce 都要走节点间网络。应让张量并行留在节点内。"},
    {S::w_seq_exceeds_context, "Sequence length %s exceeds the model's trained context of %s tokens; long-context training needs position scaling (e.g. RoPE scaling).", "序列长度 %s 超过模型训练时的上下文 %s 词元；长上下文训练需要位置缩放（如 RoPE 缩放）。"},
    {S::w_multinode_without_rdma, "Several nodes without RDMA: gradients cross %s Gb/s kernel TCP. Use InfiniBand or RoCE (at least %s Gb/s per node).", "多节点但没有 RDMA：梯度走 %s Gb/s 的内核 TCP。应使用 InfiniBand 或 RoCE（每节点至少 %s Gb/s）。"},
    {S::w_data_on_block_disk, "Training data on a cloud block disk (%s MB/s for the job; the GPUs read %s MB/s): stage data to local NVMe or use a parallel file system.", "训练数据放在云硬盘上（任务可得 %s MB/s；GPU 读取 %s MB/s）：应先拷到本地 NVMe 或使用并行文件系统。"},
    {S::w_io_bound, "The GPUs consume %s MB/s but the data tier gives %s MB/s: steps wait for data. Use local NVMe or a faster tier.", "GPU 每秒消耗 %s MB，但数据存储只能提供 %s MB/s：训练会等数据。应使用本地 NVMe 或更快的存储。"},
    {S::w_host_ram_below_2x_gpu, "Host RAM %s GB is under twice the node's GPU memory (%s GB): checkpoint loading, pinned buffers and offload need headroom.", "主机内存 %s GB 不到节点显存（%s GB）的两倍：加载检查点、锁页缓冲和卸载都需要余量。"},
    {S::w_few_vcpus, "Only %s vCPUs per node: data loading can starve the GPUs. Choose at least %s.", "每节点只有 %s 个 vCPU：数据加载可能拖慢 GPU。至少选 %s 个。"},
    {S::w_pcie_only_gpus, "GPUs talk over PCIe only (%s GB/s per direction, NVLink gives 300-900): gradient and tensor-parallel traffic between them is slow.", "卡间只有 PCIe（每方向 %s GB/s，NVLink 为 300-900）：梯度和张量并行通信很慢。"},
    {S::w_checkpoints_on_local_disk, "Checkpoints of a job on %s nodes go to local disks: losing a node loses its shard. Save to shared storage.", "%s 个节点的任务把检查点写到本地盘：丢失一个节点就丢失其分片。应保存到共享存储。"},
    {S::w_offload_exceeds_host_ram, "CPU offload needs %s of host RAM per node but the node has %s.", "CPU 卸载每节点需要 %s 内存，但节点只有 %s。"},
    {S::w_comm_dominates, "Exposed communication takes %s of a %s step: the network, not the GPUs, sets the pace.", "未被掩盖的通信占了每步 %2$s 中的 %1$s：速度由网络而不是 GPU 决定。"},
    {S::w_no_price, "No price for this accelerator and pricing mode in the catalog: give a price override to see costs.", "目录中没有该加速卡在此计费方式下的价格：请填写价格覆盖以查看费用。"},
    {S::w_spot_without_rate, "Spot pricing without a spot interruption rate: interruptions, lost work and checkpoint cadence are not accounted for.", "竞价计费但未填写竞价中断率：中断、丢失的工作量和检查点频率都未计入。"},
    {S::cat_accelerators, "Accelerators", "加速卡"},
    {S::cat_instances, "Offerings", "云上实例"},
    {S::cat_models, "Models", "模型"},
    {S::col_id, "ID", "ID"},
    {S::col_name, "Name", "名称"},
    {S::col_vendor, "Vendor", "厂商"},
    {S::col_memory, "Memory GB", "显存 GB"},
    {S::col_hbm, "HBM GB/s", "HBM GB/s"},
    {S::col_bf16, "BF16 TFLOPS", "BF16 TFLOPS"},
    {S::fp16_stand_in, " (FP16)", "（FP16）"},
    {S::t_fp16_stand_in, "The catalog has no BF16 peak for this accelerator (none on Volta; unpublished on others): its FP16 peak is shown, and the time model uses it.", "目录中没有此加速卡的 BF16 峰值（Volta 不支持；其他卡未公布）：这里显示 FP16 峰值，时间模型也用它。"},
    {S::col_fp8, "FP8 TFLOPS", "FP8 TFLOPS"},
    {S::col_max_node, "GPUs/node max", "每节点卡数上限"},
    {S::t_col_max_node, "The most GPUs one node's scale-up link (NVLink, Infinity Fabric, HCCS) joins in any system the part is sold in (catalog max_gpus_per_node, with its source): cluster.gpus_per_node may not exceed it. -: no bound in the catalog (PCIe cards: the server chassis decides).", "在该加速卡在售的任何整机系统中，节点内互连（NVLink、Infinity Fabric、HCCS）最多连接的卡数（目录 max_gpus_per_node，附来源）：cluster.gpus_per_node 不能超过它。-：目录中没有上限（PCIe 卡：由服务器机箱决定）。"},
    {S::col_source, "Source", "来源"},
    {S::col_as_of, "As of", "截至"},
    {S::col_provider, "Provider", "云厂商"},
    {S::col_gpus, "GPUs", "卡数"},
    {S::col_region, "Region", "地域"},
    {S::col_on_demand, "On-demand /h", "按需 /小时"},
    {S::col_spot, "Spot /h", "竞价 /小时"},
    {S::col_params, "Parameters", "参数量"},
    {S::col_context, "Context", "上下文"},
    {S::use, "Use", "使用"},
    {S::override_price, "Your on-demand price per instance-hour", "你的按需价格（每实例小时）"},
    {S::apply, "Apply", "应用"},
    {S::remove, "Remove", "移除"},
    {S::add_gpu, "Add a custom GPU", "添加自定义加速卡"},
    {S::based_on, "Based on", "基于"},
    {S::gpu_id, "ID (lowercase)", "ID（小写）"},
    {S::gpu_name, "Name", "名称"},
    {S::your_edits, "Your catalog edits (kept in this browser)", "你的目录修改（保存在本浏览器）"},
    {S::export_edits, "Download edits JSON", "下载修改 JSON"},
    {S::export_catalog, "Download catalog JSON", "下载目录 JSON"},
    {S::clear_edits, "Clear all edits", "清除全部修改"},
    {S::edits_refused, "Your edits were refused by the catalog check:", "你的修改未通过目录校验："},
    {S::edit_price_fmt, "price of %s: %s per instance-hour", "%s 的价格：每实例小时 %s"},
    {S::edit_gpu_fmt, "custom GPU %s (%s)", "自定义加速卡 %s（%s）"},
    {S::no_edits, "No edits yet: select an offering to override its price, or add a GPU below.", "还没有修改：选中一个实例可覆盖其价格，或在下方添加加速卡。"},
    {S::custom_gpu_source, "custom GPU added in this browser", "在本浏览器中添加的自定义加速卡"},
    {S::rows_fmt, "%d of %d", "%d / %d"},
    {S::gpu_hours, "GPU-hours", "卡时"},
    {S::edits_tab, "Your edits", "我的修改"},
    {S::default_fmt, "Default: %s", "默认：%s"},
    {S::on, "on", "开启"},
    {S::off, "off", "关闭"},
    {S::sec_techniques, "Memory and kernel techniques", "显存与内核优化"},
    {S::qkv_bias, "QKV bias", "QKV 偏置"},
    {S::t_qkv_bias, "Biases on the Q, K and V projections only (Qwen2).", "仅在 Q、K、V 投影上有偏置（Qwen2）。"},
    {S::linear_bias, "Linear biases", "线性层偏置"},
    {S::t_linear_bias, "Biases on every linear layer (GPT-2/3).", "所有线性层都有偏置（GPT-2/3）。"},
    {S::norm, "Normalisation", "归一化"},
    {S::t_norm, "RMSNorm has a weight; LayerNorm a weight and a bias.", "RMSNorm 只有权重；LayerNorm 有权重和偏置。"},
    {S::norm_rmsnorm, "RMSNorm", "RMSNorm"},
    {S::norm_layernorm, "LayerNorm", "LayerNorm"},
    {S::learned_positions, "Learned positions", "可学习位置编码"},
    {S::t_learned_positions, "Rows of a learned position embedding (GPT: the context length); 0 for rotary embeddings.", "可学习位置嵌入的行数（GPT 为上下文长度）；旋转位置编码为 0。"},
    {S::shared_expert_ffn, "Shared expert FFN", "共享专家 FFN"},
    {S::t_shared_expert_ffn, "Inner width of one shared expert; 0 means the routed experts' width.", "单个共享专家的内部宽度；0 表示与路由专家相同。"},
    {S::sliding_window, "Sliding window", "滑动窗口"},
    {S::t_sliding_window, "Windowed layers attend only the last this many tokens; 0 for full attention (Mistral 7B v0.1: 4096; Gemma 2: 4096 and GPT-OSS: 128, every second layer).", "窗口层只关注最近这么多个词元；0 表示完整注意力（Mistral 7B v0.1：4096；Gemma 2：4096、GPT-OSS：128，每隔一层）。"},
    {S::sliding_layers, "Sliding-window layers", "滑动窗口层数"},
    {S::t_sliding_layers, "How many layers use the sliding window; 0 means every layer.", "使用滑动窗口的层数；0 表示所有层。"},
    {S::attention, "Attention", "注意力"},
    {S::t_attention, "Multi-head or grouped-query attention (MHA), or DeepSeek's multi-head latent attention (MLA).", "多头或分组查询注意力（MHA），或 DeepSeek 的多头潜在注意力（MLA）。"},
    {S::attention_mha, "MHA / GQA", "MHA / GQA"},
    {S::attention_mla, "MLA (DeepSeek)", "MLA (DeepSeek)"},
    {S::q_lora_rank, "Query rank (MLA)", "查询低秩维度 (MLA)"},
    {S::t_q_lora_rank, "Rank of the query bottleneck; 0 projects queries directly.", "查询低秩瓶颈的秩；0 表示直接投影。"},
    {S::kv_lora_rank, "KV latent rank (MLA)", "KV 潜在维度 (MLA)"},
    {S::t_kv_lora_rank, "Rank of the compressed key/value latent.", "压缩后键值潜在向量的秩。"},
    {S::qk_nope_head_dim, "QK head dim without RoPE", "QK 头维度（无 RoPE）"},
    {S::t_qk_nope_head_dim, "Per-head query/key width without rotary embedding.", "每头不带旋转位置编码的查询/键宽度。"},
    {S::qk_rope_head_dim, "QK head dim with RoPE", "QK 头维度（RoPE）"},
    {S::t_qk_rope_head_dim, "Per-head query/key width with rotary embedding.", "每头带旋转位置编码的查询/键宽度。"},
    {S::v_head_dim, "V head dim", "V 头维度"},
    {S::t_v_head_dim, "Per-head value width.", "每头值向量宽度。"},
    {S::dropout, "Dropout", "Dropout"},
    {S::t_dropout, "Dropout layers keep 1-byte masks per activation (GPT-3 style); off for Llama and Qwen.", "Dropout 层为每个激活保存 1 字节掩码（GPT-3 风格）；Llama、Qwen 不使用。"},
    {S::loss_chunks, "Loss chunks", "损失分块数"},
    {S::t_loss_chunks, "Chunked cross-entropy computes the fp32 logits one chunk at a time (torchtune: 8); 1 means unchunked.", "分块交叉熵每次只计算一块 fp32 logits（torchtune 为 8）；1 表示不分块。"},
    {S::activation_offload, "Activation offload", "激活卸载"},
    {S::t_activation_offload, "Saved activations are streamed to host memory.", "保存的激活流式转移到主机内存。"},
    {S::activation_offload_layers, "Offloaded layers", "卸载层数"},
    {S::t_activation_offload_layers, "Offload only the saved activations of the first N layers of each pipeline stage (Megatron-LM --cpu-offloading-num-layers); 0 offloads every layer. A layer's copy runs beside the next layer's compute: only the part longer than that compute adds to the step.", "只卸载每个流水线阶段前 N 层保存的激活（Megatron-LM --cpu-offloading-num-layers）；0 表示卸载所有层。一层的拷贝与下一层的计算并行：只有超出该计算时间的部分计入步长。"},
    {S::recompute_layers, "Recomputed layers", "重计算层数"},
    {S::t_recompute_layers, "With full recompute, only the first N layers of each pipeline chunk recompute and the others keep their activations (Megatron-LM --recompute-method block --recompute-num-layers N); 0 recomputes every layer. Fewer layers: less recompute time, more memory.", "完全重计算时，只有每个流水线块的前 N 层重计算，其余层保留激活（Megatron-LM --recompute-method block --recompute-num-layers N）；0 表示每一层都重计算。层数越少，重计算时间越少，占用显存越多。"},
    {S::mtp_layers, "MTP modules", "MTP 模块数"},
    {S::t_mtp_layers, "Multi-token prediction modules trained with the model (DeepSeek-V3: 1; Megatron-Core --mtp-num-layers). Each adds one block of the model's last kind, a projection and another pass through the output head per token, on the last pipeline stage. Megatron only.", "与模型一起训练的多词元预测（MTP）模块数（DeepSeek-V3 为 1；Megatron-Core --mtp-num-layers）。每个模块在最后一个流水线阶段为每个词元增加一个与模型最后一层同类的块、一个投影，以及再经过一次输出头。仅 Megatron 支持。"},
    {S::optimizer_in_backward, "Optimizer in backward", "反向中执行优化器"},
    {S::t_optimizer_in_backward, "The optimizer step runs inside backward, so each gradient is freed at once.", "在反向传播中执行优化器更新，梯度随即释放。"},
    {S::fp32_norm_inputs, "fp32 norm inputs", "归一化输入为 fp32"},
    {S::t_fp32_norm_inputs, "Unfused RMSNorm/LayerNorm (PyTorch eager, Hugging Face, torchtune) saves its inputs in fp32.", "未融合的 RMSNorm/LayerNorm（PyTorch eager、Hugging Face、torchtune）以 fp32 保存输入。"},
    {S::fused_loss, "Fused loss", "融合损失"},
    {S::t_fused_loss, "A fused linear cross-entropy: Liger's computes the logits a small chunk at a time; Cut Cross-Entropy (Unsloth) never writes them to GPU memory. A fused cross-entropy kernel (flash-attn's, llm-foundry's MPT default; Transformer Engine's under Megatron) runs on the whole 16-bit logits without fp32 copies.", "融合线性交叉熵：Liger 每次只计算一小块 logits；Cut Cross-Entropy（Unsloth）从不把 logits 写入显存。融合交叉熵内核（flash-attn 的实现，llm-foundry 中 MPT 的默认选项；Megatron 下为 Transformer Engine 的实现）直接处理完整的 16 位 logits，不生成 fp32 副本。"},
    {S::fused_loss_none, "None", "无"},
    {S::fused_loss_liger, "Liger (chunked)", "Liger（分块）"},
    {S::fused_loss_cce, "Cut Cross-Entropy", "Cut Cross-Entropy"},
    {S::fused_loss_fused_ce, "Fused cross-entropy kernel", "融合交叉熵内核"},
    {S::fp32_grad_reduce, "fp32 gradient reduce", "fp32 梯度归约"},
    {S::t_fp32_grad_reduce, "Gradients are reduced across data-parallel ranks in fp32, twice the bytes of bf16 (Composer/FSDP mixed precision DEFAULT; Megatron-LM's bf16 default, whose gradient buffer is then fp32 too). torchtitan always reduces in fp32.", "数据并行梯度以 fp32 归约，字节数为 bf16 的两倍（Composer/FSDP 混合精度 DEFAULT；也是 Megatron-LM 在 bf16 下的默认，此时其梯度缓冲区也为 fp32）。torchtitan 始终以 fp32 归约。"},
    {S::kbit_fp32_cast, "fp32 cast (QLoRA)", "fp32 转换（QLoRA）"},
    {S::t_kbit_fp32_cast, "QLoRA: the parameters not quantised to 4 bits (embedding, norms, head) are cast to fp32, and with them the residual stream and the logits (PEFT prepare_model_for_kbit_training). Default: on with Hugging Face.", "QLoRA：未量化为 4 bit 的参数（嵌入、归一化、输出头）转为 fp32，残差流和 logits 随之为 fp32（PEFT prepare_model_for_kbit_training）。默认：Hugging Face 时开启。"},
    {S::ep_overlap, "EP all-to-all overlap", "专家并行通信重叠"},
    {S::t_ep_overlap, "Expert-parallel all-to-alls run during another micro-batch's computation (DeepSeek-V3 DualPipe; Megatron-Core --overlap-moe-expert-parallel-comm).", "专家并行的 all-to-all 与另一个微批的计算重叠（DeepSeek-V3 DualPipe；Megatron-Core --overlap-moe-expert-parallel-comm）。"},
    {S::ep_comm_sms, "EP dispatcher SMs", "专家并行分发占用的 SM"},
    {S::t_ep_comm_sms, "SMs the DeepEP or HybridEP kernels hold while the all-to-alls overlap computation, which meanwhile runs on the SMs left (Megatron-Core --moe-flex-dispatcher-num-sms). 0 takes DeepEP's default of 20, which HybridEP also takes when unset; fewer than 20 SMs slow the transfers (20 fill IB and NVLink).", "DeepEP 或 HybridEP 内核在 all-to-all 与计算重叠期间占用的 SM 数，计算在此期间只能使用剩下的 SM（Megatron-Core --moe-flex-dispatcher-num-sms）。0 表示取 DeepEP 的默认值 20，HybridEP 未设置时也取此值；少于 20 个 SM 会拖慢传输（20 个即可跑满 IB 和 NVLink）。"},
    {S::pp_overlap, "PP send/receive overlap", "流水线收发重叠"},
    {S::t_pp_overlap, "In the interleaved schedule's steady state, each pipeline transfer runs during the next chunk's computation (Megatron-LM --overlap-p2p-communication, on by default with virtual stages); warm-up and flush stay exposed.", "交错调度的稳定阶段中，每次流水线传输与下一个分块的计算重叠（Megatron-LM --overlap-p2p-communication，使用虚拟阶段时默认开启）；预热与排空阶段仍暴露。"},
    {S::pp_flushes, "Pipeline flushes a step", "每步流水线排空次数"},
    {S::t_pp_flushes, "How many times the pipeline fills and drains in a step, each schedule running an equal share of the micro-batches and each paying the bubble and, as PyTorch's pipelining does, the gradient reduction. torchtitan and NeMo AutoModel run one schedule per gradient-accumulation step: set the accumulation steps, global batch / (local batch x data-parallel size). 1 runs the whole step in one schedule (Megatron-LM, DeepSpeed). Must divide the step's micro-batches per data-parallel rank, leaving each schedule at least one per stage.", "一步中流水线填充并排空的次数，每次调度运行相同份额的微批，且每次都要承担流水线气泡，并像 PyTorch 流水线那样做一次梯度归约。torchtitan 和 NeMo AutoModel 每个梯度累积步运行一次调度：此处填累积步数，即全局批量 / (本地批量 x 数据并行规模)。1 表示整步只运行一次调度（Megatron-LM、DeepSpeed）。须整除每个数据并行 rank 每步的微批数，且每次调度每级至少一个微批。"},
    {S::torch_compile, "torch.compile", "torch.compile"},
    {S::t_torch_compile, "The loss runs as one fused kernel that keeps the 16-bit logits and one fp32 buffer instead of the log-softmax and its gradients; LoRA's scale and adds fuse into neighbouring kernels.", "损失函数编译为一个融合内核，只保留 16 位 logits 和一个 fp32 缓冲，而不是 log-softmax 及其梯度；LoRA 的缩放与相加融合进相邻内核。"},
    {S::fused_kernels, "Fused kernels", "融合内核"},
    {S::t_fused_kernels, "The blocks' RMSNorm, rotary embedding and SwiGLU run as fused kernels (Megatron-LM, torch.compile, Liger, Unsloth). Off: eager PyTorch runs each as several ops that read and write the whole tensor, the norm and RoPE in fp32, and SwiGLU keeps one more tensor for backward. Default: on with Megatron-LM, torch.compile or a fused loss.", "各层的 RMSNorm、旋转位置编码和 SwiGLU 以融合内核运行（Megatron-LM、torch.compile、Liger、Unsloth）。关闭：eager PyTorch 把每个拆成多个算子，每个都读写整个张量，归一化和 RoPE 用 fp32，SwiGLU 还要为反向多保存一个张量。默认：Megatron-LM、torch.compile 或融合损失时开启。"},
    {S::eager_activation, "Eager gated activation", "门控激活未融合"},
    {S::t_eager_activation, "With the other kernels fused, the gated activation act(gate) x up still runs as separate PyTorch ops: they read and write its f-wide intermediates, and its output is kept for backward (nanotron's MLP; Liger with liger_kernel_config {\"swiglu\": false}).", "其他内核已融合，但门控激活 act(gate) x up 仍以单独的 PyTorch 算子运行：读写 f 宽的中间张量，并为反向保留其输出（nanotron 的 MLP；Liger 设置 liger_kernel_config {\"swiglu\": false}）。"},
    {S::range_80, "80 %:", "80% 区间："},
    {S::range_to, "to", "至"},
    {S::framework, "Framework", "训练框架"},
    {S::t_framework, "The software that runs the job: it decides what the loss and the buffers hold, whether norms and activations run eager by default, and PEFT's fp32 LoRA adapters. Default: Megatron-LM for pretraining, Hugging Face for fine-tuning.", "运行训练的软件，决定损失函数和缓冲区占用的显存、归一化与激活默认是否以 eager 运行，以及 PEFT 的 fp32 LoRA 适配器。默认：预训练用 Megatron-LM，微调用 Hugging Face。"},
    {S::framework_hf, "Hugging Face", "Hugging Face"},
    {S::framework_torchtune, "torchtune", "torchtune"},
    {S::framework_fsdp, "PyTorch FSDP", "PyTorch FSDP"},
    {S::framework_deepspeed, "DeepSpeed", "DeepSpeed"},
    {S::framework_megatron, "Megatron-LM", "Megatron-LM"},
    {S::framework_torchtitan, "torchtitan", "torchtitan"},
    {S::attention_kernel, "Attention kernel", "注意力内核"},
    {S::t_attention_kernel, "Which fused attention kernel runs; each has its own measured rate per accelerator (catalog). Auto: the one frameworks use on this accelerator (on AMD parts, PyTorch's differs from Megatron's). Triton: flash-attn's Triton kernel (MPT, llm-foundry), for which no published benchmark was found: a fitted share of FlashAttention-2's rate.", "使用哪个融合注意力内核；每个内核在每种加速卡上有各自的实测速率（见目录）。自动：框架在该加速卡上默认使用的内核（AMD 加速卡上 PyTorch 与 Megatron 所用不同）。Triton：flash-attn 的 Triton 内核（MPT、llm-foundry 使用），未找到其公开基准，按 FlashAttention-2 速率的一个拟合比例计。"},
    {S::attention_kernel_auto, "Auto", "自动"},
    {S::attention_kernel_flash1, "FlashAttention 1", "FlashAttention 1"},
    {S::attention_kernel_flash_triton, "FlashAttention (Triton)", "FlashAttention（Triton）"},
    {S::attention_kernel_flash2, "FlashAttention 2", "FlashAttention 2"},
    {S::attention_kernel_flash3, "FlashAttention 3", "FlashAttention 3"},
    {S::attention_kernel_flash4, "FlashAttention 4", "FlashAttention 4"},
    {S::attention_kernel_cudnn, "cuDNN fused attention", "cuDNN 融合注意力"},
    {S::attention_kernel_aotriton, "AOTriton (PyTorch SDPA on ROCm)", "AOTriton（ROCm 上的 PyTorch SDPA）"},
    {S::attention_kernel_aiter, "AITER FMHA (ROCm)", "AITER FMHA（ROCm）"},
    {S::intra_gb_per_s, "Scale-up bandwidth", "机内带宽"},
    {S::t_intra_gb_per_s, "Per GPU and direction, NVLink or PCIe; collectives reach the share of it measured on the link. Default: the accelerator's link.", "每卡单向带宽（NVLink 或 PCIe）；集合通信达到该互联实测的占比。默认取加速卡的互联。"},
    {S::busbw_fraction, "NCCL efficiency", "NCCL 效率"},
    {S::t_busbw_fraction, "Achieved NCCL bus bandwidth as a share of the scale-out line rate. Default: measured for the link, else 0.8 with RDMA and 0.5 over TCP.", "NCCL 实测总线带宽占横向扩展线速的比例。默认取该网络的实测值，否则 RDMA 为 0.8、TCP 为 0.5。"},
    {S::restart_h, "Restart time", "重启耗时"},
    {S::t_restart_h, "Hours to detect an interruption, restart and reload the last checkpoint.", "检测中断、重启并加载最近检查点所需的小时数。"},
    {S::optimizer_adamw, "AdamW", "AdamW"},
    {S::optimizer_adamw8bit, "8-bit AdamW", "8 位 AdamW"},
    {S::optimizer_sgd, "SGD", "SGD"},
    {S::optimizer_adafactor, "Adafactor", "Adafactor"},
    {S::currency_usd, "USD $", "美元 $"},
    {S::currency_cny, "CNY \xC2\xA5", "人民币 \xC2\xA5"},
    {S::u_stages, "stages", "级"},
    {S::u_chunks, "chunks", "块"},
    {S::u_flushes, "flushes", "次"},
    {S::u_modules, "modules", "个模块"},
    {S::u_positions, "positions", "个位置"},
    {S::u_sms, "SMs", "个 SM"},
    {S::latency_us, "Inter-node latency", "节点间延迟"},
    {S::t_latency_us, "One-way latency between nodes; every step of a collective pays it. Default: the link's.", "节点间单向延迟；集合通信的每一步都要付出。默认取网络类型的值。"},
    {S::u_us, "\xC2\xB5s", "\xC2\xB5s"},
    {S::stage_middle, "second stage (the busiest of an uneven split)", "第二阶段（不均匀切分中负载最重）"},
    {S::cp, "Context parallel (CP)", "上下文并行 (CP)"},
    {S::t_cp, "Context parallel size: every sequence is split over CP GPUs and attention runs as a ring that passes keys and values on (Megatron-Core); 2 x CP divides the sequence length.", "上下文并行数：每条序列切到 CP 张卡上，注意力以环形方式依次传递键和值（Megatron-Core）；2 x CP 须整除序列长度。"},
    {S::ep, "Expert parallel (EP)", "专家并行 (EP)"},
    {S::t_ep, "Expert parallel size: the routed experts are split over EP GPUs and tokens travel to them by all-to-all; divides the experts, and EP x ETP divides the GPUs of a pipeline stage (TP x CP x DP).", "专家并行数：路由专家分到 EP 张卡上，token 通过 all-to-all 发往专家；须整除专家数，且 EP x ETP 须整除一个流水线阶段的卡数 (TP x CP x DP)。"},
    {S::vp, "Virtual stages (VP)", "虚拟流水线阶段 (VP)"},
    {S::t_vp, "Virtual pipeline stages per rank (interleaved 1F1B): the bubble shrinks to (PP - 1) / (VP x micro-batches) for VP times the point-to-point traffic; every virtual stage needs at least one layer, and with uneven chunks the longest sets the bubble.", "每个流水线 rank 的虚拟阶段数（交错 1F1B）：气泡缩小为 (PP - 1) / (VP x 微批数)，点对点通信增至 VP 倍；每个虚拟阶段至少一层，各段层数不等时气泡由最长的一段决定。"},
    {S::etp, "Expert tensor parallel (ETP)", "专家张量并行 (ETP)"},
    {S::t_etp, "Expert tensor-parallel size: each routed expert is split over ETP GPUs (Megatron-Core's default is TP; 1 keeps every expert whole and lets EP run across the TP ranks); divides TP.", "专家张量并行数：每个路由专家切到 ETP 张卡上（Megatron-Core 默认等于 TP；设为 1 则专家不切分，EP 可跨 TP 的卡）；须整除 TP。"},
    {S::sec_calibration, "Trial-run measurements", "试跑实测"},
    {S::cal_tokens, "Measured tokens/s per GPU", "实测每卡 tokens/s"},
    {S::t_cal_tokens, "Training throughput per GPU your trial run measured (torchtune tokens_per_second_per_gpu, torchtitan tps). The estimate then reproduces it at the trial's layout and carries the compute factor to this scenario. Give one of tokens/s, step time and MFU.", "试跑测得的每卡训练吞吐（torchtune 的 tokens_per_second_per_gpu、torchtitan 的 tps）。估算会在试跑的配置下复现它，并把算力系数带到本方案。tokens/s、步长和 MFU 三者只填一个。"},
    {S::cal_step, "Measured step time", "实测步长"},
    {S::t_cal_step, "Seconds per optimizer step your trial measured (Megatron-LM: elapsed time per iteration).", "试跑测得的每个优化器步的秒数（Megatron-LM 的 elapsed time per iteration）。"},
    {S::cal_mfu, "Measured MFU", "实测 MFU"},
    {S::t_cal_mfu, "Model FLOPs utilisation your trial measured, in the Megatron convention (0 to 1).", "试跑测得的模型算力利用率，按 Megatron 口径（0 到 1）。"},
    {S::cal_memory, "Measured peak memory", "实测显存峰值"},
    {S::t_cal_memory, "Peak memory of the most loaded GPU in the trial, in GiB; at most the GPU's memory.", "试跑中负载最重的那张卡的显存峰值（GiB），不超过显存容量。"},
    {S::cal_memory_from, "Peak memory read from", "显存峰值来源"},
    {S::t_cal_memory_from, "allocated: torch.cuda.max_memory_allocated (tensors only); reserved: torch.cuda.max_memory_reserved (torchtitan's memory line); nvidia_smi: also the CUDA context.", "allocated：torch.cuda.max_memory_allocated（仅张量）；reserved：torch.cuda.max_memory_reserved（torchtitan 的 memory 行）；nvidia_smi：另含 CUDA 上下文。"},
    {S::cal_memory_from_allocated, "max_memory_allocated", "max_memory_allocated"},
    {S::cal_memory_from_nvidia_smi, "nvidia-smi", "nvidia-smi"},
    {S::cal_memory_from_reserved, "max_memory_reserved", "max_memory_reserved"},
    {S::cal_busbw_intra, "Measured busbw in a node", "实测节点内 busbw"},
    {S::t_cal_busbw_intra, "nccl-tests all_reduce_perf bus bandwidth over the GPUs of one node (GB/s, large messages).", "nccl-tests all_reduce_perf 在单节点所有卡上的总线带宽（GB/s，大消息）。"},
    {S::cal_busbw_inter, "Measured busbw across nodes", "实测跨节点 busbw"},
    {S::t_cal_busbw_inter, "nccl-tests all_reduce_perf bus bandwidth over every GPU of two or more nodes (GB/s); at most the intra-node one.", "nccl-tests all_reduce_perf 在两个及以上节点所有卡上的总线带宽（GB/s），不超过节点内的值。"},
    {S::cal_read, "Measured read rate per node", "实测单节点读速"},
    {S::t_cal_read, "fio sequential read throughput of one node from the training data's storage (GB/s).", "单节点从训练数据存储的 fio 顺序读吞吐（GB/s）。"},
    {S::cal_on_accelerator, "Trial's accelerator", "试跑的加速卡"},
    {S::t_cal_on_accelerator, "The accelerator the trial ran on; the factors apply to this scenario and to planner plans on that accelerator only. Leave it out when it is this scenario's.", "试跑所用的加速卡；系数只用于同一加速卡上的本方案和规划方案。与本方案相同时可不填。"},
    {S::cal_on_gpus, "Trial's GPUs", "试跑卡数"},
    {S::cal_on_per_node, "Trial's GPUs per node", "试跑每节点卡数"},
    {S::cal_on_tp, "Trial's TP", "试跑 TP"},
    {S::cal_on_pp, "Trial's PP", "试跑 PP"},
    {S::cal_on_cp, "Trial's CP", "试跑 CP"},
    {S::cal_on_ep, "Trial's EP", "试跑 EP"},
    {S::cal_on_zero, "Trial's ZeRO stage", "试跑 ZeRO 阶段"},
    {S::cal_on_micro_batch, "Trial's micro-batch", "试跑微批"},
    {S::cal_on_seq_len, "Trial's sequence length", "试跑序列长度"},
    {S::cal_on_global_batch, "Trial's global batch", "试跑全局批大小"},
    {S::cal_on_pp_flushes, "Trial's pipeline flushes", "试跑流水线排空次数"},
    {S::t_cal_on, "Where the trial differed from this scenario (for example 1 node for 10 minutes before 8 nodes for 3 weeks); left empty, the scenario's own value.", "试跑与本方案不同的配置（例如先用 1 个节点跑 10 分钟，正式用 8 个节点跑 3 周）；不填则与本方案相同。"},
    {S::paste_measurement, "Paste your measurement", "粘贴实测日志"},
    {S::t_paste_measurement, "Paste a training or benchmark log (Hugging Face Trainer, torchtune, Megatron-LM, DeepSpeed, torchtitan, nccl-tests, fio or a printed torch.cuda.max_memory_allocated()) and read it: the measurements fill the fields below. Up to 256 KB.", "粘贴训练或测试日志（Hugging Face Trainer、torchtune、Megatron-LM、DeepSpeed、torchtitan、nccl-tests、fio 或打印出的 torch.cuda.max_memory_allocated()）并读取：实测值会填入下面的字段。最多 256 KB。"},
    {S::read_log, "Read the log", "读取日志"},
    {S::log_read_ok, "Read %d measurement(s): %s", "读到 %d 项实测：%s"},
    {S::log_refused, "The log's measurements do not fit this scenario: %s", "日志中的实测值与本方案不符：%s"},
    {S::range_measured, "measured", "实测"},
    {S::calibration_title, "Calibrated from your trial run", "已按试跑实测校准"},
    {S::calibration_row, "%s: measured %s, estimated at the trial %s", "%s：实测 %s，试跑配置下估算 %s"},
    {S::clear_calibration, "Remove the measurements", "移除实测值"},
    {S::not_calibrated, "not calibrated", "未校准"},
    {S::t_not_calibrated, "The trial ran on another accelerator: this plan's figures are the model's alone.", "试跑用的是别的加速卡：该方案的数字仅来自模型。"},
    {S::w_memory_exceeds_one_gpu, "Needs %s but the GPU has %s: %s.", "需要 %s，但显卡只有 %s：%s。"},
    {S::w_minimum_billing, "The offering bills a minimum block: %s billed for %s used, and the cost counts the whole block.", "该云产品按最低计费周期收费：计费 %s，实际使用 %s，费用按整个周期计算。"},
    {S::w_unsupported_layout, "No framework the planner targets runs this layout: %s. The figures assume it runs; the planner would not propose it.", "规划器支持的训练框架都不能运行此并行方式：%s。这些数字假定它能运行；规划器不会推荐它。"},
    {S::within_fmt, "The best plan takes over a month; the cheapest within %.0f days: %s, %d GPUs, %s, %s", "最佳方案超过一个月；%.0f 天内完成的最便宜方案：%s，%d 张 GPU，%s，%s"},
    {S::used_hours, "Hours used (incl. overhead)", "使用时长（含额外开销）"},
    {S::billed_hours, "Hours billed (minimum block)", "计费时长（最低计费周期）"},
    {S::billed_fmt, "billed %s", "计费 %s"},
    {S::t_billed, "The offering rents by a minimum block (e.g. a month): the cost is the whole block however short the run.", "该产品有最低计费周期（如按月）：无论训练多短，都按整个周期收费。"},
    {S::cards, "Cards on the host", "同一主机的卡数"},
    {S::t_cards, "This offering is rented by the card: take 1 to as many cards as one host gives (the line below says how many), at the per-card price. Empty: one card.", "该产品按卡租用：在同一台主机上租 1 张到主机可给的卡数（见下方说明），按单卡价格计费。留空：一张卡。"},
    {S::per_card_fmt, "Rented by the card: 1 to %d cards on one host, linked by %s.", "按卡租用：同一主机 1 到 %d 张卡，卡间互联为 %s。"},
    {S::n_one_machine_only, "No offering these constraints allow publishes a multi-node network with a price, so every plan runs on one machine. Chinese multi-node RDMA clusters (Alibaba PAI Lingjun, Tencent Cloud HCC, Volcano Engine) publish their prices only in the purchase console: estimate one with its quoted price per GPU-hour.", "这些约束允许的云产品都没有公布带价格的多机网络，所以每个方案都只用一台机器。国内的多机 RDMA 集群（阿里云 PAI 灵骏、腾讯云 HCC、火山引擎）只在购买控制台显示价格：可以用询到的每卡时价格单独估算。"},
    {S::rej_precision, "precision", "精度不支持"},
    {S::executed_fmt, "kernels run %s of peak", "算子实跑峰值的 %s"},
    {S::off_peak_gradients, "Gradients after the peak (backward frees the activations first; not in the total)", "峰值之后的梯度（反向传播先释放激活值；不计入合计）"},
    {S::off_peak_activations, "Activations and logits before the peak (freed before the gradients'; not in the total)", "峰值之前的激活值与 logits（在梯度峰值前释放；不计入合计）"},
    {S::note_compute, "throughput measured on %s GPUs: the model's compute runs at %sx its modelled rate, communication and the pipeline bubble as modelled", "吞吐量在 %s 张 GPU 上实测：计算速度为模型估算的 %s 倍，通信与流水线气泡仍按模型计算"},
    {S::note_memory, "peak memory (%s) measured on %s GPUs: activations, logits and buffers are %sx the model's, weights, gradients and optimizer states as counted", "峰值显存（%s）在 %s 张 GPU 上实测：激活值、logits 与缓冲区为模型值的 %s 倍，权重、梯度与优化器状态按计数"},
    {S::note_network, "collectives across nodes reach %s of the node's network bandwidth, as measured", "跨节点集合通信达到节点网络带宽的 %s（实测）"},
    {S::note_data_read, "every node reads the training data at the measured rate", "每个节点按实测速率读取训练数据"},
    {S::note_other_accelerator, "measured on %s, while the scenario runs on %s: its figures are not calibrated", "实测在 %s 上，而场景运行在 %s 上：其数字未经校准"},
    {S::note_other_layout, "the scenario is not the trial's configuration: its figures carry the uncertainty of scaling a calibrated estimate to another layout (ranges)", "场景与试跑配置不同：其数字带有把校准后的估算推广到另一种并行方式的不确定性（见区间）"},
    {S::compute_optimal_fmt, "%s tokens per parameter: %s. Compute-optimal for this size: %s tokens (20 per parameter, Hoffmann et al. 2022); %s by the refit law (Besiroglu et al. 2024).", "每个参数 %s 个词元：%s。该规模的算力最优词元数：%s（每参数 20 个，Hoffmann 等 2022）；按重新拟合的规律为 %s（Besiroglu 等 2024）。"},
    {S::regime_under, "under-trained for its size", "相对规模训练不足"},
    {S::regime_near, "near compute-optimal", "接近算力最优"},
    {S::regime_over, "over-trained, as models meant for deployment often are by choice (cheaper to serve)", "过度训练，面向部署的模型常有意如此（推理更省）"},
    {S::view_tco, "Own or rent", "自购还是租用"},
    {S::tco_intro, "Buying GPU servers against renting the same GPUs: capex, power, colocation and staff against on-demand, reserved and spot prices. Every figure you leave alone is a catalog default with its source (listed below); the same answer as the command llmplan tco.", "自购 GPU 服务器与租用同样 GPU 的对比：购置、电力、托管与运维人力，对比按需、预留与竞价价格。未填写的数字都取自目录默认值并注明来源（见下方）；结果与命令 llmplan tco 一致。"},
    {S::tco_accelerator, "GPU", "GPU 型号"},
    {S::tco_count, "Servers", "服务器台数"},
    {S::tco_gpus_per_server, "GPUs per server", "每台 GPU 数"},
    {S::tco_currency, "Currency", "币种"},
    {S::tco_price_usd, "Server price (USD)", "整机价格（美元）"},
    {S::tco_price_cny, "Server price (CNY)", "整机价格（人民币）"},
    {S::tco_utilisation, "Utilisation", "利用率"},
    {S::tco_horizon, "Horizon (months)", "测算周期（月）"},
    {S::tco_depreciation, "Depreciation (years)", "折旧年限（年）"},
    {S::tco_residual, "Resale value", "残值比例"},
    {S::tco_network, "Network (of server price)", "网络（占整机价）"},
    {S::tco_storage, "Storage (of server price)", "存储（占整机价）"},
    {S::tco_kwh_usd, "Electricity (USD/kWh)", "电价（美元/千瓦时）"},
    {S::tco_kwh_cny, "Electricity (CNY/kWh)", "电价（元/千瓦时）"},
    {S::tco_pue, "PUE", "PUE"},
    {S::tco_colocation, "Colocation (USD/kW-month)", "托管费（美元/千瓦·月）"},
    {S::tco_colocation_cny, "Colocation (CNY/kW-month)", "托管费（元/千瓦·月）"},
    {S::tco_staff, "Staff (USD/month)", "运维人力（美元/月）"},
    {S::tco_staff_cny, "Staff (CNY/month)", "运维人力（元/月）"},
    {S::tco_lead_time, "Lead time (days)", "交付周期（天）"},
    {S::tco_own_title, "Owning", "自购"},
    {S::tco_own_fmt, "%d GPUs at %.0f %% utilisation: capex %s, %s a month, %s per GPU-hour used.", "%d 张 GPU，利用率 %.0f %%：一次性投入 %s，每月 %s，每使用卡时 %s。"},
    {S::tco_breakdown_fmt, "A month: depreciation %s, power %s, colocation %s, staff %s. Delivered after %.1f months.", "每月：折旧 %s，电费 %s，托管 %s，人力 %s。下单后 %.1f 个月交付。"},
    {S::tco_rent_title, "Renting the same GPUs", "租用同样的 GPU"},
    {S::tco_no_rent, "The catalog rents no such GPU: give your quotes to compare (rent_usd_per_gpu_hour in the question).", "目录中没有可租用的同型号 GPU：可在问题中填写报价（rent_usd_per_gpu_hour）进行对比。"},
    {S::tco_col_mode, "Renting", "租用方式"},
    {S::tco_col_offering, "Cheapest offering", "最便宜的产品"},
    {S::tco_col_per_hour, "/GPU-h", "每卡时"},
    {S::tco_col_month, "A month", "每月"},
    {S::tco_col_be_u, "Own pays above", "自购划算于"},
    {S::tco_col_be_m, "Break-even", "回本时间"},
    {S::tco_your_quote, "your quote", "您的报价"},
    {S::tco_never, "never", "不会回本"},
    {S::tco_months_fmt, "%.1f months", "%.1f 个月"},
    {S::tco_committed_note, "* Reserved capacity is paid for every hour of the same GPU count, used or not, so it has no break-even utilisation.", "* 预留实例按同样卡数的每个小时计费，无论是否使用，所以没有回本利用率。"},
    {S::tco_cheapest_note, "Each row is the catalog's cheapest offering of those GPUs in that billing mode, whatever the provider, so the rows may come from different providers.", "每行是目录中这种 GPU 在该计费方式下最便宜的产品，不限云厂商，所以各行可能来自不同云厂商。"},
    {S::tco_chart_title, "Cumulative cost by month (circles: where owning breaks even)", "按月累计成本（圆圈：自购回本点）"},
    {S::tco_axis_months, "months", "月"},
    {S::tco_own_line, "Own", "自购"},
    {S::tco_chart_note, "Owning pays the capex at the order and rents on demand until delivery; depreciation is not cash, and the resale value is not counted in the line.", "自购在下单时支付购置费，交付前按需租用；折旧不是现金支出，曲线不计残值。"},
    {S::tco_assumptions, "Defaults taken from the catalog, with their sources", "取自目录的默认值及来源"},
    {S::tco_left_out_fmt, "%s: the catalog has no sourced default, so this cost is left out; give it to count it.", "%s：目录中没有带出处的默认值，此项成本未计入；填写后即可计入。"},
    {S::tco_us_figure_fmt, "%s: the catalog has no sourced Chinese figure, so the US one is used, converted.", "%s：目录中没有带出处的国内数据，使用换算后的美国数据。"},
    {S::budget_optimal_fmt, "This run's budget (%s GPU-hours, %s; 6ND = %s FLOPs) would train a compute-optimal model of %s parameters on %s tokens (the refit law).", "本次训练的预算（%s 卡时，%s；6ND = %s FLOPs）按重新拟合的规律可训练的算力最优模型为 %s 参数、%s 词元。"},
    {S::tco_use_scenario, "Use this scenario's GPU-hours", "使用当前场景的卡时"},
    {S::tco_use_scenario_fmt, "The scenario on the left takes %s GPU-hours on %s: spread over the horizon, %s a month.", "左侧场景需要 %s 卡时（%s）：摊到测算周期内，每月 %s。"},
    {S::tco_workload_fmt, "Workload: %s GPU-hours a month (utilisation %.0f %%).", "工作量：每月 %s 卡时（利用率 %.0f %%）。"},
    {S::tco_from_workload, "set by the workload", "由工作量决定"},
    {S::rej_provider_kind, "provider kind", "云厂商类型"},
    {S::rej_lead_time, "lead time", "开通周期"},
    {S::rej_no_rdma, "no multi-node RDMA", "无多机 RDMA"},
    {S::provider_kinds, "Provider kinds", "平台类型"},
    {S::kind_hyperscaler, "public cloud", "公有云"},
    {S::kind_gpu_cloud, "GPU cloud", "GPU 云"},
    {S::kind_marketplace, "marketplace", "算力市场"},
    {S::kind_compute_centre, "compute centre", "智算中心"},
    {S::limit_start, "Must start soon", "限定开工时间"},
    {S::start_within_days, "Start within (days)", "几天内开工"},
    {S::debug_hours, "Debugging hours (on demand)", "调试时长（按需，小时）"},
    {S::ways_to_pay, "Ways to pay: on demand, spot, or debug on demand then run on spot", "付费方式：按需、竞价，或先按需调试再用竞价跑"},
    {S::col_way, "Way to pay", "付费方式"},
    {S::pay_on_demand, "all on demand", "全部按需"},
    {S::pay_spot, "all spot, restarting automatically", "全部竞价，自动重启"},
    {S::pay_two_phase, "debug on demand on one machine, then the run on spot", "先在一台机器上按需调试，再用竞价跑"},
    {S::pay_note_fmt, "Each way includes %s of set-up and debugging (the field \"Debugging hours\"), on the whole cluster except in two phases, which debug on the smallest unit rented, %d GPU(s). Spot ranges: %s to %s of spot capacity reclaimed a month (AWS Spot Instance Advisor bands), each reclaim costing half a checkpoint interval of lost work and the restart time.", "每种方式都包含 %s 的部署与调试（规划器的“调试时长”）：除两阶段方式外都在整个集群上进行，两阶段方式在最小租用单位（%d 张 GPU）上调试。竞价区间：每月回收 %s 到 %s 的竞价容量（AWS Spot Instance Advisor 档位），每次回收损失半个检查点间隔的进度并加上重启时间。"},
    {S::cat_providers, "Providers", "云平台"},
    {S::prov_col_kind, "Kind", "类型"},
    {S::prov_col_gpus, "GPUs listed", "在售 GPU"},
    {S::prov_col_rdma, "Multi-node RDMA", "多机 RDMA"},
    {S::prov_col_storage, "Parallel file system", "并行文件系统"},
    {S::prov_col_platform, "Images and platform", "镜像与平台"},
    {S::prov_col_billing, "Billing", "计费"},
    {S::prov_col_lead, "Lead time", "开通周期"},
    {S::plan_with, "Plan with", "用它规划"},
    {S::pay_no_spot_fmt, "%s publishes no spot price: no spot or two-phase option.", "%s 没有公布竞价价格：没有竞价或两阶段方案。"},
    {S::pay_no_on_demand_fmt, "%s publishes no on-demand price: no on-demand or two-phase option.", "%s 没有公布按需价格：没有按需或两阶段方案。"},
    {S::import_config, "Import config…", "导入配置…"},
    {S::import_unknown, "not recognised, not imported", "无法识别，未导入"},
    {S::import_done_fmt, "Imported a %s config into the scenario.", "已把 %s 配置导入场景。"},
    {S::import_not_fmt, "%d keys not imported (why)", "%d 个键未导入（原因）"},
    {S::ln_link_too_long, "longer than {max} characters; the rest is ignored", "链接超过 {max} 个字符，超出部分已忽略"},
    {S::ln_newer_format, "made by a newer llmplan (link format {version}); fields this version does not know are ignored", "由更新版本的 llmplan 生成（链接格式 {version}），本版本不认识的字段已忽略"},
    {S::ln_bad_format_version, "\"{value}\" is not a link format version; read as version 1", "\"{value}\"不是链接格式版本，按版本 1 读取"},
    {S::ln_missing_format_version, "missing; read as link format 1", "缺少链接格式版本，按版本 1 读取"},
    {S::ln_bad_catalog_version, "\"{value}\" is not a catalog version; ignored", "\"{value}\"不是目录版本，已忽略"},
    {S::ln_catalog_unavailable, "made with catalog {made_with}, which this build does not have: opened with {used}, so prices and hardware figures may differ", "链接由目录 {made_with} 生成，本版本没有该目录：已用 {used} 打开，价格和硬件数据可能不同"},
    {S::ln_newer_model, "made with a newer estimator (model {model}); figures may differ", "由更新的估算模型生成（模型 {model}），结果可能不同"},
    {S::ln_bad_model_version, "\"{value}\" is not an estimator model version; read as model 1", "\"{value}\"不是估算模型版本，按模型 1 读取"},
    {S::ln_bad_view_state, "the view state is not plain text; ignored", "视图状态不是纯文本，已忽略"},
    {S::ln_unknown_code, "unknown field code \"{code}\"; ignored", "未知字段代码\"{code}\"，已忽略"},
    {S::ln_duplicate, "given twice; the first value is kept", "重复出现，保留第一个值"},
    {S::ln_invalid_default, "{reason}; the default is used", "{reason}；已使用默认值"},
    {S::ln_invalid_dropped, "{reason} ({dropped} dropped); the default is used", "{reason}（已删除 {dropped}）；已使用默认值"},
    {S::ln_invalid_model, "{reason}; the model {model} is used", "{reason}；已改用模型 {model}"},
    {S::ln_invalid, "{reason}", "{reason}"},
    {S::ln_missing_model, "missing; the model {model} is used", "缺少模型，已使用 {model}"},
    {S::ln_question_scenario_only, "a planner question: its scenario is shown; the planner itself runs in the command llmplan plan", "这是规划器问题：此处显示它的场景，规划器本身用命令 llmplan plan 运行"},
    {S::ln_catalog_damaged, "the catalog release of this link is damaged: {reason}", "该链接的目录版本已损坏：{reason}"},
    {S::ln_catalog_release_missing, "catalog release {version} could not be loaded (offline and not cached?): the numbers use catalog {used} instead", "无法加载目录版本 {version}（离线且未缓存？）：数字改用目录 {used}"},
    {S::page_form_title, "Main inputs", "主要输入"},
    {S::edit_scenario, "Edit the scenario", "编辑场景"},
    {S::ep_dispatcher, "EP token dispatch", "专家并行的 token 分发"},
    {S::t_ep_dispatcher, "How tokens reach their experts: all-to-all sends one copy per routed expert (Megatron-Core's alltoall dispatcher, torchtitan); DeepEP sends one copy per destination node over the network and one per destination GPU over NVLink, then permutes the received rows into expert order; HybridEP sends the same copies and its kernels place the rows in expert order themselves (Megatron-Core --moe-token-dispatcher-type flex with --moe-flex-dispatcher-backend deepep or hybridep).", "token 如何到达专家：all-to-all 为每个被选中的专家各发一份（Megatron-Core 的 alltoall 分发器、torchtitan）；DeepEP 为每个目标节点经网络只发一份，并为每个目标 GPU 经 NVLink 只发一份，再把收到的行按专家顺序重排；HybridEP 发送同样的副本，由其通信内核直接按专家顺序放置（Megatron-Core --moe-token-dispatcher-type flex，--moe-flex-dispatcher-backend deepep 或 hybridep）。"},
    {S::ep_dispatcher_alltoall, "all-to-all (per expert)", "all-to-all（每个专家一份）"},
    {S::ep_dispatcher_deepep, "DeepEP (per node & GPU)", "DeepEP（每节点、每卡一份）"},
    {S::ep_dispatcher_hybridep, "HybridEP (fused permute)", "HybridEP（重排融合）"},
    {S::moe_routing, "MoE routing", "MoE 路由"},
    {S::t_moe_routing, "How the router spreads tokens over the experts. Learned: a trained router, whose busiest expert-parallel rank gets kMoeCapacityFactor times the mean. Fake balanced: a benchmark's fake balanced gate (NeMo AutoModel fake_balanced_gate), which gives every expert the same tokens and sends a token to k consecutive experts, on as few GPUs as hold them. Random: a benchmark's random router logits (Megatron-Core --moe-router-force-load-balancing), which send a token to a uniform random set of experts, so the busiest rank exceeds the mean by chance only. Benchmark settings: the Megatron-LM command carries random as --moe-router-force-load-balancing; no launch file has the fake gate.", "路由器如何把 token 分给各专家。learned：训练出的路由器，最忙的专家并行 rank 承担平均值的 kMoeCapacityFactor 倍。fake balanced：基准测试用的假均衡门控（NeMo AutoModel 的 fake_balanced_gate），每个专家分到同样多的 token，每个 token 发往 k 个相邻专家，落在持有它们的尽可能少的几张卡上。random：基准测试用的随机路由 logits（Megatron-Core 的 --moe-router-force-load-balancing），每个 token 发往均匀随机的一组专家，最忙的 rank 只因随机波动略高于平均值。这些只是基准测试设置：Megatron-LM 命令会把 random 写成 --moe-router-force-load-balancing；没有哪种启动文件支持假门控。"},
    {S::moe_capacity_factor, "MoE capacity factor", "MoE 容量因子"},
    {S::t_moe_capacity_factor, "Token dropping with padding: every expert takes this many times its mean share of the tokens, the overflow dropped and the rest padded to that capacity (Megatron-Core --moe-expert-capacity-factor with --moe-pad-expert-input-to-capacity). Every expert-parallel rank then computes and exchanges that multiple of the mean whatever the router does, and the dispatcher needs no token counts from the GPU. 0 is dropless routing, where MoE routing sets the busiest rank's load; otherwise from 1 up to experts / top_k, where an expert would take every token of its rank. Megatron-LM only.", "带填充的丢弃词元：每个专家接收其平均词元份额的这么多倍，超出的丢弃，不足的填充到该容量（Megatron-Core --moe-expert-capacity-factor 配合 --moe-pad-expert-input-to-capacity）。于是无论路由器如何分配，每个专家并行 rank 都计算并交换均值的这一倍数，分发器也无需从 GPU 取回词元计数。0 表示不丢弃词元（dropless），此时由 MoE 路由决定最忙 rank 的负载；否则取 1 到 专家数 / top_k，到该值时一个专家接收其 rank 的全部词元。仅限 Megatron-LM。"},
    {S::moe_routing_learned, "learned router", "训练出的路由器"},
    {S::moe_routing_fake_balanced, "fake balanced (benchmark)", "假均衡（基准测试）"},
    {S::moe_routing_random, "random logits (benchmark)", "随机 logits（基准测试）"},
    {S::place_data_local_fmt, "Stage the %s data set from object storage (s5cmd, parallel) to each node's local NVMe%s and read it there: the GPUs read %s in all; a cloud block disk gives 100-200 MB/s and random reads stall it.", "把 %s 的数据集从对象存储（s5cmd 并行）拷到每个节点的本地 NVMe%s，并在本地读取：所有 GPU 合计读取 %s；云块存储只有 100-200 MB/s，随机读会让它卡住。"},
    {S::place_data_staging_fmt, " (%s before the first step)", "（第一步之前需 %s）"},
    {S::place_data_fs_fmt, "The %s data set %s: put it on a parallel file system (%s), preloaded from object storage before training; the job reads %s.", "%s 的数据集%s：请放在并行文件系统（%s）上，训练前从对象存储预加载；作业读取 %s。"},
    {S::place_data_too_big, "does not fit on the nodes' local NVMe", "放不进节点的本地 NVMe"},
    {S::place_data_unknown_nvme, "may not fit on the nodes' local NVMe, whose size the offering does not publish (check it: lsblk)", "可能放不进节点的本地 NVMe（该实例未公布其容量，请用 lsblk 查看）"},
    {S::place_fs_examples, "Lustre, GPFS, CPFS", "Lustre、GPFS、CPFS"},
    {S::place_ckpt_local_fmt, "Write checkpoints (%s each, every %s, %s to write) to local NVMe, keep the last %s, and copy each to object storage: a released or failed instance loses its local disk.", "检查点（每个 %s，每 %s 一次，写入需 %s）写到本地 NVMe，保留最近 %s 个，并把每个复制到对象存储：实例释放或故障时本地盘会丢失。"},
    {S::place_ckpt_fs_fmt, "Write checkpoints (%s each, every %s, %s to write) to a shared parallel file system%s: after a failure every node must restart from the same checkpoint, so never only to local disks; archive to object storage.", "检查点（每个 %s，每 %s 一次，写入需 %s）写到共享并行文件系统%s：故障后所有节点必须从同一个检查点重启，所以绝不能只写本地盘；另归档到对象存储。"},
    {S::place_ckpt_fs_slower_fmt, " The figures write to %s; on %s as the catalog sizes it a checkpoint takes %s (every %s)", "以上数字按写入 %s 计算；若写到按目录默认规格配置的 %s，每个检查点需写 %s（每 %s 一次）"},
    {S::place_ckpt_fs_run_fmt, " and the run %s instead of %s", "，整个训练需 %s，而不是 %s"},
    {S::place_ckpt_fs_end, ": size it for throughput, or write locally and copy out in the background.", "：请按吞吐量配置文件系统，或先写本地盘再在后台拷出。"},
    {S::rdma_one_node_fmt, "One node: tensor, pipeline and data-parallel traffic stays on the node's %s GB/s per GPU link; no RDMA network is needed.", "单节点：张量、流水线和数据并行的流量都在节点内每卡 %s GB/s 的链路上；不需要 RDMA 网络。"},
    {S::rdma_needed_fmt, "RDMA is needed: each GPU sends %s across nodes per step; over 25 Gb/s kernel TCP a step would take %s instead of %s (%sx slower).", "需要 RDMA：每卡每步跨节点发送 %s；若走 25 Gb/s 内核 TCP，一步要 %s 而不是 %s（慢 %s 倍）。"},
    {S::rdma_no_fabric, " This offering has no RDMA fabric: prefer one that does.", "该实例没有 RDMA 网络：请优先选择有 RDMA 的实例。"},
    {S::rdma_optional_fmt, "RDMA is optional: each GPU sends %s across nodes per step, which 25 Gb/s TCP would carry in %s per step instead of %s (%sx).", "RDMA 可选：每卡每步跨节点发送 %s，25 Gb/s TCP 每步需 %s 而不是 %s（%s 倍）。"},
    {S::label_sep, ": ", "："},
    {S::no_tokens_hint, "No training tokens: set Training tokens (or Dataset tokens and Epochs) for the run's length and cost.", "未设训练词元数：填写训练词元数（或数据集词元数与轮数）即可得到训练时长与费用。"},
    {S::price_per_gpu_hour, "Price per GPU-hour", "每卡时价格"},
    {S::price_src_user, "your price (Price override)", "你填写的价格（价格覆盖）"},
    {S::price_src_instance_fmt, "catalog offering %s, %s price (%s, as of %s)", "目录实例 %s 的%s价格（%s，数据截至 %s）"},
    {S::price_src_median_fmt, "median %s price per GPU over %s catalog offerings with the %s", "目录中每卡%s价格的中位数（%s 个含 %s 的实例）"},
    {S::price_src_none, "the catalog has no price for this accelerator: give one in Price override", "目录中没有该加速卡的价格：请在价格覆盖中填写"},
    {S::w_mfu_above_one, "MFU is %s: the Megatron convention counts attention without causal masking, twice what a causal kernel runs, so at long sequences it can pass 1. The GPU runs %s of its peak (time.executed_fraction).", "MFU 为 %s：Megatron 口径按不含因果掩码的注意力计算 FLOPs，是因果注意力内核实际执行量的两倍，所以长序列下可超过 1。GPU 实际运行在峰值的 %s（time.executed_fraction）。"},
    {S::w_failures_dominate, "Interruptions (one every %s across the job) and their restarts add %sx the training time: the job spends more time recovering than training, and this first-order estimate understates it. Use fewer GPUs, faster restarts (pricing.restart_h) or checkpoint more often.", "中断（整个任务每 %s 一次）及其重启使时间增加训练时间的 %s 倍：任务花在恢复上的时间多于训练，这个一阶估计还偏低。应减少 GPU 数、加快重启（pricing.restart_h）或更频繁地保存检查点。"},
    {S::w_slow_attention_kernel, "Attention takes %s a step with the kernel this scenario names; %s, which the catalog rates at more than twice its rate on this GPU at this sequence length and head dimension, would take about %s. Choose it under Attention kernel if the framework runs it.", "使用所选注意力内核时，注意力每步耗时 %s；目录中 %s 在本 GPU 上、这一序列长度和头维度下的速率是它的两倍以上，约需 %s。若训练框架支持，可在“注意力内核”中改选它。"},
    {S::w_known_slow_path, "Published runs on %s ran at %sx to %sx the throughput estimated for them (%s runs), for a cost the model does not count yet. The time and cost shown are not adjusted: at the runs' median a step takes %sx as long; budget for it.", "在 %s 上公开发表的训练运行，吞吐量只有估计值的 %s 至 %s 倍（共 %s 次运行），模型尚未计入这部分开销。所示时间和费用未作调整：按这些运行的中位数，每步耗时约为估计的 %s 倍，请据此留足预算。"},
    {S::w_reserved_term, "A reservation bills every hour of its %s term, used or not; this run uses %s of it. The cost counts only those hours, a share of a reservation kept busy with other work; reserved for this run alone, the whole term is billed (compare pricing.mode on_demand or spot).", "预留实例按整个 %s 期限计费，不论是否使用；本次训练只用其中 %s。费用只计这些小时，即预留实例在其他工作也占满时分摊到本次的部分；若只为本次训练预留，则整个期限都要付费（可与按需或竞价计费对比）。"},
    {S::slow_path_dropless_moe_small_batch, "Megatron's dropless all-to-all MoE dispatch at small micro-batches, which waits on the host once per MoE layer,", "Megatron 的无丢弃 all-to-all MoE 分发（微批次较小，每个 MoE 层都要等待一次主机同步）"},
    {S::slow_path_pytorch_ring_attention, "PyTorch's context parallelism (torchtitan's ring attention)", "PyTorch 的上下文并行（torchtitan 的环形注意力）"},
    {S::slow_path_pytorch_expert_parallel, "PyTorch-native expert parallelism (FSDP2 stacks such as NeMo AutoModel and torchtitan)", "PyTorch 原生的专家并行（NeMo AutoModel、torchtitan 等基于 FSDP2 的框架）"},
    {S::rule_qlora_vendor, "QLoRA's NF4 kernels (bitsandbytes) run on NVIDIA and AMD GPUs only", "QLoRA 的 NF4 内核（bitsandbytes）只能在 NVIDIA 和 AMD GPU 上运行"},
    {S::rule_peft, "PEFT and freeze-tuning run in Hugging Face PEFT / Trainer, which has no tensor or pipeline parallelism", "PEFT 与冻结微调在 Hugging Face PEFT / Trainer 中运行，它没有张量并行和流水线并行"},
    {S::rule_kv_heads, "Megatron-LM splits the KV heads over TP: TP must divide them", "Megatron-LM 按 TP 切分 KV 头：TP 必须整除 KV 头数"},
    {S::rule_offload, "Megatron-LM has no CPU offload of optimizer states", "Megatron-LM 不支持把优化器状态卸载到 CPU"},
    {S::rule_per_op_checkpointing, "Megatron-LM has no per-operator checkpointing (torchtitan's selective_ac_option \"op\")", "Megatron-LM 没有按算子的激活检查点（torchtitan 的 selective_ac_option \"op\"）"},
    {S::rule_zero_stage, "Megatron-LM shards with ZeRO-1 (distributed optimizer) or ZeRO-3 without PP (torch FSDP2) only", "Megatron-LM 只支持 ZeRO-1（分布式优化器）或不带 PP 的 ZeRO-3（torch FSDP2）切分"},
    {S::rule_fsdp_with_ep, "Megatron-LM runs torch FSDP2 (ZeRO-3) without expert parallelism only", "Megatron-LM 只在没有专家并行时运行 torch FSDP2（ZeRO-3）"},
    {S::rule_activation_offload_pp, "Megatron-LM offloads activations (--cpu-offloading) without pipeline parallelism only", "Megatron-LM 只在没有流水线并行时卸载激活（--cpu-offloading）"},
    {S::rule_activation_offload_recompute, "Megatron-LM offloads activations (--cpu-offloading) without activation recompute only", "Megatron-LM 只在不重算激活时卸载激活（--cpu-offloading）"},
    // The remedies of memory_exceeds, in the core's words (memory_remedy_words) and in Chinese.
    {S::remedy_raise_zero, "raise the ZeRO stage (3 shards the weights too)", "提高 ZeRO 阶段（ZeRO-3 还会切分权重）"},
    {S::remedy_model_parallel, "raise tensor or pipeline parallelism", "提高张量或流水线并行"},
    {S::remedy_recompute, "recompute activations", "开启激活重计算"},
    {S::remedy_lower_micro_batch, "lower the micro-batch", "减小微批"},
    {S::remedy_chunked_loss, "use a fused or chunked cross-entropy (techniques.fused_loss, loss_chunks)", "使用融合或分块的交叉熵（techniques.fused_loss、loss_chunks）"},
    {S::remedy_adapters, "train LoRA/QLoRA adapters instead of every weight", "改用 LoRA/QLoRA 只训练适配器"},
    {S::remedy_qlora, "load the frozen weights in 4 bits (QLoRA)", "以 4 比特加载冻结权重（QLoRA）"},
    {S::remedy_eight_bit_optimizer, "use an 8-bit optimizer", "使用 8-bit 优化器"},
    {S::remedy_offload_optimizer, "offload the optimizer to CPU", "把优化器卸载到 CPU"},
    {S::remedy_bigger_gpu, "take a GPU with more memory", "换显存更大的显卡"},
    {S::list_sep, ", ", "、"},
    {S::list_or, ", or ", "，或"},
    // [estimate strings: add above this line]
};
// clang-format on
static_assert(sizeof(kStrings) / sizeof(kStrings[0]) == static_cast<size_t>(S::count), "one entry per S");

constexpr bool table_in_order() {
  for (size_t i = 0; i < static_cast<size_t>(S::count); ++i)
    if (static_cast<size_t>(kStrings[i].id) != i) return false;
  return true;
}
static_assert(table_in_order(), "kStrings must follow the order of enum S");

Lang g_lang = Lang::en;

}  // namespace

bool string_named(std::string_view name, S& out) {
  static constexpr const char* kNames[] = {
#define LLMPLAN_S_NAME(n) #n,
      LLMPLAN_UI_STRINGS(LLMPLAN_S_NAME)
#undef LLMPLAN_S_NAME
  };
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i]) {
      out = static_cast<S>(i);
      return true;
    }
  return false;
}

const char* table_string(const char* name, const char* fallback) {
  S id{};
  return *name && string_named(name, id) ? tr(id) : fallback;
}

const char* unit_text(const char* unit) {
  std::string key = "u_";
  for (const char* c = unit; *c; ++c) {
    const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
    if (std::isalnum(static_cast<unsigned char>(ch)))
      key += ch;
    else if (key.back() != '_')
      key += '_';
  }
  return table_string(key.c_str(), unit);
}

namespace {

// The UI word for `name` of a core name list, the words given in the list's order (the array
// sizes must agree); a name the list lacks (a newer catalog's) is shown as it is.
template <size_t N>
const char* translated_name(const char* name, const char* const (&names)[N], const S (&words)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (std::strcmp(name, names[i]) == 0) return tr(words[i]);
  return name;
}

}  // namespace

std::string plan_why_text(const PlanWhy& w, const std::string& layout) {
  const WhyWords words = {
      {tr(S::why_cheapest), tr(S::why_fastest), tr(S::why_same_cost_larger), tr(S::why_fewer_gpus),
       tr(S::why_less_peak), tr(S::why_same_gpu_dearer), tr(S::why_dearer_gpu_hour), tr(S::why_billing_block),
       tr(S::why_exposed_comm), tr(S::why_bubble), tr(S::why_lower_mfu)},
      tr(S::why_slower_more),
      tr(S::why_slower_less),
      tr(S::why_faster_more),
      tr(S::why_faster_less),
      tr(S::why_layout_sep),
      {"", tr(S::why_note_no_shorter), tr(S::why_note_one_shorter), tr(S::why_note_two_shorter)},
  };
  return why_text(w, words, g_lang == Lang::en ? w.layout : layout);  // English: the core's layout words
}

const char* recompute_name(Recompute r) {
  static constexpr S kWords[] = {S::rc_none, S::rc_selective, S::rc_full, S::rc_selective_op};
  return translated_name(to_string(r), kRecomputeNames, kWords);
}

std::string recompute_label(const Layout& l) {
  if (l.recompute_layers <= 0) return recompute_name(l.recompute);
  char buf[96];
  std::snprintf(buf, sizeof buf, tr(S::rc_partial), recompute_name(l.recompute), l.recompute_layers);
  return buf;
}

const char* provider_kind_name(const std::string& kind) {
  static constexpr S kWords[] = {S::kind_hyperscaler, S::kind_gpu_cloud, S::kind_marketplace, S::kind_compute_centre};
  return translated_name(kind.c_str(), kProviderKinds, kWords);
}

namespace {
std::string formatted(S format, std::initializer_list<const char*> args) {
  // The formats take only %s; fill them in order (snprintf with a runtime format and a fixed
  // argument count would need one overload per count).
  std::string out;
  const std::string f = tr(format);
  auto arg = args.begin();
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '%' && i + 1 < f.size() && f[i + 1] == 's' && arg != args.end()) {
      out += *arg++;
      ++i;
    } else {
      out += f[i];
    }
  }
  return out;
}
}  // namespace

std::string data_placement_text(const DataPlacement& d) {
  const std::string need = format_number("%.3g MB/s", d.read_bytes_per_s / 1e6);
  const std::string size = format_bytes(d.dataset_bytes);
  if (d.local_nvme) {
    const std::string staging =
        d.staging_h > 0 ? formatted(S::place_data_staging_fmt, {format_duration(d.staging_h * 3600).c_str()}) : "";
    return formatted(S::place_data_local_fmt, {size.c_str(), staging.c_str(), need.c_str()});
  }
  return formatted(S::place_data_fs_fmt,
                   {size.c_str(), tr(d.nvme_size_known ? S::place_data_too_big : S::place_data_unknown_nvme),
                    d.parallel_fs.empty() ? tr(S::place_fs_examples) : d.parallel_fs.c_str(), need.c_str()});
}

std::string checkpoint_placement_text(const CheckpointPlacement& c) {
  const std::string size = format_bytes(c.bytes), every = format_duration(c.interval_h * 3600),
                    write = format_duration(c.write_s), kept = std::to_string(c.kept);
  if (c.local_nvme)
    return formatted(S::place_ckpt_local_fmt, {size.c_str(), every.c_str(), write.c_str(), kept.c_str()});
  const std::string fs = c.parallel_fs.empty() ? "" : " (" + c.parallel_fs + ")";
  std::string out = formatted(S::place_ckpt_fs_fmt, {size.c_str(), every.c_str(), write.c_str(), fs.c_str()});
  if (c.fs_write_s <= 0) return out;
  out += formatted(S::place_ckpt_fs_slower_fmt,
                   {c.tier.c_str(), c.parallel_fs.c_str(), format_duration(c.fs_write_s).c_str(),
                    format_duration(c.fs_interval_h * 3600).c_str()});
  if (c.total_hours > 0)
    out += formatted(S::place_ckpt_fs_run_fmt,
                     {format_duration(c.fs_total_hours * 3600).c_str(), format_duration(c.total_hours * 3600).c_str()});
  return out + tr(S::place_ckpt_fs_end);
}

std::string rdma_reason_text(const RdmaAdvice& a, int nodes, double intra_node_gb_per_s, bool has_rdma) {
  if (nodes <= 1) return formatted(S::rdma_one_node_fmt, {format_number("%.0f", intra_node_gb_per_s).c_str()});
  const std::string sent = format_bytes(a.inter_node_bytes), tcp = format_duration(a.tcp_step_s),
                    step = format_duration(a.step_s);
  const double slower = a.step_s > 0 ? a.tcp_step_s / a.step_s : 1.0;
  if (a.needed)
    return formatted(S::rdma_needed_fmt,
                     {sent.c_str(), tcp.c_str(), step.c_str(), format_number("%.1f", slower).c_str()}) +
           (has_rdma ? "" : tr(S::rdma_no_fabric));
  return formatted(S::rdma_optional_fmt,
                   {sent.c_str(), tcp.c_str(), step.c_str(), format_number("%.2f", slower).c_str()});
}

namespace {

// The checklist in Chinese, by the keys of kCheckWordings (core/src/advice.cpp) with the same
// {name} values; a null command is a shell command that stays as it is.
struct CheckWordingZh {
  const char* key;
  const char* title;
  const char* command;
  const char* expect;
};

constexpr const char* kTinyRunCommandZh = "以微批 {micro_batch} 跑 10 步，并打印 {torch}.max_memory_reserved()";
constexpr const char* kTinyRunExpectZh =
    "每卡峰值显存约 {peak}，每卡可用 {capacity}；{smi} 显示的约多 0.5-1 GiB（{runtime} 上下文）";
constexpr const char* kTinyRunShardedExpectZh =
    "每卡峰值显存约 {peak}，每卡可用 {capacity}（副本更少时切分不足，装不下）；{smi} 显示的约多 0.5-1 GiB（{runtime} "
    "上下文）";

constexpr CheckWordingZh kCheckWordingsZh[] = {
    {"tiny_run_one", "在一张 GPU 上跑几步", kTinyRunCommandZh, kTinyRunExpectZh},
    {"tiny_run_replica", "在 {gpus} 张 GPU 上跑几步（一个副本：{replica}）", kTinyRunCommandZh, kTinyRunExpectZh},
    {"tiny_run_sharded", "在 {gpus} 张 GPU 上跑几步（{replica} 的 {ranks} 个数据并行副本：ZeRO-{zero} 在它们之间切分）",
     kTinyRunCommandZh, kTinyRunShardedExpectZh},
    {"topology_amd", "GPU 拓扑", nullptr, "{gpus} 张 GPU 两两之间为 XGMI"},
    {"topology_huawei", "NPU 拓扑", nullptr, "{gpus} 张 NPU 两两之间为 HCCS"},
    {"topology_nvlink", "GPU 拓扑", nullptr,
     "{gpus} 张 GPU 两两之间为 NV{links}（每卡每方向 {gbps} GB/s）；若显示 PIX/PXB/SYS，说明 NVLink 或 NVSwitch "
     "互联未工作"},
    {"topology_pcie", "GPU 拓扑", nullptr,
     "GPU 之间为 PIX、PXB、NODE 或 SYS：只有 PCIe，没有 NVLink（{gpus} 张 GPU）；同一 PCIe 交换机下的 "
     "GPU（PIX）通信最快"},
    {"nccl_intra", "节点内 {ccl} all-reduce", "all_reduce_perf -b 1G -e 4G -f 2 -g {gpus}   # {ccl_tests}，单进程",
     "4 GB 时 busbw 约 {busbw} GB/s；低于 {pass} GB/s（80 %）说明节点内的估算偏乐观"},
    {"nccl_inter", "跨节点 {ccl} all-reduce", nullptr,
     "4 GB 时 busbw 约 {busbw} GB/s（每个节点的全部网卡，{gbits} Gb/s，受纵向扩展链路限制）；低于 {pass} GB/s（80 %）"
     "时数据并行同步比计划的慢"},
    {"hccl_intra", "节点内 HCCL all-reduce",
     "mpirun -n {gpus} ./bin/all_reduce_test -p {gpus} -b 1G -e 4G -f 2   # HCCL Test（CANN）",
     "4 GB 时 alg_bandwidth 约 {algbw} GB/s（{gpus} 张 NPU 上 busbw {busbw} GB/s）；低于 {pass} GB/s（80 "
     "%）说明节点内的估算偏乐观"},
    {"hccl_inter", "跨节点 HCCL all-reduce", nullptr,
     "4 GB 时 alg_bandwidth 约 {algbw} GB/s（{ranks} 张 NPU 上 busbw {busbw} GB/s：每个节点的全部网卡，{gbits} "
     "Gb/s，受纵向扩展链路限制）；"
     "低于 {pass} GB/s（80 %）时数据并行同步比计划的慢"},
    {"ib_write_bw", "两节点间每块网卡的 RDMA 带宽",
     "ib_write_bw -d mlx5_0 --report_gbits   # 在节点 A 上；然后：ib_write_bw -d mlx5_0 --report_gbits NODE_A",
     "每对网卡约 {line} Gb/s（线速）；低于 {pass} Gb/s（80 %）时检查 RoCE 的 PFC/ECN、MTU，以及共用一个 PCIe "
     "交换机的网卡"},
    {"efa_devices", "每个节点的 EFA 网卡", nullptr,
     "{adapters} 块网卡（每节点 {gbits} Gb/s，每块 {port} Gb/s）；少于此数说明 NCCL 只用到部分网络"},
    {"iperf3", "节点间带宽", "iperf3 -s   # 在节点 A 上；然后：iperf3 -c NODE_A -P 8 -t 30",
     "每节点约 {line} Gb/s；低于 {pass} Gb/s（80 %）说明网络比计划的慢"},
    {"fio_data_read", "数据存储读取（{tier}）", nullptr,
     "每节点约 {read} MB/s；训练每节点读取 {need} MB/s，所以低于 {pass} MB/s（80 %）说明存储比计划的慢"},
    {"fio_checkpoint_write", "检查点存储写入（{tier}）", nullptr,
     "每节点约 {write} MB/s；低于 {pass} MB/s（80 %）时检查点耗时比计划的长"},
    {"checkpoint_roundtrip", "保存并重新加载一个检查点", "在第 10 步保存检查点，从它重启，比较第 11 步的损失",
     "写入 {size} 约需 {time}；恢复后的损失与未中断时一致"},
    {"first_steps", "最初几分钟的吞吐", "在整个集群上训练 50 步；从日志读 tokens/s，用 {util} 看 GPU 利用率",
     "每卡约 {per_gpu} tokens/s（共 {all}），每步 {step} s，MFU {mfu} %；低于 80 % 时用 PyTorch profiler "
     "分析数据加载和通信"},
};

const CheckWordingZh* check_wording_zh(const std::string& key) {
  for (const CheckWordingZh& w : kCheckWordingsZh)
    if (key == w.key) return &w;
  return nullptr;
}

// The core's text in English (or for a key this build has no wording of); else the template.
std::string check_text(const Check& c, const std::string& english, const char* CheckWordingZh::*field) {
  const CheckWordingZh* w = g_lang == Lang::en ? nullptr : check_wording_zh(c.wording);
  if (!w || !(w->*field)) return english;
  return fill_template(w->*field, c.args);
}

}  // namespace

std::string check_title_text(const Check& c) { return check_text(c, c.title, &CheckWordingZh::title); }
std::string check_command_text(const Check& c) { return check_text(c, c.command, &CheckWordingZh::command); }
std::string check_expect_text(const Check& c) { return check_text(c, c.expect, &CheckWordingZh::expect); }
bool has_check_wording(const char* key) { return check_wording_zh(key) != nullptr; }

const char* pricing_mode_name(const std::string& mode) {
  static constexpr S kWords[] = {S::price_mode_on_demand, S::price_mode_spot, S::price_mode_reserved_1yr,
                                 S::price_mode_reserved_3yr};
  return translated_name(mode.c_str(), kPricingModeNames, kWords);
}

std::string memory_remedy_list(unsigned remedies) {
  static constexpr S kWords[] = {
      S::remedy_raise_zero,        S::remedy_model_parallel, S::remedy_recompute, S::remedy_lower_micro_batch,
      S::remedy_chunked_loss,      S::remedy_adapters,       S::remedy_qlora,     S::remedy_eight_bit_optimizer,
      S::remedy_offload_optimizer, S::remedy_bigger_gpu};
  static_assert(std::size(kWords) == static_cast<size_t>(MemoryRemedy::count));
  std::vector<std::string> parts;
  for (const MemoryRemedy m : remedies_in(remedies)) parts.emplace_back(tr(kWords[static_cast<int>(m)]));
  return join_list(parts, tr(S::list_sep), tr(S::list_or));
}

const char* layout_rule_text(const char* rule) {
  static constexpr S kWords[] = {S::rule_peft,
                                 S::rule_kv_heads,
                                 S::rule_offload,
                                 S::rule_per_op_checkpointing,
                                 S::rule_zero_stage,
                                 S::rule_fsdp_with_ep,
                                 S::rule_activation_offload_pp,
                                 S::rule_activation_offload_recompute};
  if (std::strcmp(rule, kQloraVendorRule) == 0) return tr(S::rule_qlora_vendor);
  return translated_name(rule, kMegatronRefusals, kWords);
}

namespace {

struct NoticeWording {
  const char* code;
  S text;
};

constexpr NoticeWording kNoticeWordings[] = {
    {"link_too_long", S::ln_link_too_long},
    {"newer_format", S::ln_newer_format},
    {"bad_format_version", S::ln_bad_format_version},
    {"missing_format_version", S::ln_missing_format_version},
    {"bad_catalog_version", S::ln_bad_catalog_version},
    {"catalog_unavailable", S::ln_catalog_unavailable},
    {"newer_model", S::ln_newer_model},
    {"bad_model_version", S::ln_bad_model_version},
    {"bad_view_state", S::ln_bad_view_state},
    {"unknown_code", S::ln_unknown_code},
    {"duplicate", S::ln_duplicate},
    {"invalid_default", S::ln_invalid_default},
    {"invalid_dropped", S::ln_invalid_dropped},
    {"invalid_model", S::ln_invalid_model},
    {"invalid", S::ln_invalid},
    {"missing_model", S::ln_missing_model},
    {"question_scenario_only", S::ln_question_scenario_only},
    {"catalog_damaged", S::ln_catalog_damaged},
    {"catalog_release_missing", S::ln_catalog_release_missing},
};

// The core's input errors in Chinese (kInputErrorWordings, wording.hpp): the same codes and the same
// {0}, {1} ... values; field paths and values stay as the user typed them.
struct InputErrorChinese {
  const char* code;
  const char* zh;
};

constexpr InputErrorChinese kInputErrorChinese[] = {
    {"object", "须为 JSON 对象"},
    {"required", "为必填项"},
    {"unknown_field", "未知字段；此处可用：{0}"},
    {"integer_range", "须为 {0} 之间的整数；输入为 {1}"},
    {"number_range", "须为 {0} 之间的数；输入为 {1}"},
    {"auto_or_range", "须为 \"auto\" 或 {0} 之间的数；输入为 {1}"},
    {"positive", "须大于 0；输入为 {0}"},
    {"positive_or_null", "须大于 0 或为 null；输入为 {0}"},
    {"boolean", "须为 true 或 false；输入为 {0}"},
    {"string", "须为字符串；输入为 {0}"},
    {"one_of", "须为以下之一：{0}；输入为 {1}"},
    {"kv_heads_heads", "须整除 heads（{0}）且不超过 heads；输入为 {1}"},
    {"heads_hidden", "未给出 head_dim 时须整除 hidden（{0}）；输入为 {1}"},
    {"top_k_experts", "MoE 模型须在 1..experts（{0}）之间；输入为 {1}"},
    {"moe_expert_ffn", "MoE 模型须至少为 1；输入为 {0}"},
    {"experts_needed", "给出 top_k、shared_experts、expert_ffn 或 dense_layers 时须至少为 1"},
    {"at_most_layers", "须不超过 layers（{0}）；输入为 {1}"},
    {"mla_dims", "\"mla\" 需要 kv_lora_rank、qk_nope_head_dim 或 qk_rope_head_dim，以及 v_head_dim 均 >= 1"},
    {"required_by_objective", "目标 \"{0}\" 需要此项"},
    {"planner_tokens", "规划器需要训练词元数（或 storage.dataset_tokens x 轮数）才能比较时间与成本"},
    {"tco_other_accelerator", "运行在 {0} 上，而不是服务器的 {1}：卡时会不同"},
    {"tco_tokens", "为必填项（或 storage.dataset_tokens）：没有词元数，这次训练就没有可填满服务器的卡时"},
    {"tco_capacity", "每月需要 {0} 卡时，超过 {1} 张卡能提供的 {2}：请把 servers.count 设为至少 {3}"},
    {"tp_heads", "须整除模型的注意力头数（{0}）；输入为 {1}"},
    {"pp_split", "须能把模型的 {0} 层切成每段 ceil(层数 / pp) 层的流水线段（首末段承担余数），且没有空段；输入为 {1}"},
    {"cp_chunks",
     "须把 seq_len（{0}）切成 2 x cp 个等长块（Megatron-Core 负载均衡的因果环形注意力给每个 cp 秩分两块），所以 2 x cp "
     "须整除 seq_len；可用 1..1024，输入为 {1}"},
    {"gpus_tp_pp", "须为 parallel.tp x parallel.pp（{0}）的整数倍；输入为 {1}"},
    {"gpus_tp_cp_pp", "须为 parallel.tp x parallel.cp x parallel.pp（{0}）的整数倍；输入为 {1}"},
    {"etp_tp", "须整除 parallel.tp（{0}）：一个专家只切分在张量并行组的一部分上；可用 1..{0}，输入为 {1}"},
    {"ep_dense", "只适用于混合专家模型（model.experts > 0）：稠密模型没有可切分的专家；可用 1，输入为 {0}"},
    {"ep_experts", "须整除模型的路由专家数（{0}）；可用 1..4096，输入为 {1}"},
    {"ep_stage",
     "ep x etp（{0} x {1}）须整除一个流水线段的 GPU 数（tp x cp x dp = {2}）：Megatron-Core "
     "把专家并行折叠进这些秩；可用 "
     "1..4096，输入为 {0}"},
    {"gpus_per_node_domain",
     "用 {1} 时须为 1..{0}：在售的任何整机系统中，它的节点内（scale-up）互连最多连接 {0} 张卡（目录 "
     "max_gpus_per_node）；输入为 {2}"},
    {"whole_nodes", "须不超过一个节点，或为整数个节点（每节点 {0} 卡）；输入为 {1}"},
    {"global_batch_multiple", "须为 micro_batch x 数据并行规模（{0} x {1} = {2}）的整数倍；输入为 {3}"},
    {"vp_needs_pp", "需要 parallel.pp > 1（虚拟流水线段在一条流水线中交错）；当前 pp 为 1"},
    {"vp_layers",
     "每个虚拟段至少要有一层（比其他段少一层的首段或末段可把嵌入层或损失算作一层）：模型 {1} 层分到 {2} 段，各段 {0} "
     "层，最多允许 {3}；可用 1..{4}，输入为 {5}"},
    {"vp_micro_batches",
     "需要每步的微批数（global_batch / (micro_batch x dp) = {0}）为 parallel.pp（{1}）的整数倍，与 Megatron-LM "
     "的交错调度一致；当前 vp 为 {2}"},
    {"vp_schedule_micro_batches",
     "需要每个流水线调度的微批数（global_batch / (micro_batch x dp x parallel.pp_flushes) = {0}）为 "
     "parallel.pp（{1}）的整数倍，即交错调度预热阶段计数所用的轮数；当前 vp 为 {2}"},
    {"pp_flushes_stages",
     "使每次流水线调度只有 {0} 个微批，少于 parallel.pp 的 {1} 级，PyTorch 的 1F1B "
     "调度会拒绝（微批数须不少于级数）；可用 {2} 的不超过 {3} 的约数，输入为 {4}"},
    {"pp_flushes",
     "须整除每个数据并行 rank 每步的 {0} 个微批（global_batch / (micro_batch x dp)），使各次流水线调度相等；可用 1 到 "
     "{0} 之间 {0} 的约数，输入为 {1}"},
    {"fp8_unsupported", "\"fp8\" 需要 FP8 张量核心，{0} 没有；请用 {1}"},
    {"bf16_unsupported",
     "\"bf16\" 需要 BF16 张量核心，{0} 没有（目录列出了它不支持的精度）；请用 \"fp16\"（带损失缩放的混合精度）"},
    {"pure_bf16_precision", "只适用于精度 \"bf16\"；当前精度为 \"{0}\""},
    {"fp8_params_precision", "只适用于精度 \"fp8\"；当前精度为 \"{0}\""},
    {"fp8_params_qlora", "不适用于方法 \"qlora\"：它的冻结权重是 NF4；请用方法 \"lora\""},
    {"fp8_params_framework",
     "需要框架 \"megatron\"（Transformer Engine 的 FP8 权重）或 \"torchtitan\"（torchao 的 float8 all-gather）；"
     "框架 \"{0}\" 的权重是 16 位"},
    {"fp8_params_megatron_sharding",
     "框架 \"megatron\" 需要 parallel.zero 为 1 或 3：Megatron-LM 只通过分布式优化器（zero 1）或 FSDP（zero 3）"
     "以 FP8 聚合权重；当前 zero 为 {0}"},
    {"fp8_params_torchtitan_sharding",
     "框架 \"torchtitan\" 需要 parallel.zero >= 1：torchao 只在 FSDP2 下以 FP8 做 all-gather；当前 zero 为 0"},
    {"fp8_params_torchtitan_method",
     "在框架 \"torchtitan\" 下只适用于全量训练（torchtitan 不训练适配器，也不冻结层）；当前方法为 \"{0}\""},
    {"offload_needs_zero", "需要 parallel.zero >= 1（ZeRO-Offload 卸载的是已分片的优化器状态）；当前 zero 为 0"},
    {"trainable_layers", "须不超过模型的层数（{0}）；输入为 {1}"},
    {"mtp_framework",
     "需要框架 \"megatron\"：Megatron-Core 才训练多 token 预测模块（--mtp-num-layers），框架 \"{0}\" 没有；输入为 {1}"},
    {"activation_offload_layers",
     "须不超过最小流水线段的层数（模型 {1} 层分 {2} 段，最小段 {0} 层）；0 表示卸载每一层；输入为 {3}"},
    {"recompute_layers",
     "须不超过最大流水线块的层数（{0}：模型 {1} 层分 {2} 段 x {3} 个虚拟段）；0 表示每一层都重计算；输入为 {4}"},
    {"ep_comm_sms", "须不超过 {1} 的 {0} 个 SM；0 表示取 kDeepEpSms；可用 0..{0}，输入为 {2}"},
    {"moe_capacity_factor",
     "须为 0（不丢弃词元）或 1 到 专家数 / top_k = {0}（{1} 个专家，top {2}），到该值时一个专家接收其 rank "
     "的全部词元；可用 0 或 1..{0}，输入为 {3}"},
};

// The core's explanation formulas (Explainer, "why this number") in Chinese, keyed by the core's
// English: symbols, field paths, names and sources stay as the core writes them.
// clang-format off
constexpr FormulaWording kFormulaChinese[] = {
    {"measured: the scenario is the trial run's own configuration, so the calibrated estimate is the measurement (calibration block)",
     "实测值：场景即试运行本身的配置，因此校准后的估计就是实测值（calibration 块）"},
    {"(1 + 2 t, 1 + (2 + r) t with full recompute, r the share of the blocks that recompute; t the trained share of the blocks, 1 but for freeze-tuning) x layers of the busiest stage x micro-batches x (cp - 1) x b (s / cp) (k + v) / tp x bytes: ring attention passes each key/value chunk on cp - 1 times forward and keys, values and their gradients backward (Liu et al. 2023; Megatron-Core context parallelism); 0 without CP",
     "(1 + 2 t，完全重计算为 1 + (2 + r) t，r 为重计算的块所占比例；t 为受训层占比，除冻结微调外为 1) x 最忙阶段层数 x 微批数 x (cp - 1) x b (s / cp) (k + v) / tp x 字节数：ring attention 前向将每个 key/value 分块传递 cp - 1 次，反向传递 key、value 及其梯度（Liu et al. 2023；Megatron-Core 上下文并行）；无 CP 时为 0"},
    {"(1 - share) (2 P_blocks + A) + 6 share P_blocks + 3 share A + 6 P_logits (frozen blocks run forward only)",
     "(1 - share) (2 P_blocks + A) + 6 share P_blocks + 3 share A + 6 P_logits（冻结层只做前向）"},
    {"(C/6)^(alpha/(alpha+beta)) / G for this run's compute C",
     "(C/6)^(alpha/(alpha+beta)) / G，C 为本次训练的计算量"},
    {"(kept checkpoints + dataset) TB x USD per TB-month x months",
     "(保留的检查点 + 数据集) TB x 每 TB 月 USD x 月数"},
    {"(linear-layer FLOPs per GPU per step / (dense peak x GEMM efficiency) + fused attention kernel FLOPs / (16-bit peak x attention efficiency) + memory-bound time + QLoRA's dequantisation) x stage imbalance; memory-bound time = tokens x layers x passes x (kElementwisePasses x (h + f, h + 2 f with a gated MLP) x bytes + the eager ops' extra bytes without techniques.fused_kernels: RMSNorm 2 (2 e + 28) h, RoPE 16 (q + k), SwiGLU 2 e f; the SwiGLU part alone with techniques.eager_activation) (+ kSoftmaxPasses x heads x seq_len without FlashAttention) / (HBM bandwidth x kMemBwEfficiency) + MoE token copies (time.moe_permute_s) + LoRA adapters' rows (time.lora_adapter_s) + ring attention's merges (time.cp_merge_s); + the framework's copies (time.framework_copy_s); the loss (loss_s) runs on the last pipeline stage: tokens x vocab / tp x bytes a vocabulary entry (Megatron 52, PyTorch's cross_entropy 48, a fused kernel or torch.compile 8, Liger 6, Cut Cross-Entropy 0) at the same bandwidth, and the step computes at the pace of the busiest stage or of the last one with its loss, whichever is slower; / the measured compute factor when a trial run calibrates the scenario",
     "(每卡每步线性层 FLOPs / (稠密峰值 x GEMM 效率) + 融合注意力 kernel FLOPs / (16 位峰值 x 注意力效率) + 访存受限时间 + QLoRA 反量化) x 阶段负载不均系数；访存受限时间 = 词元数 x 层数 x 遍数 x (kElementwisePasses x (h + f，门控 MLP 为 h + 2 f) x 字节数 + 未开启 techniques.fused_kernels 时 eager 算子的额外字节：RMSNorm 2 (2 e + 28) h，RoPE 16 (q + k)，SwiGLU 2 e f；设置 techniques.eager_activation 时只计 SwiGLU 部分) (+ 无 FlashAttention 时 kSoftmaxPasses x 头数 x seq_len) / (HBM 带宽 x kMemBwEfficiency) + MoE 词元拷贝（time.moe_permute_s）+ LoRA 适配器读写的行（time.lora_adapter_s）+ 环形注意力的合并（time.cp_merge_s）；+ 框架的拷贝（time.framework_copy_s）；损失（loss_s）只在最后一个流水线段上计算：词元数 x vocab / tp x 每个词表项的字节数（Megatron 52，PyTorch 的 cross_entropy 48，融合内核或 torch.compile 8，Liger 6，Cut Cross-Entropy 0），按同一带宽计；每步的计算时间取最忙一段与带损失的最后一段中较慢者；试运行校准场景时再 / 实测计算系数"},
    {"(load factor - 1) x routed-expert GEMM FLOPs per GPU per step / (peak x GEMM efficiency): the rank with the busiest experts computes the load factor x the mean; routed FLOPs = (6, 4 for PEFT, + 2 with full recompute) x top_k expert parameters x MoE blocks x tokens / GPUs; 0 without EP. Load factor 1 with parallel.moe_capacity_factor (every expert padded to c x its mean share: no rank waits, and the padded rows count with the routed FLOPs), else by parallel.moe_routing: learned kMoeCapacityFactor (Fedus et al. 2021 §2.1); fake_balanced 1 (every expert gets the same tokens); random 1 + sqrt(2 ln ep) sigma / mean of the hypergeometric tokens a rank receives from the tokens x ep the group dispatches",
     "(负载系数 - 1) x 每卡每步路由专家 GEMM FLOPs / (峰值 x GEMM 效率)：专家最忙的 rank 计算量为均值的负载系数倍；路由 FLOPs = (6，PEFT 为 4，完全重计算再 + 2) x top_k 个专家的参数量 x MoE 层数 x 词元数 / GPU 数；无 EP 时为 0。设置了 parallel.moe_capacity_factor 时负载系数为 1（每个专家的输入填充到其平均份额的 c 倍：没有 rank 需要等待，填充行计入路由 FLOPs），否则按 parallel.moe_routing 取：learned 为 kMoeCapacityFactor（Fedus et al. 2021 §2.1）；fake_balanced 为 1（每个专家分到相同的词元）；random 为 1 + sqrt(2 ln ep) sigma / mean，针对一个 rank 从组内分发的 词元数 x ep 个词元中收到的词元数（超几何分布）"},
    {"(p - 1) / (v m) x (compute + exposed TP, CP and EP time): 1F1B (v = 1) or interleaved 1F1B with v virtual stages per rank (Narayanan et al. 2021 §2.2.2); with chunks of unequal length v = L / ceil(L / vp), L the largest stage's blocks: the bubble follows the longest chunk; m the micro-batches of one pipeline schedule, the step's split over parallel.pp_flushes schedules, each filling and draining the pipeline",
     "(p - 1) / (v m) x (计算 + 未被掩盖的 TP、CP 和 EP 时间)：1F1B (v = 1) 或每个 rank 有 v 个虚拟阶段的交错式 1F1B（Narayanan et al. 2021 §2.2.2）；分块长度不等时 v = L / ceil(L / vp)，L 为最大阶段的层数：流水线气泡由最长的分块决定；m 为一次流水线调度的微批数，即一步的微批分到 parallel.pp_flushes 次调度后每次的份额，每次调度都会填充并排空流水线"},
    {". Megatron-Core (Transformer Engine userbuffers, default methods): forward QKV and FC1 and the data gradients of the output projection and FC2 by tp (ring exchange), forward output projection and FC2 by 4 (pipeline); PyTorch async TP: the forward's four by tp",
     "。Megatron-Core（Transformer Engine userbuffers，默认方法）：前向 QKV 与 FC1，以及输出投影与 FC2 的数据梯度，切成 tp 块（ring exchange）；前向输出投影与 FC2 切成 4 块（pipeline）；PyTorch async TP：前向这四个均切成 tp 块"},
    {"0 unless method qlora. QLoRA dequantises every NF4 block linear to a copy in the compute dtype before each GEMM that reads it: micro-batches x passes (forward, backward, + the recomputed forward) x block-linear parameters per GPU x (NF4 bytes + the copy's) / (HBM bandwidth x kMemBwEfficiency) (bitsandbytes dequantize_4bit, torchao NF4Tensor; Dettmers et al. 2023 §3)",
     "method 不为 qlora 时为 0。QLoRA 在每次读取 NF4 层内线性层的 GEMM 之前，都会将其反量化为计算 dtype 的副本：微批数 x 遍数（前向、反向，+ 重计算的前向） x 每卡层内线性层参数量 x (NF4 字节数 + 副本字节数) / (HBM 带宽 x kMemBwEfficiency)（bitsandbytes dequantize_4bit，torchao NF4Tensor；Dettmers et al. 2023 §3）"},
    {"1 for pretraining from scratch (method pretrain), which the laws are about; continued pretraining and fine-tuning: 0",
     "从头预训练（method pretrain）为 1，即这些定律所针对的情形；继续预训练和微调：0"},
    {"2 (n - 1) / n x gradient bytes this GPU holds over n = dp x cp ranks (ZeRO-3: x 1.5 per micro-batch, ZeRO paper §7; with pipeline stages x 1 once per pipeline schedule, the gathered weights kept); once per pipeline schedule (parallel.pp_flushes) without ZeRO-3 too; with EP the routed experts' 1 / ep over dp x cp / ep ranks",
     "2 (n - 1) / n x 本卡持有的梯度字节数，在 n = dp x cp 个 rank 间通信（ZeRO-3：每个微批 x 1.5，ZeRO paper §7；有流水线阶段时每次流水线调度一次 x 1，保留 gather 后的权重）；不用 ZeRO-3 时同样每次流水线调度（parallel.pp_flushes）一次；使用 EP 时，路由专家的 1 / ep 在 dp x cp / ep 个 rank 间通信"},
    {"2 x micro-batches x b (s / cp) h bytes / tp x vp (activations forward, gradients back; the interleaved schedule crosses vp stage boundaries per rank, Narayanan et al. 2021 §2.2.2)",
     "2 x 微批数 x b (s / cp) h 字节 / tp x vp（前向传激活值，反向传梯度；交错调度下每个 rank 跨越 vp 个阶段边界，Narayanan et al. 2021 §2.2.2）"},
    {"20 x params: compute-optimal tokens by Hoffmann et al. 2022 Table 3 (about 20 tokens per parameter)",
     "20 x 参数量：按 Hoffmann et al. 2022 Table 3 的计算最优词元数（每个参数约 20 个词元）"},
    {"4 P + 6 P_adapters + 3 A (LoRA: no weight gradients of the frozen model; P_adapters the adapters a token runs through, an MoE block's top_k + shared experts')",
     "4 P + 6 P_adapters + 3 A（LoRA：冻结模型无权重梯度；P_adapters 为一个词元经过的适配器，MoE 块只计 top_k 与共享专家的）"},
    {"6 P + 3 A: P matmul parameters (active blocks + logit layer), A attention score FLOPs 2 s (q + o) L per token forward over every query head, no causal halving (Narayanan et al. 2021 §5.1); a sliding-window block counts min(window, s) keys instead of s",
     "6 P + 3 A：P 为矩阵乘参数量（各层激活部分 + logit 层），A 为每词元前向的注意力分数 FLOPs 2 s (q + o) L，计入所有 query 头，不做因果减半（Narayanan et al. 2021 §5.1）；滑动窗口层按 min(window, s) 个 key 计算，而非 s"},
    {"6 x params x tokens (Kaplan et al. 2020)",
     "6 x 参数量 x 词元数（Kaplan et al. 2020）"},
    {"D such that N_opt(6 N D) = N, N_opt(C) = G (C/6)^(beta/(alpha+beta)), G = (alpha A / (beta B))^(1/(alpha+beta)); Besiroglu et al. 2024 refit of Hoffmann et al. 2022 approach 3",
     "使 N_opt(6 N D) = N 成立的 D，N_opt(C) = G (C/6)^(beta/(alpha+beta))，G = (alpha A / (beta B))^(1/(alpha+beta))；Besiroglu et al. 2024 对 Hoffmann et al. 2022 方法 3 的重新拟合"},
    {"DDP 2 x 25 MiB buckets; DeepSpeed ZeRO-1/2 5e8-element buckets (none with its BF16_Optimizer, which reduces after the backward); Megatron-LM none (its buckets are views of the gradient buffer); ZeRO-3 two layers gathered, with PyTorch FSDP (frameworks hf, fsdp, torchtune, torchtitan) at least one layer and the root unit (embedding, final norm, head), which FSDP keeps gathered from forward to backward",
     "DDP 为 2 x 25 MiB 的桶；DeepSpeed ZeRO-1/2 为 5e8 个元素的桶（使用其 BF16_Optimizer 时没有，因为它在反向结束后才归约）；Megatron-LM 没有（其桶是梯度缓冲区的视图）；ZeRO-3 为已 gather 的两层，PyTorch FSDP（框架 hf、fsdp、torchtune、torchtitan）下至少为一层加根单元（词嵌入、最后的归一化层、输出层），FSDP 从前向到反向始终保持根单元处于 gather 状态"},
    {"FLOPs the kernels execute per GPU per step (GEMMs with recompute and padded expert rows, the fused attention kernel's own causal count) / (step_s x dense peak): at most the GEMM and attention kernels' measured rates; MFU counts attention without causal masking (Megatron, llm-foundry) and so can exceed it at long sequences",
     "每卡每步 kernel 实际执行的 FLOPs（GEMM 含重计算与填充的专家行，融合注意力 kernel 按其自身的因果计数） / (step_s x 稠密峰值)：不超过 GEMM 与注意力 kernel 的实测速率；MFU 计算注意力时不考虑因果掩码（Megatron、llm-foundry），因此在长序列下可能超过该值"},
    {"G (C/6)^(beta/(alpha+beta)) for this run's compute C",
     "G (C/6)^(beta/(alpha+beta))，C 为本次训练的计算量"},
    {"GPUs x total hours",
     "GPU 数 x 总小时数"},
    {"Young (1974): sqrt(2 x write time x mean time between interruptions)",
     "Young (1974)：sqrt(2 x 写入时间 x 平均中断间隔时间)"},
    {"ZeRO-Offload: trained params per GPU x GPUs per node / kCpuAdamParamsPerS + 4 B/param over the host link (+ NVMe swaps 2 x offloaded bytes / kNvmeOffloadGbPerS), + activation_offload_s",
     "ZeRO-Offload：每卡可训练参数量 x 每节点 GPU 数 / kCpuAdamParamsPerS + 经主机链路传输的 4 B/param（+ NVMe 换入换出 2 x 卸载字节数 / kNvmeOffloadGbPerS），+ activation_offload_s"},
    {"all-to-alls x (scale-up + network copies per token) x b (s / cp) h bytes x kMoeCapacityFactor (1 with parallel.moe_routing fake_balanced, the chance excess with random: load_factor; c padded rows with parallel.moe_capacity_factor: rows_factor); 4 per MoE block of the busiest stage per micro-batch (dispatch and combine, forward and backward; 4 + 2 r with full recompute, r the share of the blocks that recompute; 2 for a frozen block of freeze-tuning), Megatron-Core MoE; 0 without EP. Dispatcher alltoall: top_k (ep - 1) / ep copies, one per routed expert on another rank",
     "all-to-all 次数 x (每词元的节点内互联副本数 + 网络副本数) x b (s / cp) h 字节 x kMoeCapacityFactor（parallel.moe_routing 为 fake_balanced 时取 1，为 random 时取随机超出量：load_factor；设置了 parallel.moe_capacity_factor 时取填充后的 c 倍行数：rows_factor）；最忙阶段每个 MoE 层每个微批 4 次（dispatch 与 combine，前向与反向；完全重计算为 4 + 2 r 次，r 为重计算的块所占比例；冻结微调中被冻结的层为 2 次），Megatron-Core MoE；无 EP 时为 0。dispatcher alltoall：top_k (ep - 1) / ep 份副本，其他 rank 上的每个路由专家一份"},
    {"all-to-alls x max(intra-node share / scale-up busbw, inter-node share / one NIC's busbw) + latency: of the ep - 1 peers, ranks_per_node - 1 share the node (dispatcher alltoall: a copy per routed expert); dispatcher deepep: a token crosses the network once per destination node, (n - 1) (1 - C(E - E/n, k) / C(E, k)) copies for n nodes, E experts, top-k, and the scale-up link once per destination rank other than the one of its own in-node index, ep (1 - C(E - E/ep, k) / C(E, k)) (1 - 1 / ranks_per_node) (DeepSeek-V3 report §3.2.2; DeepEP's dispatch layout counts tokens per rank, not per expert); with parallel.moe_routing fake_balanced a token's experts are k consecutive ones (NeMo AutoModel FakeBalancedGate), and the nodes and ranks it reaches are counted over their starting points; the transfers x kDeepEpSms / parallel.ep_comm_sms where that gives a DeepEP-style dispatcher fewer than kDeepEpSms SMs (the report's 20 SMs, 10 channels, fill IB and NVLink; fewer drive fewer channels)",
     "all-to-all 次数 x max(节点内份额 / 节点内互联 busbw, 节点间份额 / 单个网卡 busbw) + 延迟：ep - 1 个对端中有 ranks_per_node - 1 个位于同一节点（dispatcher alltoall：每个路由专家一份副本）；dispatcher deepep：一个词元对每个目标节点跨网络一次，n 个节点、E 个专家、top-k 时为 (n - 1) (1 - C(E - E/n, k) / C(E, k)) 份副本，并对每个目标 rank（节点内序号与自身相同者除外）经节点内互联一次，即 ep (1 - C(E - E/ep, k) / C(E, k)) (1 - 1 / ranks_per_node)（DeepSeek-V3 report §3.2.2；DeepEP 的 dispatch 布局按 rank 而非按专家统计词元）；parallel.moe_routing 为 fake_balanced 时，一个词元的专家为 k 个连续专家（NeMo AutoModel FakeBalancedGate），其到达的节点和 rank 按所有起始位置统计；若 parallel.ep_comm_sms 给 DeepEP 类分发器的 SM 少于 kDeepEpSms，传输时间乘以 kDeepEpSms / parallel.ep_comm_sms（报告中 20 个 SM、10 个通道即可跑满 IB 和 NVLink；SM 更少则通道更少）"},
    {"attention h (q + k + v) + o h + MLP (3 h f gated, 2 h f GeLU; x experts for MoE, + router) + 2 norms (+ biases)",
     "注意力 h (q + k + v) + o h + MLP（门控 3 h f，GeLU 2 h f；MoE 再 x 专家数，+ 路由器） + 2 个归一化层（+ 偏置）"},
    {"capacity - total (negative: does not fit)",
     "容量 - 合计（为负：放不下）"},
    {"ceil(tokens / tokens per step)",
     "ceil(词元数 / 每步词元数)"},
    {"ceil(tokens / tokens per step) x step_s / 3600",
     "ceil(词元数 / 每步词元数) x step_s / 3600"},
    {"checkpoints kept x checkpoint size + dataset bytes",
     "保留检查点数 x 检查点大小 + 数据集字节数"},
    {"cluster tokens/s x bytes per token on disk",
     "集群每秒词元数 x 每词元磁盘字节数"},
    {"collectives x 2 (tp - 1) / tp x b (s / cp) h bytes; 4 per layer per micro-batch (4 + 2 r with full recompute, r the share of the blocks that recompute), 2 for a frozen block of freeze-tuning (its forward), Megatron; half of them the attention's, half the MLP's. A Megatron-Core MoE block under sequence parallelism routes each rank's own sequence shard: its routed experts move nothing across TP with etp 1 (the shared experts keep the MLP's half), and with etp > 1 the dispatcher gathers and scatters the rows it received over the expert-TP group instead, top_k rows a token (token_dispatcher.py)",
     "集合通信次数 x 2 (tp - 1) / tp x b (s / cp) h 字节；每层每个微批 4 次（完全重计算为 4 + 2 r 次，r 为重计算的块所占比例），冻结微调中被冻结的层为 2 次（其前向），Megatron；其中一半属于注意力，一半属于 MLP。Megatron-Core 的 MoE 块在序列并行下只路由每个 rank 自己的序列分片：etp 为 1 时路由专家不在 TP 组内传输任何东西（共享专家保留 MLP 那一半），etp > 1 时分发器改为在专家张量并行组内 gather 和 scatter 它收到的行，每个 token top_k 行（token_dispatcher.py）"},
    {"collectives x ring all-reduce of b (s / cp) h bytes over tp ranks (nccl-tests bus bandwidth); the expert-TP group's, of top_k b (s / cp) h etp / tp bytes, over etp ranks",
     "集合通信次数 x 在 tp 个 rank 上对 b (s / cp) h 字节做环形 all-reduce（nccl-tests 总线带宽）；专家张量并行组的部分为在 etp 个 rank 上对 top_k b (s / cp) h etp / tp 字节"},
    {"communication not hidden behind compute: tp, pp, dp, cp and ep exposed_s",
     "未被计算掩盖的通信：tp、pp、dp、cp 和 ep 的 exposed_s"},
    {"compute + exposed TP + exposed PP + exposed DP + exposed CP + exposed EP + bubble + offload + IO stall",
     "计算 + 未掩盖的 TP + 未掩盖的 PP + 未掩盖的 DP + 未掩盖的 CP + 未掩盖的 EP + 流水线气泡 + 卸载 + IO 等待"},
    {"compute USD + storage USD",
     "算力 USD + 存储 USD"},
    {"cp.bytes / point-to-point bandwidth (each GPU's NIC across nodes, the scale-up link inside one) + one latency per ring step",
     "cp.bytes / 点对点带宽（跨节点时为每卡的网卡，节点内为节点内互联链路） + 环上每一步一次延迟"},
    {"data bytes/s needed / data tier bytes/s",
     "所需数据 bytes/s / 数据存储 bytes/s"},
    {"dataset bytes / min(object-store parallel clients x nodes, data tier write rate)",
     "数据集字节数 / min(对象存储并行客户端数 x 节点数, 数据存储写入速率)"},
    {"dataset tokens x bytes per token (dataset tokens = tokens / epochs unless given)",
     "数据集词元数 x 每词元字节数（未给出时，数据集词元数 = 词元数 / 训练轮数）"},
    {"dated exchange rate from the catalog (currency section)",
     "目录中注明日期的汇率（currency 部分）"},
    {"e_max x d / (d + kGemmHalfSize), d = min(micro_batch x seq_len / cp, hidden / tp); e_max is the accelerator's measured large-GEMM efficiency in the compute precision (catalog; FP8 falls back to the BF16 ratio) or kDefaultGemmEfficiency",
     "e_max x d / (d + kGemmHalfSize)，d = min(micro_batch x seq_len / cp, hidden / tp)；e_max 为该加速卡在计算精度下实测的大 GEMM 效率（取自目录；FP8 回退为 BF16 的比值）或 kDefaultGemmEfficiency"},
    {"each gradient reduction (ZeRO-0's all-reduce; ZeRO-1/2's reduce-scatter, each micro-batch with DeepSpeed's ZeRO-2) max(0, its time - kDpOverlap x a micro-batch's backward), plus ZeRO-1/2's all-gather of the weights after the optimizer step: all of it with DeepSpeed (and Hugging Face, which shards with it), else max(0, its time - kDpOverlap x the next step's first micro-batch forward) (Megatron-Core --overlap-param-gather, FSDP prefetch); backward 2/3 and forward 1/3 of a micro-batch's compute; DeepSpeed with pipeline stages: all of dp.s, reduced after the flush; ZeRO-3: max(0, dp.s - kZero3Overlap x compute of the micro-batches it gathers for: all of them, or one with pipeline stages); FSDP under PyTorch's pipelining (torchtitan with pipeline stages): every gradient reduce-scatter whole, after each schedule's last backward",
     "每次梯度归约（ZeRO-0 的 all-reduce；ZeRO-1/2 的 reduce-scatter，DeepSpeed ZeRO-2 下每个微批一次）计 max(0, 其耗时 - kDpOverlap x 一个微批的反向)，再加 ZeRO-1/2 在优化器更新后对权重的 all-gather：DeepSpeed（以及借助它切分的 Hugging Face）下全部计入，否则计 max(0, 其耗时 - kDpOverlap x 下一步第一个微批的前向)（Megatron-Core --overlap-param-gather、FSDP 预取）；反向占一个微批计算的 2/3，前向占 1/3；DeepSpeed 带流水线阶段时：dp.s 全部计入，在流水线排空后归约；ZeRO-3：max(0, dp.s - kZero3Overlap x 其 gather 所服务微批的计算：全部微批，带流水线阶段时为一个)；PyTorch 流水线下的 FSDP（torchtitan 带流水线阶段）：每次梯度 reduce-scatter 全部计入，发生在每次调度的最后一次反向传播之后"},
    {"ep.s: the experts wait for their tokens; with parallel.ep_comm_overlap ep.s u + max((ep.s - compute) (1 - u), f x ep.s (1 - u)): the all-to-alls of one micro-batch's forward run during another's backward (DualPipe, Megatron-Core combined 1F1B), which meanwhile has the SMs they leave, and the share u of the chunks without a partner waits whole (rank 0's warm-up forwards and flush backwards: pp - 1 micro-batches in 1F1B, 2 (pp - 1) + (vp - 1) pp chunks interleaved, 1 without a pipeline, of the schedule's chunks); f: the share they hold, min(1, SMs / the accelerator's sm_count), SMs parallel.ep_comm_sms, else kDeepEpSms (20, the default of DeepEP and HybridEP; DeepSeek-V3 report §3.2.2); 0 for NCCL's all-to-all (not published) and for a part without an sm_count",
     "ep.s：专家等待各自的词元；开启 parallel.ep_comm_overlap 时为 ep.s u + max((ep.s - compute) (1 - u), f x ep.s (1 - u))：一个微批前向的 all-to-all 与另一个微批的反向同时进行（DualPipe、Megatron-Core combined 1F1B），后者在此期间使用 all-to-all 空出的 SM；没有配对的块所占份额 u 全部等待（rank 0 预热阶段的前向与冲刷阶段的反向：1F1B 中为 pp - 1 个微批，交错调度中为 2 (pp - 1) + (vp - 1) pp 个块，没有流水线时为 1 个，占该调度的块数）；f：all-to-all 占用的 SM 份额，min(1, SMs / 该加速卡的 sm_count)，SMs 取 parallel.ep_comm_sms，否则取 kDeepEpSms（20，DeepEP 与 HybridEP 的默认值；DeepSeek-V3 report §3.2.2）；NCCL 的 all-to-all（未公开）以及没有 sm_count 的硬件取 0"},
    {"expected interruptions x (interval / 2 + restart)",
     "预期中断次数 x (间隔 / 2 + 重启时间)"},
    {"failures per GPU-hour x GPUs + spot interruptions per node-hour x nodes (Llama 3 §3.3.4 default rate)",
     "每卡时故障次数 x GPU 数 + 每节点小时竞价中断次数 x 节点数（Llama 3 §3.3.4 默认故障率）"},
    {"full/pretrain: all parameters; LoRA/QLoRA: layers x r x (d_in + d_out) per adapted matrix; freeze: the top trainable layers",
     "全参数微调/预训练：全部参数；LoRA/QLoRA：每个适配矩阵为 层数 x r x (d_in + d_out)；冻结微调：顶部的可训练层"},
    {"fused attention kernel FLOPs per GPU per step / (16-bit dense peak x attention efficiency); kernel FLOPs = forward A / 2 (causal blocks skipped) x (1 + t x 2.5 backward with score recompute, + t with full recompute), t the trained share of the blocks (1 but for freeze-tuning) (FlashAttention-2, Dao 2023)",
     "每卡每步融合注意力 kernel FLOPs / (16 位稠密峰值 x 注意力效率)；kernel FLOPs = 前向 A / 2（跳过因果掩码块）x (1 + t x 2.5 反向（含注意力分数重计算），完全重计算再 + t)，t 为受训层占比（除冻结微调外为 1）（FlashAttention-2, Dao 2023）"},
    {"global_batch / (micro_batch x dp)",
     "global_batch / (micro_batch x dp)"},
    {"global_batch x seq_len",
     "global_batch x seq_len"},
    {"global_batch x seq_len / step_s (whole cluster)",
     "global_batch x seq_len / step_s（整个集群）"},
    {"gpus / (tp x cp x pp)",
     "gpus / (tp x cp x pp)"},
    {"gpus / gpus_per_node (1 when gpus <= gpus_per_node)",
     "gpus / gpus_per_node（gpus <= gpus_per_node 时为 1）"},
    {"hardware FLOPs per GPU per step (recompute and padded expert rows included) / (step_s x dense peak)",
     "每卡每步硬件 FLOPs（含重计算与填充的专家行） / (step_s x 稠密峰值)"},
    {"hardware FLOPs per GPU per step (recompute and padded expert rows included) / compute_s: the rate while computing",
     "每卡每步硬件 FLOPs（含重计算与填充的专家行） / compute_s：计算期间的速率"},
    {"headroom >= 0",
     "余量 >= 0"},
    {"hidden (RMSNorm) or 2 x hidden (LayerNorm)",
     "hidden（RMSNorm）或 2 x hidden（LayerNorm）"},
    {"interleaved schedule with parallel.pp_comm_overlap: t = pp.s / (2 f m vp) a transfer, f = parallel.pp_flushes schedules of m micro-batches each; each schedule's warm-up forward and flush backward transfers exposed, 2 f W t, W = min(m vp, 2 (pp - 1) + (vp - 1) pp) warm-up chunks of rank 0; each of the f (m vp - W) steady-state steps exposes max(0, t - backward) + max(0, t - forward) of one chunk (compute / (f m vp), its forward 1 / linear passes of it)",
     "交错调度且开启 parallel.pp_comm_overlap：每次传输 t = pp.s / (2 f m vp)，f = parallel.pp_flushes 次调度，每次 m 个微批；每次调度预热阶段的前向传输和排空阶段的反向传输未被掩盖，共 2 f W t，W = min(m vp, 2 (pp - 1) + (vp - 1) pp) 为 rank 0 的预热块数；其余 f (m vp - W) 个稳态步每步未被掩盖 max(0, t - backward) + max(0, t - forward)，backward、forward 为单个块的反向、前向时间（compute / (f m vp)，前向占其 1 / linear passes）"},
    {"kInputCoresPerGpu x GPUs per node (planning rule of thumb: PyTorch DataLoader workers per GPU)",
     "kInputCoresPerGpu x 每节点 GPU 数（规划经验值：每卡 PyTorch DataLoader worker 数）"},
    {"kRuntimeOverheadBytes + kAllocatorFragmentation x dynamic tensors",
     "kRuntimeOverheadBytes + kAllocatorFragmentation x 动态张量"},
    {"largest b with total(b) <= capacity at the same global batch (none given: b x dp, nothing accumulating), by bisection over 1, 2, 4, ... (memory grows with b; where it does not, the first boundary found)",
     "在全局批大小不变时（未给出时为 b x dp，不做梯度累积）满足 total(b) <= capacity 的最大 b，按 1、2、4、… 二分查找（显存随 b 增长；不随 b 增长时取找到的第一个边界）"},
    {"layers of the busiest stage x micro-batches x ((1 + t, 1 + 2 t when attention's forward runs again) x (cp - 1) x b (s / cp) (k + v) x heads / kv_heads / tp x bytes + t x cp x b (s / cp) (k + v) x heads / kv_heads / tp x 4), t the trained share of the blocks (1 but for freeze-tuning, whose frozen blocks run forward only): PyTorch's ring (torchtitan) all-gathers the keys and values, expanded to every query head, in each forward and backward pass, and passes their fp32 gradients cp times around the ring; 0 without CP",
     "负载最重阶段的层数 x 微批数 x ((1 + t，注意力前向再次运行时为 1 + 2 t) x (cp - 1) x b (s / cp) (k + v) x heads / kv_heads / tp x bytes + t x cp x b (s / cp) (k + v) x heads / kv_heads / tp x 4)，t 为参与训练的层占比（除冻结微调外均为 1，冻结微调中被冻结的层只跑前向）：PyTorch 的环（torchtitan）在每次前向和反向中对扩展到每个查询头的键和值做 all-gather，并将其 fp32 梯度沿环传递 cp 次；无 CP 时为 0"},
    {"layers x (attention + MLP + 2 norms) + embedding + untied head + final norm (+ the multi-token prediction modules, model.params.mtp)",
     "层数 x (注意力 + MLP + 2 个归一化层) + 词嵌入 + 非共享输出层 + 最终归一化层（+ 多词元预测模块，model.params.mtp）"},
    {"layers x in-flight micro-batches x per-layer bytes of micro_batch x seq_len / cp tokens (Korthikanti et al. 2022 Table 2, per tensor; a fused gated activation keeps gate and up only; less the MLP's GEMM inputs under LoRA on attention only, whose frozen MLP keeps none; context parallelism splits the sequence, Liu et al. 2023 'Ring Attention'; with sequence parallelism Megatron keeps the QKV and MLP inputs sharded and gathers them again in backward, the DTensor plans of torchtitan and torchtune keep them gathered, whole); with full recompute a block keeps only its input, and with parallel.recompute_layers N only the first N blocks of each chunk recompute, the others keeping everything (Megatron-LM --recompute-method block); in flight: 1F1B min(pp - rank, m), interleaved 1F1B min((pp - rank - 1) x 2 + (vp - 1) x pp + 1, m vp) / vp, on the first stage pp (1 + (pp - 1) / (pp vp)) (Korthikanti et al. 2022 §4.2.3); with PyTorch's context-parallel ring (torchtitan, cp > 1) + what its attention backward holds beyond the logits, which the loss has freed by then: max(0, pytorch_ring_bytes - logits), pytorch_ring_bytes = b (s / cp) (k + v) x heads / kv_heads / tp x ((cp + 2) e + 3 x 4) + b (s / cp) q / tp x (4 + e) (the gathered keys and values, the chunk sent, three fp32 key/value gradient chunks and the 16-bit copy returned, an fp32 query gradient and its copy; torch.distributed.tensor.experimental _templated_ring_attention_backward)",
     "层数 x 在途微批数 x 每层在 micro_batch x seq_len / cp 个词元上的字节数（Korthikanti et al. 2022 Table 2，逐张量计算；融合的门控激活只保存 gate 与 up；LoRA 仅作用于注意力时扣除 MLP 的 GEMM 输入，因其冻结的 MLP 不保存任何激活值；上下文并行切分序列，Liu et al. 2023 'Ring Attention'；启用序列并行时，Megatron 按分片保存 QKV 与 MLP 的输入并在反向时重新收集，torchtitan 与 torchtune 的 DTensor 并行计划则保存收集后的完整张量）；完全重计算时每个块只保存其输入，设置 parallel.recompute_layers N 时只有每个流水线块的前 N 个块重计算，其余块保存全部激活（Megatron-LM --recompute-method block）；在途微批数：1F1B 为 min(pp - rank, m)，交错式 1F1B 为 min((pp - rank - 1) x 2 + (vp - 1) x pp + 1, m vp) / vp，第一阶段为 pp (1 + (pp - 1) / (pp vp))（Korthikanti et al. 2022 §4.2.3）；使用 PyTorch 的上下文并行环（torchtitan，cp > 1）时，再加上其注意力反向在 logits 之外占用的显存（此时损失计算已释放 logits）：max(0, pytorch_ring_bytes - logits)，pytorch_ring_bytes = b (s / cp) (k + v) x heads / kv_heads / tp x ((cp + 2) e + 3 x 4) + b (s / cp) q / tp x (4 + e)（依次为：收集到的键和值、发送的分块、三个 fp32 键/值梯度分块及回传的 16 位副本、一个 fp32 查询梯度及其副本；torch.distributed.tensor.experimental _templated_ring_attention_backward）"},
    {"logits + buffers + runtime: what is neither model state nor layer activations",
     "logits + 缓冲区 + 运行时：既非模型状态也非层激活值的部分"},
    {"max(0, cp.s - (cp - 1) / cp x this GPU's attention time): each transfer overlaps the attention of the chunk before it",
     "max(0, cp.s - (cp - 1) / cp x 本卡注意力时间)：每次传输与前一分块的注意力计算重叠"},
    {"max(0, step tokens x bytes per token / data tier read rate - step time): prefetching hides reads shorter than a step",
     "max(0, 每步词元数 x 每词元字节数 / 数据存储读取速率 - 单步时间)：预取可掩盖短于一步的读取"},
    {"max(total hours x overhead factor, minimum billing hours) x GPUs x USD per GPU-hour",
     "max(总小时数 x 额外开销系数, 最低计费小时数) x GPU 数 x 每卡时 USD"},
    {"max(used hours, the offering's minimum billing block): a rent sold by the month bills the whole month",
     "max(已用小时数, 该实例的最低计费周期)：按月出租的实例按整月计费"},
    {"micro-batches x offloaded layers x (max(0, copy - layer forward) + max(0, copy - layer backward)), copy = saved bytes of a layer / host link: each layer's copy runs beside the next layer's compute (Megatron-LM cpu_offload.py double buffer); layer time = stage compute / (micro-batches x stage layers), forward a third of its model FLOPs",
     "微批数 x 卸载层数 x (max(0, copy - 层前向) + max(0, copy - 层反向))，copy = 单层保存的字节数 / 主机链路带宽：每层的拷贝与下一层的计算并行（Megatron-LM cpu_offload.py 双缓冲）；层时间 = 阶段计算时间 / (微批数 x 阶段层数)，前向占其模型 FLOPs 的三分之一"},
    {"micro_batch x seq_len / cp x (2 e h + loss bytes per logit x V / tp): norm and head inputs (1 e h with PEFT or freeze-tuning and no fused loss: a frozen head keeps no input) and what the framework's loss holds at its peak (PyTorch cross-entropy on fp32 logits: Hugging Face, torchtitan, torchtune: 4 + 8 / loss_chunks; FSDP and DeepSpeed loops also keep the fp32 logits: + 4; torchtitan with TP > 1 runs PyTorch's unfused loss parallelism: 4 + 12 / loss_chunks; Megatron or torch.compile: e + 4 / loss_chunks); fused linear cross-entropy: one chunk of next_power_of_2(tokens / ceil(V / h)) tokens x (e + 4) V (Liger); Cut Cross-Entropy: none",
     "micro_batch x seq_len / cp x (2 e h + 每个 logit 的损失字节数 x V / tp)：归一化层与输出层的输入（PEFT 或冻结微调且未用融合损失时为 1 e h：冻结的输出层不保存输入），以及框架的损失计算在峰值时占用的显存（PyTorch 在 fp32 logits 上算交叉熵：Hugging Face、torchtitan、torchtune 为 4 + 8 / loss_chunks；FSDP 和 DeepSpeed 的训练循环还会保留 fp32 logits：+ 4；torchtitan 在 TP > 1 时使用 PyTorch 未融合的 loss parallelism：4 + 12 / loss_chunks；Megatron 或 torch.compile：e + 4 / loss_chunks）；融合线性层交叉熵：一个分块 next_power_of_2(tokens / ceil(V / h)) 个词元 x (e + 4) V（Liger）；Cut Cross-Entropy：无"},
    {"model FLOPs per step / (step_s x GPUs x dense peak); model FLOPs exclude recompute",
     "每步模型 FLOPs / (step_s x GPU 数 x 稠密峰值)；模型 FLOPs 不含重计算"},
    {"model FLOPs per step / step_s / GPUs",
     "每步模型 FLOPs / step_s / GPU 数"},
    {"model FLOPs per token x global_batch x seq_len (whole cluster)",
     "每词元模型 FLOPs x global_batch x seq_len（整个集群）"},
    {"mtp_layers x (one block of the model's last kind + a 2h x h projection + 3 norms): multi-token prediction modules (DeepSeek-V3 report §2.2), sharing the embedding and the output head; in model.params.total, not in active",
     "mtp_layers x (一个与模型最后一类层相同的层 + 一个 2h x h 投影 + 3 个归一化层)：多词元预测模块（DeepSeek-V3 report §2.2），共享词嵌入和输出层；计入 model.params.total，不计入 active"},
    {"no fused attention: the score GEMMs run as batched GEMMs at the GEMM efficiency",
     "无融合注意力：注意力分数 GEMM 以批量 GEMM 形式按 GEMM 效率运行"},
    {"no price in the catalog; give pricing.usd_per_gpu_hour",
     "目录中无价格；请设置 pricing.usd_per_gpu_hour"},
    {"no published rate of any attention kernel on this accelerator: its large-GEMM ratio is used",
     "该加速卡上没有任何注意力内核的公开速率：使用其大 GEMM 效率比值"},
    {"no published rate of this kernel on this accelerator: FlashAttention-2's measured rate here, at this length, x kTritonAttentionRatio for the Triton FlashAttention, x 1 for any other kernel (a floor of its class)",
     "该加速卡上没有此内核的公开速率：取 FlashAttention-2 在此卡、此长度下的实测速率，Triton 版 FlashAttention 再乘 kTritonAttentionRatio，其他内核乘 1（视为同类内核的下限）"},
    {"offload cpu: sharded optimizer states (+ ZeRO-3 weights) of every GPU of the node (ZeRO-Offload)",
     "卸载到 cpu：节点上每张卡切分后的优化器状态（+ ZeRO-3 权重）（ZeRO-Offload）"},
    {"offload nvme: sharded optimizer states (+ ZeRO-3 weights) of every GPU of the node (ZeRO-Infinity)",
     "offload nvme：节点内每张 GPU 切分后的优化器状态（+ ZeRO-3 权重）（ZeRO-Infinity）"},
    {"one GPU without accumulation (plain PyTorch): .grad is allocated during backward as the activations are freed, so its peak holds the activations or the gradients, not both; these gradients come after the activation peak and are not in the total (0 when the gradients are at the peak, or persist)",
     "单卡且无梯度累积（原生 PyTorch）：.grad 在反向过程中随激活值释放而分配，因此峰值时只有激活值或梯度之一，不会同时存在；这些梯度出现在激活值峰值之后，不计入合计（梯度处于峰值时或常驻时为 0）"},
    {"one GPU without accumulation: the activations and logits, freed before the gradients' peak, not in the total (0 when they are at the peak)",
     "单卡且无梯度累积：激活值与 logits 在梯度峰值之前释放，不计入合计（它们处于峰值时为 0）"},
    {"parameters a token uses (all of a dense model's, an MoE's active ones)",
     "每个词元用到的参数（稠密模型为全部参数，MoE 为激活参数）"},
    {"parameters on this GPU (routed experts / ep) x bytes per weight / (dp x cp) when ZeRO-3, the routed experts' / (dp x cp / ep) (ZeRO paper §3; Megatron-Core expert-data-parallel group); precision fp8 under Megatron without fp8_params, its weights whole (below ZeRO-3, or with pipeline stages), adds Transformer Engine's cached FP8 copy of the stage's block linears: fp8_cache_bytes (1 B each, 1 more for the FP8 transpose where FP8 GEMMs take only the TN layout, compute capability below 10.0 or 12.x, and a backward runs through the block)",
     "本卡上的参数量（路由专家 / ep） x 每个权重的字节数，ZeRO-3 时 / (dp x cp)，路由专家部分 / (dp x cp / ep)（ZeRO paper §3；Megatron-Core 专家数据并行组）；Megatron 下精度为 fp8、未设 fp8_params 且权重完整（低于 ZeRO-3，或有流水线阶段）时，另加 Transformer Engine 为本阶段块内线性层缓存的 FP8 副本：fp8_cache_bytes（每个 1 字节；在 FP8 GEMM 只接受 TN 布局的卡上（计算能力低于 10.0 或为 12.x）且该块要做反向时，FP8 转置再加 1 字节）"},
    {"parameters one token passes through: MoE counts top_k routed + shared experts only (dense: = total)",
     "单个词元经过的参数量：MoE 只计 top_k 个路由专家 + 共享专家（稠密模型：= 总参数量）"},
    {"per layer and micro-batch: each gather less 1/cp of its pass's attention (the first ring step runs while it arrives), each gradient hop less 1/cp of the backward attention, and the last hop in full, the backward's terms in the trained blocks only (torch.distributed.tensor.experimental context parallelism)",
     "每层每个微批：每次 gather 减去该遍注意力的 1/cp（环的第一步在数据到达期间运行），每次梯度传递减去反向注意力的 1/cp，最后一次传递全额计入；反向相关项只计参与训练的层（torch.distributed.tensor.experimental 上下文并行）"},
    {"pipeline schedules a step: parallel.pp_flushes with pipeline stages (torchtitan runs one per gradient-accumulation step), each filling and draining the pipeline; 1 without a pipeline",
     "每步的流水线调度次数：有流水线阶段时取 parallel.pp_flushes（torchtitan 每个梯度累积步运行一次调度），每次都填充并排空流水线；没有流水线时为 1"},
    {"point-to-point sends are not overlapped (1F1B, or parallel.pp_comm_overlap off): pp.exposed_s = pp.s",
     "点对点发送不与计算重叠（1F1B，或 parallel.pp_comm_overlap 关闭）：pp.exposed_s = pp.s"},
    {"pp.bytes / link bandwidth of the stage boundary; framework deepspeed: twice that (its engine receives and sends with separate blocking calls) + 3 all-gathers of b (s / cp) h over the tp ranks a micro-batch (its 1/tp partitions rebuilt: the received activation and gradient and the saved output)",
     "pp.bytes / 阶段边界处的链路带宽；framework 为 deepspeed 时为其两倍（其引擎用各自阻塞的调用接收和发送）再加每个微批在 tp 个 rank 上 3 次 b (s / cp) h 的 all-gather（重建其 1/tp 分片：收到的激活、收到的梯度和保存的输出）"},
    {"pricing.overhead_factor: debugging and reruns on top of training (planning rule of thumb: 1.3-1.5)",
     "pricing.overhead_factor：训练之外的调试与重跑（规划经验值：1.3-1.5）"},
    {"pricing.usd_per_gpu_hour",
     "pricing.usd_per_gpu_hour"},
    {"read throughput of the data tier (catalog storage)",
     "数据存储的读取吞吐（目录中的存储项）"},
    {"ring all-reduce 2 (n-1)/n x gradient bytes / bus bandwidth; ZeRO-1/2: a reduce-scatter of the gradients (each micro-batch with DeepSpeed's ZeRO-2) plus an all-gather of the 16-bit weights, (n-1)/n x bytes each; ZeRO-3: 1.5x per micro-batch; each once per pipeline schedule with parallel.pp_flushes (PyTorch pipelining reduces, and FSDP regathers, at each schedule's last backward); across nodes busbw = min(scale-up busbw, ranks per node x one NIC's busbw)",
     "环形 all-reduce 2 (n-1)/n x 梯度字节数 / 总线带宽；ZeRO-1/2：梯度的 reduce-scatter（DeepSpeed ZeRO-2 下每个微批一次）加 16 位权重的 all-gather，各为 (n-1)/n x 字节数；ZeRO-3：每个微批 1.5x；设置 parallel.pp_flushes 时以上每次流水线调度各一次（PyTorch pipelining 在每次调度的最后一次反向传播时归约梯度，FSDP 随后重新 gather）；跨节点时 busbw = min(节点内互联 busbw, 每节点 rank 数 x 单个网卡 busbw)"},
    {"scenario cluster.gpus (or instance GPUs x nodes)",
     "场景的 cluster.gpus（或实例 GPU 数 x 节点数）"},
    {"scenario cluster.gpus_per_node (or the instance's), min(8, gpus) by default",
     "场景的 cluster.gpus_per_node（或实例的该值），默认 min(8, gpus)"},
    {"scenario global_batch, or micro_batch x dp when 0",
     "场景中的 global_batch；为 0 时取 micro_batch x dp"},
    {"scenario micro_batch: sequences per GPU per micro-batch",
     "场景 micro_batch：每卡每个微批的序列数"},
    {"scenario parallel.cp (context parallel: each sequence split over cp GPUs)",
     "场景中的 parallel.cp（上下文并行：每条序列切分到 cp 张 GPU 上）"},
    {"scenario parallel.ep (expert parallel: the routed experts split over ep of the data-parallel GPUs)",
     "场景的 parallel.ep（专家并行：路由专家分布在 ep 张数据并行 GPU 上）"},
    {"scenario parallel.pp (pipeline stages, 1F1B)",
     "场景 parallel.pp（流水线阶段数，1F1B）"},
    {"scenario parallel.tp (tensor parallel, Megatron)",
     "场景 parallel.tp（张量并行，Megatron）"},
    {"scenario parallel.vp (virtual pipeline stages per rank, interleaved 1F1B)",
     "场景中的 parallel.vp（每个 rank 的虚拟流水线阶段数，交错式 1F1B）"},
    {"scenario parallel.zero: 1 shards optimizer states, 2 + gradients, 3 + weights (ZeRO paper)",
     "场景的 parallel.zero：1 切分优化器状态，2 再切分梯度，3 再切分权重（ZeRO 论文）"},
    {"size / write throughput of the checkpoint tier for the whole job",
     "大小 / 检查点存储面向整个作业的写入吞吐"},
    {"sum of tp, pp, dp and cp bytes whose group spans nodes, and the all-to-alls' inter-node share",
     "通信组跨节点的 tp、pp、dp 和 cp 字节数之和，加上 all-to-all 的节点间部分"},
    {"sum of tp, pp, dp and cp bytes whose group stays inside a node, and the all-to-alls' intra-node share",
     "通信组位于单个节点内的 tp、pp、dp 和 cp 字节数之和，加上 all-to-all 的节点内份额"},
    {"sum over the layers of their parameters (dense and MoE layers)",
     "各层参数量之和（稠密层与 MoE 层）"},
    {"the accelerator's measured forward + backward rate of this fused attention kernel / 16-bit dense peak, in the kernel's own FLOP count (catalog attention_efficiency), x its published change at the kernel's length, seq_len / cp (catalog attention_length_scale, interpolated in log2 length; 1 where none is published; the catalog source says where a part takes its architecture's), x its published change at the model's head dimension (catalog attention_head_dim_scale, the same way)",
     "该加速卡上此融合注意力内核实测的前向 + 反向速率 / 16 位稠密峰值，按内核自身的 FLOP 计数（目录 attention_efficiency），x 在内核长度 seq_len / cp 下已公开的变化（目录 attention_length_scale，按 log2 长度插值；未公开时为 1；某卡沿用其架构的数据时，目录来源会注明），x 在模型头维度下已公开的变化（目录 attention_head_dim_scale，方法相同）"},
    {"the framework's copies of weights and gradients on the compute stream / (HBM bandwidth x kMemBwEfficiency): FSDP2 (torch/distributed/fsdp/_fully_shard) copies each gathered 16-bit weight out of the all-gather buffer (read + write) at every gather, forward and backward per micro-batch or once per pipeline schedule with pipeline stages, and the gradients into the reduce-scatter buffer in the reduce dtype at every reduction; DeepSpeed's BF16_Optimizer adds each micro-batch's bf16 gradients into fp32 ones, 18 B per trained parameter (deepspeed/runtime/bf16_optimizer.py, update_hp_grads)",
     "框架在计算流上对权重和梯度的拷贝 / (HBM 带宽 x kMemBwEfficiency)：FSDP2（torch/distributed/fsdp/_fully_shard）每次 gather 时都会把 gather 得到的 16 位权重从 all-gather 缓冲区拷出（读 + 写），每个微批前向和反向各一次，有流水线阶段时则每次流水线调度一次；每次归约时把梯度以归约 dtype 拷入 reduce-scatter 缓冲区；DeepSpeed 的 BF16_Optimizer 将每个微批的 bf16 梯度累加到 fp32 梯度中，每个可训练参数 18 B（deepspeed/runtime/bf16_optimizer.py，update_hp_grads）"},
    {"the gathers / the CP group's bandwidth (each GPU's NIC across nodes, the scale-up link inside one) + cp - 1 latencies each, and cp gradient hops + one latency each in every trained block's backward",
     "各次 gather / CP 组带宽（跨节点为每卡网卡，节点内为节点内互联）+ 每次 cp - 1 个延迟，以及每个受训层反向中的 cp 次梯度传递，每次 + 一个延迟"},
    {"the routed experts' GEMMs run on the rows that reach an expert, at e_max x d_r / (d_r + kGemmHalfSize), d_r = min(tokens an expert-parallel rank draws from (x etp with sequence parallelism) x top_k x ep / experts, expert_ffn / etp, hidden); the other linear layers at their own figure (e_max x d / (d + kGemmHalfSize), d = min(micro_batch x seq_len / cp, hidden / tp), or its mix with the GEMMs tensor-parallel overlap splits); combined by FLOPs: 1 / (1 / e_rest - r / e_whole + r / e_routed), r the routed share of the linear-layer FLOPs; e_max is the accelerator's measured large-GEMM efficiency in the compute precision (catalog; FP8 falls back to the BF16 ratio) or kDefaultGemmEfficiency",
     "路由专家的 GEMM 只在到达该专家的行上运行，效率为 e_max x d_r / (d_r + kGemmHalfSize)，d_r = min(一个专家并行 rank 取词元的来源词元数（开启序列并行时 x etp） x top_k x ep / experts, expert_ffn / etp, hidden)；其余线性层按各自的效率（e_max x d / (d + kGemmHalfSize)，d = min(micro_batch x seq_len / cp, hidden / tp)，或其与张量并行通信重叠所切分 GEMM 的混合值）；按 FLOPs 加权合并：1 / (1 / e_rest - r / e_whole + r / e_routed)，r 为路由专家在线性层 FLOPs 中的占比；e_max 为该加速卡在计算精度下实测的大 GEMM 效率（取自目录；FP8 回退为 BF16 的比值）或 kDefaultGemmEfficiency"},
    {"tokens / params",
     "词元数 / 参数量"},
    {"0: no MoE blocks, no tokens routed to experts", "0：没有 MoE 块，没有路由到专家的词元"},
    {"0: no context parallelism or no fused attention kernel", "0：没有上下文并行，或没有融合注意力内核"},
    {"tokens x layers per stage x (forward passes x fwd + trained share x bwd) bytes / (HBM bandwidth x kMemBwEfficiency): ring attention's merges of each step's partial output and gradients, for the last CP rank, per output (o / tp), query (q / tp) and key/value (kv / tp) element of a token. Transformer Engine (16-bit, AttnFuncWithCPAndKVP2P): fwd (2 + 3 (cp - 1)) e o, bwd (2 + 3 (cp - 1)) e q + (2 + 1.5 (cp - 1)) e kv; PyTorch (_SDPAMerger, fp32): fwd (8 + 2 e + (cp - 1) (36 + e)) o + 2 e (cp - 1) kv, bwd (8 + e + (8 + e) cp) q + (16 + 2 e + (cp - 1) (20 + 2.5 e)) kv; part of memory_bound_s",
     "词元数 x 每段层数 x (前向遍数 x fwd + 参与训练的比例 x bwd) 字节 / (HBM 带宽 x kMemBwEfficiency)：环形注意力把每一步的部分输出与梯度合并起来，按最后一个 CP rank 计，按每个词元的输出元素 (o / tp)、查询元素 (q / tp) 与键/值元素 (kv / tp) 计。Transformer Engine（16 位，AttnFuncWithCPAndKVP2P）：fwd (2 + 3 (cp - 1)) e o，bwd (2 + 3 (cp - 1)) e q + (2 + 1.5 (cp - 1)) e kv；PyTorch（_SDPAMerger，fp32）：fwd (8 + 2 e + (cp - 1) (36 + e)) o + 2 e (cp - 1) kv，bwd (8 + e + (8 + e) cp) q + (16 + 2 e + (cp - 1) (20 + 2.5 e)) kv；计入 memory_bound_s"},
    {"0: no LoRA adapters (method is not lora or qlora)", "0：没有 LoRA 适配器（method 不是 lora 或 qlora）"},
    {"result + lora_B(lora_A(x)) x scale, in rows of the adapted layers' inputs (in) and outputs (out) a token and block: max(GEMM rows (forwards + 2) (in + out) x bytes / (HBM bandwidth x kMemBwEfficiency), 2 rank FLOPs a GEMM row / GEMM rate) - adapter FLOPs in gemm_s, at least 0; + pointwise rows x bytes / the same bandwidth: eager 5 out x forwards + 3 in + 2 out, torch.compile out x forwards + in + out, PEFT's fp32 adapters (hf, 16-bit) + 6 in x (forwards + 1), its 4-bit clone + 2 out x forwards; forwards 1 + r with full recompute (r the share of the blocks that recompute), 2 with selective_op; x token-blocks per stage",
     "result + lora_B(lora_A(x)) x scale，按每个词元、每个块被适配层的输入（in）与输出（out）宽度的行计：max(GEMM 行 (forwards + 2) (in + out) x 字节数 / (HBM 带宽 x kMemBwEfficiency)，每个 GEMM 行 2 rank FLOPs / GEMM 速率) - gemm_s 中已有的适配器 FLOPs，不低于 0；+ 逐元素算子的行 x 字节数 / 同一带宽：eager 5 out x forwards + 3 in + 2 out，torch.compile out x forwards + in + out，PEFT 的 fp32 适配器（hf，16 位）+ 6 in x (forwards + 1)，其 4 位层的克隆 + 2 out x forwards；完全重计算时 forwards 为 1 + r（r 为重计算的块所占比例），selective_op 时为 2；x 每段的词元数 x 块数"},
    {"tokens x MoE blocks per stage x passes (forward, backward, + a forward rerun by full or selective_op recompute) x hidden-wide rows copied per token x h (/ tp with sequence parallelism) x bytes / (HBM bandwidth x kMemBwEfficiency); rows: permute k copies in and out, unpermute k in and 1 out, 3 k + 1; without EP x expert TP with sequence parallelism (the allgather dispatcher permutes the gathered tokens); the all-to-all dispatcher with several experts a rank + 4 k (x expert TP with sequence parallelism) for its sort by local expert and back; DeepEP 3 k + R, R the ranks a token reaches; HybridEP 0, its kernels placing the rows in expert order; with parallel.moe_capacity_factor c the all-to-all dispatcher's k is c k, the padded rows (Megatron-Core token_dispatcher.py, moe_utils.permute, unpermute, sort_chunks_by_idxs); part of memory_bound_s",
     "词元数 x 每阶段 MoE 层数 x 遍数（前向、反向，full 或 selective_op 重计算再 + 一次前向重算）x 每词元复制的 hidden 宽度行数 x h（启用序列并行时 / tp）x 字节数 / (HBM 带宽 x kMemBwEfficiency)；行数：permute 读入和写出各 k 份，unpermute 读入 k 份、写出 1 份，共 3 k + 1；不用 EP 时，启用序列并行则 x 专家 TP（allgather dispatcher 对收集到的词元做 permute）；每个 rank 有多个专家时，all-to-all dispatcher 还要按本地专家排序再还原，+ 4 k（启用序列并行时 x 专家 TP）；DeepEP 为 3 k + R，R 为一个词元到达的 rank 数；HybridEP 为 0，其内核直接按专家顺序放置各行；设置 parallel.moe_capacity_factor c 时，all-to-all dispatcher 的 k 变为 c k，即填充后的行数（Megatron-Core token_dispatcher.py、moe_utils.permute、unpermute、sort_chunks_by_idxs）；属于 memory_bound_s 的一部分"},
    {"total USD / (steps x tokens per step / 1e9: the tokens the run's whole steps train); without training tokens, 1e9 / tokens per second / 3600 x (1 + reliability overhead) x overhead factor x GPUs x USD per GPU-hour",
     "总 USD / (步数 x 每步词元数 / 1e9：本次训练全部整步所训练的词元数)；未给出训练词元数时，1e9 / 每秒词元数 / 3600 x (1 + 可靠性开销) x 额外开销系数 x GPU 数 x 每卡时 USD"},
    {"total USD x USD->CNY rate (catalog currency)",
     "总 USD x USD->CNY 汇率（目录币种）"},
    {"total hours / 24",
     "总小时数 / 24"},
    {"total hours x interruptions per hour",
     "总小时数 x 每小时中断次数"},
    {"total hours x overhead factor: the wall-clock hours paid for",
     "总小时数 x 额外开销系数：需付费的实际小时数"},
    {"tp x cp x pp x dp",
     "tp x cp x pp x dp"},
    {"tp.s on the critical path; with parallel.tp_comm_overlap tp.s - min(tp.s x overlapped / collectives, kTpCommOverlap x compute): Megatron-LM's userbuffers overlap every collective, PyTorch's async TP the forward's 2 per layer; the expert-TP group's gathers and scatters are the MoE dispatcher's own, exposed",
     "tp.s 位于关键路径上；开启 parallel.tp_comm_overlap 时为 tp.s - min(tp.s x overlapped / collectives, kTpCommOverlap x compute)：Megatron-LM 的 userbuffers 重叠所有集合通信，PyTorch async TP 只重叠每层前向的 2 个；专家张量并行组的 gather 与 scatter 属于 MoE 分发器自身，不被掩盖"},
    {"trained parameters on this GPU x (fp32 master + optimizer state bytes) / (dp x cp) when ZeRO >= 1, the routed experts' / (dp x cp / ep)",
     "本卡上的可训练参数量 x (fp32 主权重 + 优化器状态字节数)，ZeRO >= 1 时 / (dp x cp)，路由专家部分 / (dp x cp / ep)"},
    {"trained parameters on this GPU x gradient bytes / (dp x cp) when ZeRO >= 2, the routed experts' / (dp x cp / ep) (0 at the activation peak of a single process); DeepSpeed's BF16_Optimizer adds 4 B of fp32 gradient per trained parameter; Megatron-Core's gradient buffer is fp32 with techniques.fp32_grad_reduce",
     "本卡上的可训练参数量 x 梯度字节数，ZeRO >= 2 时 / (dp x cp)，路由专家部分 / (dp x cp / ep)（单进程在激活值峰值时为 0）；DeepSpeed 的 BF16_Optimizer 每个可训练参数额外增加 4 B fp32 梯度；开启 techniques.fp32_grad_reduce 时，Megatron-Core 的梯度缓冲区为 fp32"},
    {"trained parameters x (16-bit weights + fp32 master + optimizer states) bytes",
     "可训练参数量 x (16 位权重 + fp32 主权重 + 优化器状态) 字节数"},
    {"training hours x (1 + write/interval + (interval/2 + restart) / MTBI)",
     "训练小时数 x (1 + 写入时间/间隔 + (间隔/2 + 重启时间) / MTBI)"},
    {"training tokens",
     "训练词元数"},
    {"usable GPU memory: cluster.gpu_memory_gb x 1e9 (catalog or override)",
     "每卡可用显存：cluster.gpu_memory_gb x 1e9（取自目录或手动覆盖）"},
    {"vocab x hidden (+ learned positions x hidden)",
     "vocab x hidden（+ 可学习位置数 x hidden）"},
    {"vocab x hidden for an untied output head, 0 when tied to the embedding",
     "输出层不与词嵌入共享时为 vocab x hidden，与词嵌入共享时为 0"},
    {"weights + gradients + optimizer + activations + logits + buffers + runtime",
     "权重 + 梯度 + 优化器 + 激活值 + logits + 缓冲区 + 运行时"},
    {"with parallel.tp_comm_overlap the overlapped GEMMs run on a part of the micro-batch's tokens each, at the GEMM efficiency of that size: 1 / (whole share / e(tokens) + split_by_tp / e(tokens / tp) + split_by_4 / e(tokens / 4)), e(t) = e_max x d / (d + kGemmHalfSize), d = min(t, hidden / tp), tokens = micro_batch x seq_len / cp; e_max is the accelerator's measured large-GEMM efficiency in the compute precision (catalog; FP8 falls back to the BF16 ratio) or kDefaultGemmEfficiency. Megatron-Core (Transformer Engine userbuffers, default methods): forward QKV and FC1 and the data gradients of the output projection and FC2 by tp (ring exchange), forward output projection and FC2 by 4 (pipeline); PyTorch async TP: the forward's four by tp",
     "开启 parallel.tp_comm_overlap 时，被重叠的 GEMM 每次只处理微批的一部分词元，按该尺寸下的 GEMM 效率计算：1 / (whole share / e(tokens) + split_by_tp / e(tokens / tp) + split_by_4 / e(tokens / 4))，e(t) = e_max x d / (d + kGemmHalfSize)，d = min(t, hidden / tp)，tokens = micro_batch x seq_len / cp；e_max 为该加速卡在计算精度下实测的大 GEMM 效率（目录；FP8 回退为 BF16 的比值），或 kDefaultGemmEfficiency。Megatron-Core（Transformer Engine userbuffers，默认方法）：前向的 QKV 与 FC1，以及输出投影与 FC2 的数据梯度按 tp 切分（ring exchange），前向的输出投影与 FC2 按 4 切分（pipeline）；PyTorch async TP：前向的这四个按 tp 切分"},
    {"work of the busiest pipeline stage / the average stage's, in blocks (the last stage also runs the logit layer, V h / (block matmul parameters + attention FLOPs / 2) blocks, and the multi-token prediction modules): the pipeline moves at the pace of its busiest stage (compute_s includes it)",
     "最忙流水线阶段的工作量 / 平均阶段的工作量，以层计（最后阶段还要运行 logit 层，折合 V h / (每层矩阵乘参数量 + 注意力 FLOPs / 2) 层，以及多词元预测模块）：流水线按最忙阶段的节奏推进（compute_s 已包含该项）"},
    {"write / interval + (interval / 2 + restart) / MTBI (Young 1974 / Daly 2006)",
     "写入时间 / 间隔 + (间隔 / 2 + 重启时间) / MTBI（Young 1974 / Daly 2006）"},
};

// Formulas the core assembles around a count, an id or a list: {0}, {1} ... stand for any text,
// in the English order, and the Chinese may place them elsewhere.
constexpr FormulaWording kFormulaPatternsChinese[] = {
    {"80 % interval: the 10th and 90th percentiles of published / estimated over {0} published runs estimated after calibrating on another row of their table of {1} families ({2}) sharing: {3}; families weigh equally (validation residuals of tests/validation/cases.json)",
     "80 % 区间：{0} 个已发表运行（各按其表中另一行校准后再估计；{1} 个来源系列：{2}）的“发表值 / 估计值”的第 10 与第 90 百分位，这些运行共有：{3}；各来源系列权重相同（tests/validation/cases.json 的验证残差）"},
    {"80 % interval: the 10th and 90th percentiles of published / estimated over {0} published runs of {1} families ({2}) sharing: {3}; families weigh equally (validation residuals of tests/validation/cases.json)",
     "80 % 区间：{0} 个已发表运行（{1} 个来源系列：{2}）的“发表值 / 估计值”的第 10 与第 90 百分位，这些运行共有：{3}；各来源系列权重相同（tests/validation/cases.json 的验证残差）"},
    {"median {0} price per GPU of the {1} catalog instances with {2}", "目录中 {1} 个 {2} 实例的 {0} 单卡价格中位数"},
    {"catalog instance {0} ({1}, {2}, as of {3})", "目录实例 {0}（{1}，{2}，数据截至 {3}）"},
};
// clang-format on

// The regime features a range's runs share (ranges.cpp kFeatureWords), as the pattern above fills them.
constexpr FormulaWording kRangeFeaturesChinese[] = {
    {"framework", "训练框架"},
    {"sequence-length band", "序列长度区间"},
    {"accelerator class", "加速卡档次"},
    {"PEFT or full training", "参数高效微调或全量训练"},
    {"single- or multi-node", "单节点或多节点"},
    {"none (every run of the group)", "无（该组的全部运行）"},
};

// A list of feature words in Chinese, joined by 、; the list as it is when a word is unknown.
std::string features_chinese(const std::string& list) {
  std::string out;
  size_t at = 0;
  while (at <= list.size()) {
    const size_t comma = std::min(list.find(", ", at), list.size());
    const std::string_view word = std::string_view(list).substr(at, comma - at);
    const FormulaWording* hit = nullptr;
    for (const FormulaWording& f : kRangeFeaturesChinese)
      if (word == f.en) hit = &f;
    if (!hit) return list;
    out += (out.empty() ? "" : "、") + std::string(hit->zh);
    at = comma + 2;
  }
  return out;
}

// Whether `text` is `pattern` with text in place of its {0}, {1} ... (each followed by a literal
// that ends it, or by the end); the pieces go to `args` in order.
bool match_formula(std::string_view pattern, std::string_view text, std::vector<std::string>& args) {
  args.clear();
  size_t p = 0, t = 0;
  while (p < pattern.size()) {
    const size_t open = pattern.find('{', p);
    const std::string_view literal = pattern.substr(p, (open == std::string_view::npos ? pattern.size() : open) - p);
    if (text.substr(t, literal.size()) != literal) return false;
    t += literal.size();
    if (open == std::string_view::npos) return t == text.size();
    p = pattern.find('}', open) + 1;
    const size_t next = pattern.find('{', p);
    const std::string_view after = pattern.substr(p, (next == std::string_view::npos ? pattern.size() : next) - p);
    // The last literal ends the text; a middle one is its first occurrence.
    const size_t end =
        next == std::string_view::npos ? text.size() - std::min(after.size(), text.size() - t) : text.find(after, t);
    if (end == std::string_view::npos || end < t) return false;
    args.emplace_back(text.substr(t, end - t));
    t = end;
  }
  return t == text.size();
}

}  // namespace

const char* vendor_name(const std::string& id) {
  // The catalog's vendor ids as the makers write their names.
  static const struct {
    const char *id, *en, *zh;
  } kVendors[] = {{"nvidia", "NVIDIA", "NVIDIA"}, {"amd", "AMD", "AMD"}, {"huawei", "Huawei", "华为"}};
  for (const auto& v : kVendors)
    if (id == v.id) return g_lang == Lang::zh ? v.zh : v.en;
  return id.c_str();
}

std::string formula_text(const std::string& english) {
  if (g_lang == Lang::en) return english;
  for (const FormulaWording& f : kFormulaChinese)
    if (english == f.en) return f.zh;
  std::vector<std::string> args;
  for (const FormulaWording& f : kFormulaPatternsChinese) {
    if (!match_formula(f.en, english, args)) continue;
    for (std::string& a : args) a = features_chinese(a);
    return fill_positional(f.zh, args);
  }
  return english;
}

std::vector<FormulaWording> formula_wordings() {
  std::vector<FormulaWording> out(std::begin(kFormulaChinese), std::end(kFormulaChinese));
  out.insert(out.end(), std::begin(kFormulaPatternsChinese), std::end(kFormulaPatternsChinese));
  return out;
}

const char* input_error_chinese(std::string_view code) {
  for (const InputErrorChinese& w : kInputErrorChinese)
    if (code == w.code) return w.zh;
  return nullptr;
}

std::string input_error_text(const InputError& e) {
  const char* zh = g_lang == Lang::zh && !e.code.empty() ? input_error_chinese(e.code) : nullptr;
  if (!zh) return e.message;
  // The field as the core named it in the message: the app may have pointed e.field at a widget's
  // id (the planner form's "planner.budget_usd" for constraints.budget_usd).
  const size_t colon = e.message.find(": ");
  const std::string field = colon == std::string::npos ? e.field : e.message.substr(0, colon);
  return field + "：" + fill_positional(zh, e.args);
}

std::string link_notice_text(const LinkNotice& notice) {
  if (g_lang == Lang::en) return notice.message;
  for (const NoticeWording& w : kNoticeWordings) {
    if (notice.code != w.code) continue;
    std::string out = tr(w.text);
    // A reason that is an input error with a code reads in Chinese too.
    const char* reason_zh = notice.reason_code.empty() ? nullptr : input_error_chinese(notice.reason_code);
    for (const auto& [name, given] : notice.args) {
      const std::string value = name == "reason" && reason_zh ? fill_positional(reason_zh, notice.reason_args) : given;
      const std::string key = "{" + name + "}";
      for (size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + value.size()))
        out.replace(at, key.size(), value);
    }
    return out;
  }
  return notice.message;
}

const char* tr(S s) {
  const Entry& e = kStrings[static_cast<size_t>(s)];
  return g_lang == Lang::zh ? e.zh : e.en;
}

Lang language() { return g_lang; }
void set_language(Lang lang) { g_lang = lang; }

const char* all_strings(Lang lang) {
  static std::array<std::string, 2> joined;
  std::string& out = joined[static_cast<size_t>(lang)];
  if (out.empty()) {
    for (const Entry& e : kStrings) out += lang == Lang::zh ? e.zh : e.en;
    if (lang == Lang::zh) {
      for (const InputErrorChinese& w : kInputErrorChinese) out += w.zh;
      for (const FormulaWording& f : kFormulaChinese) out += f.zh;
      for (const FormulaWording& f : kFormulaPatternsChinese) out += f.zh;
      for (const FormulaWording& f : kRangeFeaturesChinese) out += f.zh;
    }
  }
  return out.c_str();
}

}  // namespace llmplan::web
