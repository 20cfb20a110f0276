// card.js: the result card of an estimate, a planner question or an own-or-rent question as HTML,
// in English or Chinese. The embed page (embed.js) shows it in an iframe; the app (app.js) keeps it
// as the text view of its canvas, for screen readers, text selection and browser translation.
//   llmplanCard.create(lang) -> {T, el, list, footer, noticesOf, scenarioCard(api, opened, fragment,
//     result), questionCard(api, opened, fragment, plan), tcoCard(api, opened, fragment, answer)}:
//     each card is an array of DOM nodes; fragment null: no "Open in llmplan" footer.
// Every figure is the core's as it is; this file only formats and words them.
(function (global) {
  'use strict';

  function create(lang) {
    // [SECTION] strings: one table per language, the same keys in each.
    var STRINGS = {
      en: {
        title: 'llmplan estimate', loading: 'Computing…', noLink: 'This embed has no scenario.',
        noLinkHint: 'Use embed.html#<link fragment>: copy a link from llmplan and put embed.html before its #.',
        invalid: 'This scenario cannot be estimated', failed: 'llmplan could not start',
        fits: 'Fits', noFit: 'Does not fit', memory: 'Per-GPU memory', of: 'of', step: 'Step time',
        total: 'Training time', cost: 'Cost', mfu: 'MFU', tier: 'Tier', throughput: 'Tokens/s',
        rangeTitle: '80 % range, read off comparable published runs', warnings: 'Warnings', notices: 'Link notices', changed: 'Catalog changed since the link was made',
        modelChanged: 'Figures changed since this link was made (estimator model {from} → {to})',
        catalog: 'catalog', open: 'Open in llmplan', gpus: 'GPUs', node: 'node', nodes: 'nodes',
        days: 'days', hours: 'h', layout: 'layout', plan: 'Best plan', planCount: 'plans ranked',
        noPlan: 'No plan satisfies the constraints', microBatch: 'micro-batch', moreWarnings: 'more',
        methods: { pretrain: 'pretraining', continued: 'continued pretraining', full: 'full fine-tune', lora: 'LoRA',
                   qlora: 'QLoRA', freeze: 'freeze-tuning' },
        calibrated: 'Calibrated with a measured {what} on {gpus} × {hw}',
        notCalibrated: 'Not calibrated: measured {what} on {gpus} × {hw}, another accelerator',
        measured: { tokens_per_s_per_gpu: '{v} tokens/s per GPU', step_s: 'step of {v} s', mfu: 'MFU of {v}',
                    peak_memory_gib: 'peak of {v} GiB per GPU', other: 'bandwidth' },
        measuredRange: 'measured', billed: 'Billed (minimum block)', used: '{h} used',
        noTokens: 'no training tokens: set them for the run\'s length and cost',
        textViewLabel: 'llmplan results as text', breakdown: 'Memory per GPU', component: 'Component',
      parts: { weights: 'Weights', gradients: 'Gradients', optimizer: 'Optimizer states', activations: 'Activations',
               logits: 'Logits and loss', buffers: 'Communication buffers', runtime: 'CUDA context and fragmentation',
               other: 'Other', total: 'Total' },
      topPlans: 'Top plans', planLine: '{rank}. {gpus} × {hw} on {instance}: {time}, {cost}',
      tcoTitle: 'Own or rent', servers: '{n} × {gpus}-GPU {hw} servers', capex: 'Capex', ownMonth: 'Owning a month',
        ownHour: 'Owning per GPU-hour', utilisation: 'at {u} utilisation', breakEven: 'Break-even against {mode}',
        never: 'never', months: '{m} months', above: 'owning pays above {u}',
        modes: { on_demand: 'on-demand', reserved_1yr: 'reserved 1 year', reserved_3yr: 'reserved 3 years', spot: 'spot' },
        tcoNotices: { left_out: '{f}: no sourced default, so this cost is left out',
                      us_figure_used: '{f}: no sourced Chinese figure, the US one is used' }
      },
      zh: {
        title: 'llmplan 估算', loading: '计算中…', noLink: '此嵌入没有场景。',
        noLinkHint: '使用 embed.html#<链接片段>：复制 llmplan 的链接，把 embed.html 放在 # 之前。',
        invalid: '无法估算此场景', failed: 'llmplan 无法启动',
        fits: '放得下', noFit: '放不下', memory: '每卡显存', of: '/', step: '单步时间',
        total: '训练时长', cost: '费用', mfu: 'MFU', tier: '等级', throughput: '每秒 token',
        rangeTitle: '80% 区间，依据可比的公开训练记录', warnings: '警告', notices: '链接提示', changed: '链接创建后目录有变化',
        modelChanged: '此链接创建后估算结果已有变化（估算模型 {from} → {to}）',
        catalog: '目录', open: '在 llmplan 中打开', gpus: '张 GPU', node: '个节点', nodes: '个节点',
        days: '天', hours: '小时', layout: '并行', plan: '最佳方案', planCount: '个方案已排序',
        noPlan: '没有满足约束的方案', microBatch: '微批', moreWarnings: '更多',
        methods: { pretrain: '预训练', continued: '继续预训练', full: '全参微调', lora: 'LoRA', qlora: 'QLoRA',
                   freeze: '冻结微调' },
        calibrated: '已按实测校准：{gpus} × {hw} 上实测{what}',
        notCalibrated: '未校准：实测{what}来自 {gpus} × {hw}，与本方案的加速卡不同',
        measured: { tokens_per_s_per_gpu: '每卡 {v} tokens/s', step_s: '单步 {v} 秒', mfu: 'MFU {v}',
                    peak_memory_gib: '每卡显存峰值 {v} GiB', other: '带宽' },
        measuredRange: '实测', billed: '计费时长（最低计费周期）', used: '实际使用 {h}',
        noTokens: '未设训练词元数：填写后可得训练时长与费用',
        textViewLabel: 'llmplan 结果（文字版）', breakdown: '单卡显存', component: '组成部分',
      parts: { weights: '权重', gradients: '梯度', optimizer: '优化器状态', activations: '激活值', logits: 'Logits 与损失',
               buffers: '通信缓冲区', runtime: 'CUDA 上下文与显存碎片', other: '其他', total: '合计' },
      topPlans: '最佳方案', planLine: '{rank}. {gpus} × {hw}，{instance}：{time}，{cost}',
      tcoTitle: '自购还是租用', servers: '{n} 台 {gpus} 卡 {hw} 服务器', capex: '一次性投入', ownMonth: '自购每月',
        ownHour: '自购每使用卡时', utilisation: '利用率 {u}', breakEven: '对比{mode}的回本时间',
        never: '不会回本', months: '{m} 个月', above: '利用率高于 {u} 时自购更划算',
        modes: { on_demand: '按需', reserved_1yr: '预留 1 年', reserved_3yr: '预留 3 年', spot: '竞价' },
        tcoNotices: { left_out: '{f}：没有带出处的默认值，此项成本未计入',
                      us_figure_used: '{f}：没有带出处的国内数据，使用美国数据换算' },
        // Link notices by the core's code (kLinkNoticeCodes); English shows the core's message.
        linkNotices: {
          link_too_long: '链接超过 {max} 个字符，超出部分已忽略',
          newer_format: '由更新版本的 llmplan 生成（链接格式 {version}），本版本不认识的字段已忽略',
          bad_format_version: '"{value}"不是链接格式版本，按版本 1 读取',
          missing_format_version: '缺少链接格式版本，按版本 1 读取',
          bad_catalog_version: '"{value}"不是目录版本，已忽略',
          catalog_unavailable: '链接由目录 {made_with} 生成，本版本没有该目录：已用 {used} 打开，价格和硬件数据可能不同',
          newer_model: '由更新的估算模型生成（模型 {model}），结果可能不同',
          bad_model_version: '"{value}"不是估算模型版本，按模型 1 读取',
          bad_view_state: '视图状态不是纯文本，已忽略',
          unknown_code: '未知字段代码"{code}"，已忽略',
          duplicate: '重复出现，保留第一个值',
          invalid_default: '{reason}；已使用默认值',
          invalid_dropped: '{reason}（已删除 {dropped}）；已使用默认值',
          invalid_model: '{reason}；已改用模型 {model}',
          invalid: '{reason}',
          missing_model: '缺少模型，已使用 {model}',
          question_scenario_only: '这是规划器问题：此处显示它的场景，规划器本身用命令 llmplan plan 运行',
          catalog_damaged: '该链接的目录版本已损坏：{reason}',
          catalog_release_missing: '无法加载目录版本 {version}（离线且未缓存？）：数字改用目录 {used}'
        }
      }
    };

    var T = STRINGS[lang];

    // Warnings in Chinese, by the core's warning code (docs/results.md), with its value and limit;
    // the English card shows the core's own message. The same wording as the app (web/i18n.cpp).
    var WARNINGS_ZH = {
      memory_exceeds: function (w) {
        return (w.one_gpu ? '需要 ' : '每卡需要 ') + gb(w.value) + '，但显卡只有 ' + gb(w.limit) + '：' + remedyList(w.remedies) + '。';
      },
      tp_crosses_nodes: function (w) { return '张量并行 ' + num(w.value, 0) + ' 跨越了 ' + num(w.limit, 0) + ' 卡的节点：每层的 all-reduce 都要走节点间网络。应让张量并行留在节点内。'; },
      seq_exceeds_context: function (w) { return '序列长度 ' + num(w.value, 0) + ' 超过模型训练时的上下文 ' + num(w.limit, 0) + ' 词元；长上下文训练需要位置缩放（如 RoPE 缩放）。'; },
      multinode_without_rdma: function (w) { return '多节点但没有 RDMA：梯度走 ' + sig(w.value) + ' Gb/s 的内核 TCP。应使用 InfiniBand 或 RoCE（每节点至少 ' + sig(w.limit) + ' Gb/s）。'; },
      data_on_block_disk: function (w) { return '训练数据放在云硬盘上（任务可得 ' + sig(w.value) + ' MB/s；GPU 读取 ' + sig(w.limit) + ' MB/s）：应先拷到本地 NVMe 或使用并行文件系统。'; },
      io_bound: function (w) { return 'GPU 每秒消耗 ' + sig(w.value) + ' MB，但数据存储只能提供 ' + sig(w.limit) + ' MB/s：训练会等数据。应使用本地 NVMe 或更快的存储。'; },
      host_ram_below_2x_gpu: function (w) { return '主机内存 ' + sig(w.value) + ' GB 不到节点显存（' + sig(w.limit) + ' GB）的两倍：加载检查点、锁页缓冲和卸载都需要余量。'; },
      few_vcpus: function (w) { return '每节点只有 ' + num(w.value, 0) + ' 个 vCPU：数据加载可能拖慢 GPU。至少选 ' + num(w.limit, 0) + ' 个。'; },
      pcie_only_gpus: function (w) { return '卡间只有 PCIe（每方向 ' + sig(w.value) + ' GB/s，NVLink 为 300-900）：梯度和张量并行通信很慢。'; },
      checkpoints_on_local_disk: function (w) { return num(w.value, 0) + ' 个节点的任务把检查点写到本地盘：丢失一个节点就丢失其分片。应保存到共享存储。'; },
      offload_exceeds_host_ram: function (w) { return 'CPU 卸载每节点需要 ' + gb(w.value) + ' 内存，但节点只有 ' + gb(w.limit) + '。'; },
      comm_dominates: function (w) { return '未被掩盖的通信占了每步 ' + seconds(w.limit) + ' 中的 ' + seconds(w.value) + '：速度由网络而不是 GPU 决定。'; },
      no_price: function () { return '目录中没有该加速卡在此计费方式下的价格：请填写价格覆盖以查看费用。'; },
      spot_without_rate: function () { return '竞价计费但未填写竞价中断率：中断、丢失的工作量和检查点频率都未计入。'; },
      reserved_term: function (w) { return '预留实例按整个 ' + duration(w.value / 3600) + ' 期限计费，不论是否使用；本次训练只用其中 ' + duration(w.limit / 3600) + '。费用只计这些小时，即预留实例在其他工作也占满时分摊到本次的部分；若只为本次训练预留，则整个期限都要付费（可与按需或竞价计费对比）。'; },
      minimum_billing: function (w) { return '该云产品按最低计费周期收费：计费 ' + duration(w.value / 3600) + '，实际使用 ' + duration(w.limit / 3600) + '，费用按整个周期计算。'; },
      unsupported_layout: function (w) { return '规划器支持的训练框架都不能运行此并行方式：' + (RULES_ZH[w.rule_id] || w.rule || '') + '。这些数字假定它能运行；规划器不会推荐它。'; },
      slow_attention_kernel: function (w) { return '使用所选注意力内核时，注意力每步耗时 ' + seconds(w.value) + '；目录中 ' + (KERNELS_ZH[w.kernel] || w.kernel || '') + ' 在本 GPU 上的速率是它的两倍以上，约需 ' + seconds(w.limit) + '。若训练框架支持，可在 parallel.attention_kernel 中改选它。'; },
      known_slow_path: function (w) { return '在 ' + (SLOW_PATHS_ZH[w.slow_path] || w.slow_path || '') + ' 上公开发表的训练运行，吞吐量只有估计值的 ' + num(w.limit, 2) + ' 至 ' + num(w.highest, 2) + ' 倍（共 ' + num(w.runs, 0) + ' 次运行），模型尚未计入这部分开销。所示时间和费用未作调整：按这些运行的中位数，每步耗时约为估计的 ' + num(1 / w.value, 1) + ' 倍，请据此留足预算。'; },
      failures_dominate: function (w) { return '中断（整个任务每 ' + seconds(w.limit) + ' 一次）及其重启使时间增加训练时间的 ' + num(w.value, 1) + ' 倍：任务花在恢复上的时间多于训练，这个一阶估计还偏低。应减少 GPU 数、加快重启（pricing.restart_h）或更频繁地保存检查点。'; },
      mfu_above_one: function (w) { return 'MFU 为 ' + num(w.value, 2) + '：Megatron 口径按不含因果掩码的注意力计算 FLOPs，是因果注意力内核实际执行量的两倍，所以长序列下可超过 1。GPU 实际运行在峰值的 ' + num(w.limit * 100, 1) + ' %（time.executed_fraction）。'; }
    };
    // The remedies of memory_exceeds, by the core's ids (kMemoryRemedyIds, warnings[].remedies); the
    // same wording as the app (web/i18n.cpp, S::remedy_*).
    var REMEDIES_ZH = {
      raise_zero: '提高 ZeRO 阶段（ZeRO-3 还会切分权重）',
      model_parallel: '提高张量或流水线并行',
      recompute: '开启激活重计算',
      lower_micro_batch: '减小微批',
      chunked_loss: '使用融合或分块的交叉熵（techniques.fused_loss、loss_chunks）',
      adapters: '改用 LoRA/QLoRA 只训练适配器',
      qlora: '以 4 比特加载冻结权重（QLoRA）',
      eight_bit_optimizer: '使用 8-bit 优化器',
      offload_optimizer: '把优化器卸载到 CPU',
      bigger_gpu: '换显存更大的显卡'
    };
    function remedyList(ids) {
      var parts = (ids || ['bigger_gpu']).map(function (id) { return REMEDIES_ZH[id] || id; });
      if (parts.length < 2) return parts.join('');
      return parts.slice(0, -1).join('、') + '，或' + parts[parts.length - 1];
    }
    // The rules that refuse a layout, by the warning's rule_id (core kMegatronRefusalIds); the same
    // wording as the app (web/i18n.cpp, S::rule_*).
    var RULES_ZH = {
      peft_without_model_parallel: 'PEFT 与冻结微调在 Hugging Face PEFT / Trainer 中运行，它没有张量并行和流水线并行',
      tp_divides_kv_heads: 'Megatron-LM 按 TP 切分 KV 头：TP 必须整除 KV 头数',
      no_optimizer_offload: 'Megatron-LM 不支持把优化器状态卸载到 CPU',
      no_per_op_checkpointing: 'Megatron-LM 没有按算子的激活检查点（torchtitan 的 selective_ac_option "op"）',
      zero_stage: 'Megatron-LM 只支持 ZeRO-1（分布式优化器）或不带 PP 的 ZeRO-3（torch FSDP2）切分',
      fsdp_without_ep: 'Megatron-LM 只在没有专家并行时运行 torch FSDP2（ZeRO-3）',
      activation_offload_without_pp: 'Megatron-LM 只在没有流水线并行时卸载激活（--cpu-offloading）',
      activation_offload_without_recompute: 'Megatron-LM 只在不重算激活时卸载激活（--cpu-offloading）'
    };
    // Attention kernel ids (the slow_attention_kernel warning's kernel) as the app's field reads them.
    var KERNELS_ZH = {
      flash1: 'FlashAttention 1', flash_triton: 'FlashAttention（Triton）', flash2: 'FlashAttention 2',
      flash3: 'FlashAttention 3', flash4: 'FlashAttention 4', cudnn: 'cuDNN 融合注意力',
      aotriton: 'AOTriton（ROCm 上的 PyTorch SDPA）', aiter: 'AITER FMHA（ROCm）'
    };
    // Software paths (the known_slow_path warning's slow_path) as the app words them (S::slow_path_*).
    var SLOW_PATHS_ZH = {
      dropless_moe_small_batch: 'Megatron 的无丢弃 all-to-all MoE 分发（微批次较小，每个 MoE 层都要等待一次主机同步）',
      pytorch_ring_attention: 'PyTorch 的上下文并行（torchtitan 的环形注意力）'
    };
    function warningText(w) {
      var zh = lang === 'zh' && WARNINGS_ZH[w.code];
      return zh ? zh(w) : w.message;
    }

    // [SECTION] formatting (presentation only: every figure comes from the core as is)
    var locale = lang === 'zh' ? 'zh-CN' : 'en-US';
    function num(x, digits) { return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(x); }
    function sig(x) { return num(x, Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2); }
    function gb(bytes) { return sig(bytes / 1e9) + ' GB'; }
    function seconds(s) { return s < 1 ? num(s * 1000, 0) + ' ms' : sig(s) + ' s'; }
    function duration(hours) { return hours < 48 ? sig(hours) + ' ' + T.hours : sig(hours / 24) + ' ' + T.days; }
    function money(x, currency) {
      return new Intl.NumberFormat(locale, { style: 'currency', currency: currency, maximumFractionDigits: x < 100 ? 2 : 0 }).format(x);
    }
    function percent(x) { return num(100 * x, 1) + ' %'; }

    // [SECTION] DOM helpers: text only, never HTML from the link.
    function el(tag, attrs, children) {
      var e = document.createElement(tag);
      for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
      (children || []).forEach(function (c) { e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
      return e;
    }
    // A figure and, when the core gives one, its 80 % range under it (`range`: [low, high] formatted).
    function figure(label, text, path, value, range) {
      var dd = el('dd', { 'data-figure': path, 'data-value': String(value) }, [text]);
      if (range) dd.appendChild(el('small', { class: 'range', 'data-range': path, title: T.rangeTitle },
                                   [range.length === 1 ? range[0] : range[0] + ' – ' + range[1]]));
      return el('div', {}, [el('dt', {}, [label]), dd]);
    }
    // The result's 80 % range of `path` (the core's "ranges"), each bound written by `fmt` after `scale`.
    function rangeOf(ranges, path, fmt, scale) {
      var g = ranges && ranges[path];
      if (g && g.basis === 'measured') return [T.measuredRange];  // the trial's own configuration
      if (!g || !g.cases) return null;
      var k = scale || 1;
      return [fmt(g.low * k), fmt(g.high * k)];
    }
    function list(cls, title, items) {
      return el('ul', { class: cls, 'aria-label': title }, items.map(function (t) { return el('li', {}, [t]); }));
    }

    function names(catalog) {
      var byId = {};
      ['models', 'accelerators', 'instances'].forEach(function (section) {
        (catalog[section] || []).forEach(function (e) { byId[e.id] = e.name || e.id; });
      });
      return byId;
    }

    function footer(api, fragment, opened) {
      if (fragment === null) return el('span', { hidden: '' });  // the app's own text view links nowhere
      var used = opened && opened.catalogUsed ? opened.catalogUsed : api.catalogVersion;
      var open = el('a', { href: llmplanApi.siteUrl('./') + (fragment ? '#' + fragment : ''), target: '_blank',
                           rel: 'noopener', 'data-open': '' }, [T.open + ' ↗']);
      return el('footer', {}, [el('span', { 'data-catalog': used }, ['llmplan ' + api.version + ' · ' + T.catalog + ' ' + used]), open]);
    }

    // A link notice in the card's language: worded by its code where the language has the wording.
    function noticeText(n) {
      var wording = T.linkNotices && n.code && T.linkNotices[n.code];
      if (!wording) return n.message;
      return wording.replace(/\{(\w+)\}/g, function (whole, name) {
        return n.args && n.args[name] !== undefined ? String(n.args[name]) : whole;
      });
    }

    function noticesOf(opened) {
      var out = [];
      if (opened.notices.length) {
        out.push(list('notices', T.notices, opened.notices.map(function (n) { return n.field + ': ' + noticeText(n); })));
      }
      if (opened.changes.length) {
        out.push(list('notices', T.changed, [T.changed + ' (' + opened.catalogVersion + ' → ' + opened.catalogUsed + '):']
          .concat(opened.changes.slice(0, 4))));
      }
      // The estimator changed since the link's model version: one line; the changes in its tooltip.
      if (opened.modelChanges.length) {
        var line = T.modelChanged.replace('{from}', String(opened.modelVersion))
          .replace('{to}', String(opened.modelVersionCurrent));
        out.push(el('p', { class: 'model-changes', 'data-model-changes': String(opened.modelChanges.length),
                           title: opened.modelChanges.join('\n') }, [line]));
      }
      return out;
    }

    // A minimum billing block sets the cost: the billed hours beside the figures (cost.billed_hours).
    function billedFigure(cost) {
      if (!(cost.billed_hours > cost.used_hours)) return el('span', { hidden: '' });
      return figure(T.billed, duration(cost.billed_hours), 'cost.billed_hours', cost.billed_hours,
                    [T.used.replace('{h}', duration(cost.used_hours))]);
    }

    // "Calibrated with a measured 3,100 tokens/s per GPU on 8 × H100" from the result's calibration block.
    function calibrationLine(k, n) {
      var measured = measuredText(k);
      var hw = n[k.trial.accelerator] || k.trial.accelerator;
      var line = (k.applies ? T.calibrated : T.notCalibrated).replace('{what}', measured)
        .replace('{gpus}', num(k.trial.gpus, 0)).replace('{hw}', hw);
      return el('p', { class: 'calibration', 'data-calibrated': String(!!k.applies), title: (k.notes || []).join('\n') }, [line]);
    }
    function measuredText(k) {
      var r = k.reproduced || {};
      var keys = ['tokens_per_s_per_gpu', 'step_s', 'mfu', 'peak_memory_gib'];
      for (var i = 0; i < keys.length; i++) {
        var x = r[keys[i]];
        if (!x) continue;
        var v = keys[i] === 'mfu' ? percent(x.measured) : keys[i] === 'tokens_per_s_per_gpu' ? num(x.measured, 0) : sig(x.measured);
        return T.measured[keys[i]].replace('{v}', v);
      }
      return T.measured.other;
    }

    function scenarioCard(api, opened, fragment, r) {
      var s = opened.scenario;
      var n = names(api.catalog());
      var model = (s.model && s.model.preset && n[s.model.preset]) || (s.model && s.model.preset) || 'custom model';
      var method = T.methods[s.method || 'pretrain'] || s.method;
      var c = r.cluster;
      var hw = c.instance ? (n[c.instance] || c.instance) : (n[c.accelerator] || c.accelerator);
      var L = r.layout;
      var sub = [method, (s.precision || 'bf16'), 'seq ' + num(s.seq_len || 4096, 0), c.gpus + ' × ' + hw + ' (' +
                 c.nodes + ' ' + (c.nodes === 1 ? T.node : T.nodes) + ')',
                 T.layout + ' TP' + L.tp + ' PP' + L.pp + ' DP' + L.dp + ' ZeRO-' + L.zero + ', ' + T.microBatch + ' ' + L.micro_batch];
      var m = r.memory;
      var used = m.per_gpu_bytes.total;
      var verdict = el('div', { class: 'verdict ' + (m.fits ? 'fits' : 'nofit') }, [
        el('span', { class: 'badge', 'data-figure': 'memory.fits', 'data-value': String(m.fits) }, [m.fits ? '✓ ' + T.fits : '✗ ' + T.noFit]),
        el('span', {}, [T.memory + ' ']),
        el('strong', { 'data-figure': 'memory.per_gpu_bytes.total', 'data-value': String(used) }, [gb(used)]),
        el('span', { 'data-figure': 'memory.capacity_bytes', 'data-value': String(m.capacity_bytes) }, [T.of + ' ' + gb(m.capacity_bytes)]),
        el('div', { class: 'bar', role: 'presentation' })]);
      verdict.lastChild.appendChild(el('span', { 'data-pct': '' }));
      verdict.lastChild.firstChild.style.width = Math.min(100, 100 * used / m.capacity_bytes) + '%';
      var cny = (s.pricing && s.pricing.currency) === 'cny' || lang === 'zh';
      var sized = r.time.steps > 0;
      var figures = el('dl', { class: 'figures' }, [
        figure(T.step, seconds(r.time.step_s), 'time.step_s', r.time.step_s, rangeOf(r.ranges, 'time.step_s', seconds)),
        // Without training tokens there is a step but no run to time or price: a dash, and why.
        sized ? figure(T.total, duration(r.time.total_hours), 'time.total_hours', r.time.total_hours,
                       rangeOf(r.ranges, 'time.total_hours', duration))
              : figure(T.total, '—', 'time.total_hours', r.time.total_hours, [T.noTokens]),
        !sized ? figure(T.cost, '—', cny ? 'cost.total_cny' : 'cost.total_usd', cny ? r.cost.total_cny : r.cost.total_usd)
        : cny ? figure(T.cost, money(r.cost.total_cny, 'CNY'), 'cost.total_cny', r.cost.total_cny,
                       rangeOf(r.ranges, 'cost.total_usd', function (x) { return money(x, 'CNY'); }, r.cost.usd_to_cny))
              : figure(T.cost, money(r.cost.total_usd, 'USD'), 'cost.total_usd', r.cost.total_usd,
                       rangeOf(r.ranges, 'cost.total_usd', function (x) { return money(x, 'USD'); })),
        billedFigure(r.cost),
        figure(T.mfu, percent(r.time.mfu), 'time.mfu', r.time.mfu, rangeOf(r.ranges, 'time.mfu', percent)),
        figure(T.throughput, num(r.time.tokens_per_s, 0), 'time.tokens_per_s', r.time.tokens_per_s,
               rangeOf(r.ranges, 'time.tokens_per_s', function (x) { return num(x, 0); })),
        figure(T.tier, r.tier, 'tier', r.tier)]);
      var parts = [el('h1', {}, [model]), el('p', { class: 'sub' }, [sub.join(' · ')]), verdict, figures];
      if (r.calibration) parts.push(calibrationLine(r.calibration, n));
      if (r.warnings.length) {
        var top = r.warnings.slice(0, 3).map(warningText);
        if (r.warnings.length > 3) top.push('+' + (r.warnings.length - 3) + ' ' + T.moreWarnings);
        parts.push(list('warnings', T.warnings, top));
      }
      return parts.concat(noticesOf(opened), [footer(api, fragment, opened)]);
    }

    function questionCard(api, opened, fragment, p) {
      var q = opened.question;
      var n = names(api.catalog());
      var model = (q.model && q.model.preset && n[q.model.preset]) || (q.model && q.model.preset) || 'custom model';
      var parts = [el('h1', {}, [model]), el('p', { class: 'sub' }, [(T.methods[q.method || 'pretrain'] || q.method) + ' · ' +
                                                                 (q.objective || 'min_cost')])];
      var best = p.plans && p.plans[0];
      if (!best) {
        parts.push(el('p', { class: 'error' }, [T.noPlan + (p.message ? ': ' + p.message : '')]));
      } else {
        parts.push(el('div', { class: 'verdict fits' }, [
          el('span', { class: 'badge' }, [T.plan]),
          el('strong', { 'data-figure': 'plans.0.instance', 'data-value': best.instance }, [best.gpus + ' × ' + (n[best.instance] || best.instance)])]));
        parts.push(el('dl', { class: 'figures' }, [
          figure(T.total, duration(best.time.total_hours), 'plans.0.time.total_hours', best.time.total_hours,
                 rangeOf(best.ranges, 'time.total_hours', duration)),
          figure(T.cost, money(best.cost.total_usd, 'USD'), 'plans.0.cost.total_usd', best.cost.total_usd,
                 rangeOf(best.ranges, 'cost.total_usd', function (x) { return money(x, 'USD'); })),
          figure(T.mfu, percent(best.time.mfu), 'plans.0.time.mfu', best.time.mfu),
          figure(T.gpus, String(best.gpus), 'plans.0.gpus', best.gpus)]));
        if (best.why) parts.push(el('p', { class: 'sub' }, [best.why]));
      }
      return parts.concat(noticesOf(opened), [footer(api, fragment, opened)]);
    }

    // The ownership question of `llmplan tco`: what owning costs, and when it breaks even against
    // each way of renting (the answer's own figures, in the question's currency).
    function tcoCard(api, opened, fragment, t) {
      var n = names(api.catalog());
      var q = t.question;
      var cny = q.currency === 'cny';
      var cur = cny ? 'CNY' : 'USD';
      var sfx = cny ? '_cny' : '_usd';
      var o = t.own;
      var sub = T.servers.replace('{n}', num(q.servers.count, 0)).replace('{gpus}', num(q.servers.gpus_per_server, 0))
        .replace('{hw}', n[q.servers.accelerator] || q.servers.accelerator) + ' · ' +
        T.utilisation.replace('{u}', percent(o.utilisation));
      var perHour = cny ? o.cny_per_gpu_hour : o.usd_per_gpu_hour;
      var figures = [
        figure(T.capex, money(o['capex' + sfx], cur), 'own.capex' + sfx, o['capex' + sfx]),
        figure(T.ownMonth, money(o['monthly' + sfx], cur), 'own.monthly' + sfx, o['monthly' + sfx]),
        figure(T.ownHour, money(perHour, cur), cny ? 'own.cny_per_gpu_hour' : 'own.usd_per_gpu_hour', perHour)];
      t.rent.forEach(function (r, i) {
        var be = r.break_even;
        var text = be.months === null ? T.never : T.months.replace('{m}', num(be.months, 1));
        var extra = be.utilisation === null ? null : [T.above.replace('{u}', percent(be.utilisation))];
        figures.push(figure(T.breakEven.replace('{mode}', T.modes[r.mode] || r.mode), text,
                            'rent.' + i + '.break_even.months', be.months === null ? 'null' : be.months, extra));
      });
      var parts = [el('h1', {}, [T.tcoTitle]), el('p', { class: 'sub' }, [sub]), el('dl', { class: 'figures' }, figures)];
      if (t.notices.length) {
        parts.push(list('warnings', T.warnings, t.notices.map(function (x) {
          return (T.tcoNotices[x.code] || '{f}: ' + x.message).replace('{f}', x.field);
        })));
      }
      return parts.concat(noticesOf(opened), [footer(api, fragment, opened)]);
    }

    // The per-GPU memory breakdown as a table (memory.per_gpu_bytes, in the core's order).
    function memoryTable(r) {
      var b = r.memory.per_gpu_bytes;
      // "other" is logits + buffers + runtime, a subtotal: the rows add up to the total without it.
      var rows = ['weights', 'gradients', 'optimizer', 'activations', 'logits', 'buffers', 'runtime', 'total']
        .filter(function (k) { return b[k] !== undefined && (b[k] > 0 || k === 'total'); })
        .map(function (k) {
          return el('tr', {}, [el('th', { scope: 'row' }, [T.parts[k] || k]),
                               el('td', { 'data-figure': 'memory.per_gpu_bytes.' + k, 'data-value': String(b[k]) }, [gb(b[k])])]);
        });
      return el('table', { class: 'breakdown' }, [el('caption', {}, [T.breakdown]),
        el('thead', {}, [el('tr', {}, [el('th', { scope: 'col' }, [T.component]), el('th', { scope: 'col' }, ['GB'])])]),
        el('tbody', {}, rows)]);
    }

    // The planner's ranked plans ({rank, instance, gpus, total_hours, cost_usd} each), names from the catalog.
    function plansList(api, plans) {
      var n = names(api.catalog());
      return list('plans', T.topPlans, plans.map(function (p) {
        return T.planLine.replace('{rank}', String(p.rank)).replace('{gpus}', num(p.gpus, 0))
          .replace('{hw}', n[p.accelerator] || p.accelerator || '').replace('{instance}', n[p.instance] || p.instance)
          .replace('{time}', duration(p.total_hours)).replace('{cost}', money(p.cost_usd, 'USD'));
      }));
    }

    return { T: T, el: el, list: list, footer: footer, noticesOf: noticesOf, scenarioCard: scenarioCard,
             questionCard: questionCard, tcoCard: tcoCard, memoryTable: memoryTable, plansList: plansList };
  }

  global.llmplanCard = { create: create };
})(window);
