// i18n.cpp: the UI string table. Fonts are subset to the characters in this file (see
// web/CMakeLists.txt), so every UI string must live here.
#include "i18n.hpp"

#include <array>
#include <string>

namespace llmplan::web {
namespace {

struct Entry {
  S id;
  const char* en;
  const char* zh;
};

// Order matches enum S; checked at start-up by string_table().
constexpr Entry kStrings[] = {
    {S::tagline, "Will it fit? GPU memory for training a large language model", "放得下吗？大模型训练的单卡显存估算"},
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
    {S::unit_note, "GB = 10^9 bytes, GiB = 2^30 bytes", "GB = 10^9 字节，GiB = 2^30 字节"},
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
    {S::dismiss, "Dismiss", "知道了"},
    {S::view_results, "Results", "结果"},
    // [planner strings: add above this line]
    // [estimate strings: add above this line]
};
static_assert(sizeof(kStrings) / sizeof(kStrings[0]) == static_cast<size_t>(S::count), "one entry per S");

constexpr bool table_in_order() {
  for (size_t i = 0; i < static_cast<size_t>(S::count); ++i)
    if (static_cast<size_t>(kStrings[i].id) != i) return false;
  return true;
}
static_assert(table_in_order(), "kStrings must follow the order of enum S");

Lang g_lang = Lang::en;

}  // namespace

const char* tr(S s) {
  const Entry& e = kStrings[static_cast<size_t>(s)];
  return g_lang == Lang::zh ? e.zh : e.en;
}

Lang language() { return g_lang; }
void set_language(Lang lang) { g_lang = lang; }

const char* all_strings(Lang lang) {
  static std::array<std::string, 2> joined;
  std::string& out = joined[static_cast<size_t>(lang)];
  if (out.empty())
    for (const Entry& e : kStrings) out += lang == Lang::zh ? e.zh : e.en;
  return out.c_str();
}

}  // namespace llmplan::web
