// docs.js: the live parts of the documentation pages (English NAME.html and Chinese NAME.zh.html,
// both built from docs/site/ into cmake/docs_page.html), chosen by <body data-page>:
//   validation  the table ../validation.json (written at build time by the core's validation suite)
//   catalog     every section of the built-in catalog (API module), with sources and dates
//   embedding   the iframe snippet and live figures computed by the API module
//   url-format  the field-code table from the core (linkFields) and an example link
// Everything is text nodes; nothing from data is parsed as HTML. The page's language (<html lang>:
// NAME.html English, NAME.zh.html Chinese) picks the words this script writes; the data (case
// names, catalog fields and sources) stays as the core and the catalog write it.
(function () {
  'use strict';
  var page = document.body.getAttribute('data-page');
  var zh = (document.documentElement.lang || '').indexOf('zh') === 0;
  var T = zh ? {
    days: ' 天', hours: ' 小时', na: '（无）',
    summary: function (figures, cases, families, by, provenance) {
      return '共 ' + figures + ' 个数据点，来自 ' + families + ' 个来源族的 ' + cases + ' 个用例。' + by + '；' + provenance +
        '。留出集目标（测试套件据此把关）：';
    },
    couldNotRun: function (c, family, message) { return '无法运行 ' + c + '（' + family + '）：' + message; },
    catalogMeta: function (c, version) {
      return '目录 ' + c.catalog_version + '，截至 ' + c.as_of + '（schema ' + c.schema_version + '），内置于 llmplan ' + version + '。';
    },
    entries: function (name, n) { return name + '（' + n + ' 条）'; },
    releases: '本站附带的较早目录版本', asOf: function (d) { return '（截至 ' + d + '）'; },
    noReleases: function (v) { return '无：迄今所有链接都使用 ' + v + '。'; },
    releasesNote: '用其中某个版本生成的链接会按该版本的数值打开；有哪些变化见 catalog/CHANGELOG.md。',
    exampleDesc: 'Qwen2.5-7B、QLoRA、一台 AWS g6e.4xlarge', cannotEncode: '此构建无法生成链接：',
    modelVersion: function (v) { return '本构建：模型 ' + v; }, noFields: '此构建的核心没有链接字段表。',
    fieldCount: function (n) { return '共 ' + n + ' 个字段代码，按链接中的书写顺序排列：'; }
  } : {
    days: ' days', hours: ' h', na: '(n/a)',
    summary: function (figures, cases, families, by, provenance) {
      return figures + ' figures from ' + cases + ' cases in ' + families + ' source families. ' + by + '; ' + provenance +
        '. Held-out targets, the gate of the test suite:';
    },
    couldNotRun: function (c, family, message) { return 'could not run ' + c + ' (' + family + '): ' + message; },
    catalogMeta: function (c, version) {
      return 'Catalog ' + c.catalog_version + ', as of ' + c.as_of + ' (schema ' + c.schema_version + '), built into llmplan ' +
        version + '.';
    },
    entries: function (name, n) { return name + ' (' + n + ' entries)'; },
    releases: 'Older releases shipped with the site', asOf: function (d) { return ' (as of ' + d + ')'; },
    noReleases: function (v) { return 'None: every link so far uses ' + v + '.'; },
    releasesNote: 'Links made with one of these open with its numbers; see catalog/CHANGELOG.md for what changed.',
    exampleDesc: 'Qwen2.5-7B, QLoRA, one AWS g6e.4xlarge', cannotEncode: 'This build cannot encode links: ',
    modelVersion: function (v) { return 'this build: model ' + v; }, noFields: 'This build of the core has no link field table.',
    fieldCount: function (n) { return n + ' field codes, in the order links write them:'; }
  };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    });
    return e;
  }
  function byId(id) { return document.getElementById(id); }
  function ready() { window.llmplanReady = true; }
  function failed(where, e) {
    where.replaceChildren(el('p', { class: 'error' }, [e.message || String(e)]));
    ready();
  }
  function num(x, digits) { return new Intl.NumberFormat('en-US', { maximumSignificantDigits: digits || 4 }).format(x); }
  var formats = {
    gb: function (x) { return num(x / 1e9, 3) + ' GB'; },
    percent: function (x) { return (100 * x).toFixed(1) + ' %'; },
    days: function (x) { return num(x, 3) + T.days; },
    hours: function (x) { return num(x, 3) + T.hours; },
    usd: function (x) { return '$' + new Intl.NumberFormat('en-US', { maximumFractionDigits: x < 100 ? 2 : 0 }).format(x); }
  };
  function at(obj, path) {
    return path.split('.').reduce(function (o, k) { return o === undefined || o === null ? undefined : o[k]; }, obj);
  }

  // [SECTION] validation
  // The per-family table (fit apart from held-out, per metric group), the held-out targets the
  // test suite gates on, then every figure.
  function pct(x, signed) { return (signed && x >= 0 ? '+' : '') + (100 * x).toFixed(1) + ' %'; }
  function validation() {
    var summary = byId('summary');
    return fetch('../validation.json').then(function (r) {
      if (!r.ok) throw new Error('validation.json is missing from this site (HTTP ' + r.status + ')');
      return r.json();
    }).then(function (doc) {
      var targets = (doc.targets || []).map(function (t) {
        return el('li', { class: t.met ? 'in' : 'out' }, [t.target]);
      });
      (doc.invalid || []).forEach(function (i) {
        targets.push(el('li', { class: 'out' }, [T.couldNotRun(i.case, i.family, i.message)]));
      });
      summary.replaceChildren(el('p', {}, [T.summary(doc.cases.length,
        new Set(doc.cases.map(function (c) { return c.case; })).size,
        new Set(doc.cases.map(function (c) { return c.family; })).size, doc.generated_by, doc.provenance)]),
        el('ul', { id: 'summary-lines' }, targets));
      var families = byId('families').tBodies[0];
      var fits = byId('fits').tBodies[0];
      doc.families.forEach(function (f) {
        var all = f.family === null;
        var set = f.set === 'fit' ? 'fit' : 'held-out';
        if (f.group === 'fits') {
          // Right or wrong predictions: the count of wrong ones, and which.
          fits.appendChild(el('tr', { 'data-family': all ? 'all ' + f.set : f.family, 'data-group': f.group,
                                      'data-set': f.set, class: all ? 'total' : '' }, [
            el('td', {}, [set]), el('td', {}, [all ? 'all ' + set : f.family]),
            el('td', { class: 'num' }, [f.figures]), el('td', { class: 'num' }, [f.excluded]),
            el('td', { class: 'num ' + (f.wrong ? 'out' : 'in') }, [f.wrong]),
            el('td', {}, [all ? '' : (f.wrong_cases || []).join(', ') || '–']),
            el('td', { class: 'source' }, [f.source || ''])]));
          byId('fits').hidden = false;
          return;
        }
        var counted = f.median_abs_error !== null;
        families.appendChild(el('tr', { 'data-family': all ? 'all ' + f.set : f.family, 'data-group': f.group,
                                        'data-set': f.set, class: all ? 'total' : '' }, [
          el('td', {}, [f.group]), el('td', {}, [f.set === 'fit' ? 'fit' : 'held-out']),
          el('td', {}, [all ? 'all ' + (f.set === 'fit' ? 'fit' : 'held-out') : f.family]),
          el('td', { class: 'num' }, [f.figures]), el('td', { class: 'num' }, [f.excluded]),
          el('td', { class: 'num' }, [counted ? pct(f.median_abs_error) : '–']),
          el('td', { class: 'num' }, [counted ? pct(f.worst_error, true) : '–']),
          el('td', { class: 'case' }, [f.worst_case]), el('td', { class: 'num ' + (f.beyond_limit ? 'out' : 'in') }, [f.beyond_limit]),
          el('td', { class: 'source' }, [f.source || ''])]));
      });
      byId('families').hidden = false;
      var body = byId('cases').tBodies[0];
      doc.cases.forEach(function (c) {
        var within = c.within !== undefined ? c.within : c.excluded || Math.abs(c.error) <= c.tolerance;
        var note = [c.source, c.note ? ' — ' + c.note : '', c.excluded ? ' (excluded from the medians)' : ''].join('');
        // A fits figure (1 fits, 0 out of memory) is shown in words, right or wrong.
        var fitsRow = c.group === 'fits';
        var word = function (x) { return x > 0.5 ? 'fits' : 'out of memory'; };
        body.appendChild(el('tr', { 'data-case': c.case, 'data-metric': c.metric }, [
          el('td', {}, [c.case]), el('td', {}, [c.family]), el('td', {}, [c.set === 'fit' ? 'fit' : 'held-out']),
          el('td', {}, [c.metric]),
          el('td', { class: 'num' }, [fitsRow ? word(c.published) : num(c.published)]),
          el('td', { class: 'num' }, [fitsRow ? word(c.predicted) : num(c.predicted)]),
          el('td', { class: 'num ' + (within ? 'in' : 'out') }, [fitsRow ? (c.error === 0 ? 'right' : 'wrong') : pct(c.error, true)]),
          el('td', { class: 'num' }, [fitsRow ? '–' : Math.round(100 * c.tolerance) + ' %']),
          el('td', { class: 'source' }, [note])]));
      });
      byId('cases').hidden = false;
      ready();
    }).catch(function (e) { failed(summary, e); });
  }

  // [SECTION] catalog
  function cell(v) {
    if (v === null) return el('td', { class: 'muted' }, ['null']);
    if (typeof v === 'object') return el('td', {}, [el('code', {}, [JSON.stringify(v)])]);
    return el('td', { class: typeof v === 'number' ? 'num' : '' }, [String(v)]);
  }
  function sectionTable(name, entries) {
    var keys = [];
    entries.forEach(function (e) { Object.keys(e).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
    // id and name first, the provenance last: as_of, source, notes.
    var head = ['id', 'name'].filter(function (k) { return keys.indexOf(k) >= 0; });
    var tail = ['as_of', 'source', 'notes'].filter(function (k) { return keys.indexOf(k) >= 0; });
    keys = head.concat(keys.filter(function (k) { return head.indexOf(k) < 0 && tail.indexOf(k) < 0; }), tail);
    return el('div', { class: 'scroll' }, [el('table', { 'data-section': name }, [
      el('thead', {}, [el('tr', {}, keys.map(function (k) { return el('th', {}, [k]); }))]),
      el('tbody', {}, entries.map(function (e) {
        return el('tr', { 'data-id': e.id || '' }, keys.map(function (k) {
          var td = cell(e[k] === undefined ? '' : e[k]);
          if (k === 'source' || k === 'notes') td.className = 'source';
          return td;
        }));
      }))])]);
  }
  function catalog(api) {
    var c = api.catalog();
    byId('catalog-meta').textContent = T.catalogMeta(c, api.version);
    var sections = byId('catalog-sections');
    var toc = [];
    Object.keys(c).forEach(function (name) {
      var v = c[name];
      if (Array.isArray(v)) {
        toc.push(el('a', { href: '#' + name }, [name + ' (' + v.length + ')']), ' · ');
        sections.appendChild(el('h2', { id: name }, [T.entries(name, v.length)]));
        sections.appendChild(sectionTable(name, v));
      } else if (v && typeof v === 'object') {
        toc.push(el('a', { href: '#' + name }, [name]), ' · ');
        sections.appendChild(el('h2', { id: name }, [name]));
        sections.appendChild(sectionTable(name, [v]));
      }
    });
    toc.pop();
    byId('catalog-toc').replaceChildren.apply(byId('catalog-toc'), toc);
    return fetch('../catalogs/index.json').then(function (r) { return r.ok ? r.json() : { releases: [] }; })
      .then(function (idx) {
        var items = idx.releases.map(function (r) {
          return el('li', {}, [el('a', { href: '../' + r.file }, [r.catalog_version]), T.asOf(r.as_of || '?')]);
        });
        byId('catalog-releases').replaceChildren(el('h2', { id: 'releases' }, [T.releases]),
          items.length ? el('ul', {}, items) : el('p', { class: 'muted' }, [T.noReleases(c.catalog_version)]),
          el('p', { class: 'muted' }, [T.releasesNote]));
      }).catch(function () {}).then(ready);
  }

  // [SECTION] embedding
  var examples = {
    contract: {
      model: { preset: 'llama-2-7b' }, method: 'pretrain', precision: 'bf16', optimizer: 'adamw',
      seq_len: 4096, micro_batch: 1, global_batch: 1024, tokens: 2e12,
      cluster: { accelerator: 'a100-sxm4-80gb', gpus: 2048, gpus_per_node: 8 },
      parallel: { tp: 8, pp: 1, zero: 1, sequence_parallel: true, recompute: 'selective' },
      pricing: { mode: 'on_demand', usd_per_gpu_hour: 2.0 }
    },
    qlora: {
      model: { preset: 'qwen2.5-7b' }, method: 'qlora', lora: { rank: 16, targets: 'all_linear' }, tokens: 1e8,
      cluster: { instance: 'aws-g6e.4xlarge-us-east-1' }, parallel: { recompute: 'full' }
    },
    plan: { model: { preset: 'llama-3.1-8b' }, method: 'qlora', seq_len: 2048, global_batch: 32, tokens: 2e8,
            objective: 'min_cost', constraints: { max_gpus: 8 } }
  };
  function embedding(api) {
    var results = {
      contract: api.estimate(examples.contract), qlora: api.estimate(examples.qlora), plan: api.plan(examples.plan)
    };
    Array.prototype.forEach.call(document.querySelectorAll('.live'), function (span) {
      var v = at(results[span.getAttribute('data-example')], span.getAttribute('data-figure'));
      var f = formats[span.getAttribute('data-format')];
      span.setAttribute('data-value', String(v));
      span.textContent = v === undefined ? T.na : f ? f(v) : String(v);
    });
    byId('example-desc').textContent = T.exampleDesc;
    var snippet = byId('iframe-snippet');
    try {
      var link = api.encode(examples.qlora);
      var embedUrl = llmplanApi.siteUrl('embed.html') + link.slice(link.indexOf('#'));
      snippet.textContent = '<iframe src="' + embedUrl + '"\n        width="100%" height="460" loading="lazy" ' +
        'title="llmplan estimate"\n        style="border:0; max-width:560px"></iframe>';
      byId('iframe-preview').src = embedUrl;
    } catch (e) {
      snippet.textContent = T.cannotEncode + e.message;
    }
    ready();
  }

  // [SECTION] url-format
  function urlFormat(api) {
    try { byId('example-link').textContent = api.encode(examples.contract); } catch (e) {
      byId('example-link').textContent = T.cannotEncode + e.message;
    }
    if (api.modelVersion) byId('model-version').textContent = T.modelVersion(api.modelVersion);
    var fields = llmplanApi.linkFields();
    if (!fields) { byId('fields-status').textContent = T.noFields; ready(); return; }
    byId('fields-status').textContent = T.fieldCount(fields.length);
    var body = byId('fields').tBodies[0];
    fields.forEach(function (f) {
      body.appendChild(el('tr', { 'data-code': f.code }, [el('td', {}, [el('code', {}, [f.code])]),
        el('td', {}, [el('code', {}, [f.field])]), el('td', {}, [f.type])]));
    });
    byId('fields').hidden = false;
    ready();
  }

  llmplanApi.registerServiceWorker();
  var needsApi = { catalog: catalog, embedding: embedding, 'url-format': urlFormat };
  if (page === 'validation') validation();
  else if (needsApi[page]) {
    llmplanApi.load().then(needsApi[page]).catch(function (e) { failed(document.querySelector('main'), e); });
  } else ready();
})();
