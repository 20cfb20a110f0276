// api.js: the one JS wrapper that turns an Emscripten module (the app's, or the small API module
// llmplan_api.js) into the documented window.llmplan object. Every page loads it first.
//   llmplanApi.wrap(Module, {appUrl})  -> the window.llmplan object over Module's Embind functions:
//     estimate(scenario, {explain, catalogVersion}) plan(question) tco(question) encode(scenario) decode(link)
//     version modelVersion catalogVersion catalog() loadCatalogRelease(v) linkCatalogVersion(link)
//     parseLog(text, scenario?) importConfig(text)
//   llmplanApi.load()                  -> Promise of that object over the API module (embed, docs)
//   llmplanApi.linkFields()            -> the URL field codes [{code, field, type, ...}] (after load)
//   llmplanApi.siteUrl(path)           -> path resolved against the site's root (where api.js is)
//   llmplanApi.registerServiceWorker() -> offline cache, over http(s) only
//   llmplanApi.runtimeLoaded()         -> the page has its JS and WASM: a newer build may take over
//   llmplanApi.InputError(field, message) -> Error named "LlmplanInputError" with .field
(function (global) {
  'use strict';
  // The site root is the folder api.js is served from, so pages work from any sub-path. Inlined
  // (the single-file build) it has no URL: the current page is the app then.
  var script = document.currentScript;
  var siteRoot = script && script.src ? new URL('./', script.src).href : null;
  var apiModule = null;
  var loading = null;

  function InputError(field, message) {
    var err = new Error(message);
    err.name = 'LlmplanInputError';
    err.field = field;
    return err;
  }

  function siteUrl(path) { return new URL(path, siteRoot || global.location.href).href; }

  function bare(href) { return href.split(/[?#]/)[0]; }

  function toJson(value) { return typeof value === 'string' ? value : JSON.stringify(value); }

  // A result JSON from the core: {"error": {field, message}} becomes a thrown LlmplanInputError.
  function checked(json) {
    var result = JSON.parse(json);
    if (result && result.error) throw InputError(result.error.field, result.error.message);
    return result;
  }

  function need(Module, name) {
    if (typeof Module[name] !== 'function') {
      throw new Error('this build of llmplan has no ' + name + '(); rebuild the site with a current core');
    }
  }

  // decodeLink's JSON ({kind, valid, input, catalog_version, catalog_used, notices, changes,
  // model_version, model_version_current, model_changes}) as the documented {scenario, question,
  // notices, catalogVersion} (+ catalogUsed, changes, valid, modelVersion, modelVersionCurrent,
  // modelChanges: the estimator changes since the link's model, "model N (DATE): CHANGE — EFFECT").
  function decoded(r) {
    var input = r.input !== undefined ? r.input : (r.scenario || r.question || null);
    var question = r.kind ? r.kind === 'question' : !!r.question;
    var tco = r.kind === 'tco';
    return { scenario: question || tco ? null : input, question: question ? input : null, tco: tco ? input : null,
             notices: r.notices || [],
             catalogVersion: r.catalog_version || null, catalogUsed: r.catalog_used || null,
             changes: r.changes || [], valid: r.valid !== false,
             modelVersion: typeof r.model_version === 'number' ? r.model_version : null,
             modelVersionCurrent: typeof r.model_version_current === 'number' ? r.model_version_current : null,
             modelChanges: r.model_changes || [] };
  }

  function wrap(Module, options) {
    var appUrl = (options && options.appUrl) || null;
    function appLink() { return appUrl ? new URL(appUrl, global.location.href).href : siteUrl('./'); }
    // {catalogVersion: V} computes with an older catalog release loaded by loadCatalogRelease(V).
    function release(opts) {
      var v = opts && opts.catalogVersion;
      if (!v || v === Module.catalogVersion()) return null;
      need(Module, 'estimateWith');
      return v;
    }
    return {
      version: Module.version(),
      // The estimator's model version, which links record (`mv`): links of an older one list what changed.
      modelVersion: typeof Module.modelVersion === 'function' ? Module.modelVersion() : null,
      catalogVersion: Module.catalogVersion(),
      catalog: function () { return JSON.parse(Module.catalogJson()); },
      estimate: function (scenario, opts) {
        var input = toJson(scenario);
        var v = release(opts);
        if (v) return checked(Module.estimateWith(input, v));
        return checked(opts && opts.explain ? Module.estimateExplained(input) : Module.estimate(input));
      },
      plan: function (question, opts) {
        var v = release(opts);
        return checked(v ? Module.planWith(toJson(question), v) : Module.plan(toJson(question)));
      },
      // Own or rent (`llmplan tco`): {own, rent[], series[], assumptions[], notices[]}; throws
      // LlmplanInputError naming the field of a bad question.
      tco: function (question) {
        need(Module, 'tco');
        return checked(Module.tco(toJson(question)));
      },
      // The full link that opens the app on this scenario (or planner question).
      encode: function (scenario) {
        need(Module, 'encodeLink');
        return bare(appLink()) + '#' + checked(Module.encodeLink(toJson(scenario))).fragment;
      },
      // A link or its fragment -> {scenario, question, tco, notices, catalogVersion, catalogUsed, changes,
      // modelVersion, modelVersionCurrent, modelChanges};
      // never throws on a bad link: what could not be read is a notice naming the field.
      decode: function (link) {
        need(Module, 'decodeLink');
        if (typeof link !== 'string') throw InputError('link', 'decode() takes a link or its fragment as a string');
        return decoded(checked(Module.decodeLink(link)));
      },
      // Fetches and loads the catalog release a link was made with (site/catalogs/V.json), so
      // decode() and estimate(s, {catalogVersion: V}) reproduce its numbers. Resolves to whether
      // that release is available; the built-in catalog is used otherwise.
      loadCatalogRelease: function (v) {
        if (!v || v === Module.catalogVersion()) return Promise.resolve(true);
        if (typeof Module.loadCatalogRelease !== 'function') return Promise.resolve(false);
        return fetch(siteUrl('catalogs/' + encodeURIComponent(v) + '.json'))
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (text) { return !!text && !JSON.parse(Module.loadCatalogRelease(text)).error; })
          .catch(function () { return false; });
      },
      // A pasted training or benchmark log -> {calibration, found}: the scenario's calibration block
      // and what was read from where; throws LlmplanInputError (field "log") listing what was looked
      // for when nothing is recognised. The scenario (optional) turns samples/s into tokens/s per GPU.
      parseLog: function (text, scenario) {
        need(Module, 'parseLog');
        if (typeof text !== 'string') throw InputError('log', 'parseLog() takes the log as a string');
        return checked(Module.parseLog(text, scenario ? toJson(scenario) : ''));
      },
      // A training config (Hugging Face config.json, DeepSpeed, accelerate, LLaMA-Factory, axolotl, a
      // torchrun / deepspeed command) -> {format, scenario, mapped, ignored, unsupported, unknown}
      // (docs/import.md); throws LlmplanInputError naming the key, or "line N", of a bad input.
      importConfig: function (text) {
        need(Module, 'importConfig');
        if (typeof text !== 'string') throw InputError('(file)', 'importConfig() takes the config as a string');
        return checked(Module.importConfig(text));
      },
      // The catalog version a link names ('' when it names none).
      linkCatalogVersion: function (link) {
        need(Module, 'linkCatalogVersion');
        return Module.linkCatalogVersion(String(link));
      }
    };
  }

  // The API module (core + Embind only), for pages that draw no canvas.
  function load() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
        reject(new Error('This browser cannot run WebAssembly, which llmplan needs. Please use a current browser.'));
        return;
      }
      var s = document.createElement('script');
      s.src = siteUrl('llmplan_api.js');
      s.onerror = function () { reject(new Error('Could not load llmplan_api.js. Check your connection and reload.')); };
      s.onload = function () {
        global.createLlmplanApi({
          locateFile: function (path) { return siteUrl(path); },
          print: function (t) { console.log(t); },
          printErr: function (t) { console.warn(t); },
          onAbort: function (what) { reject(new Error('llmplan stopped unexpectedly: ' + what)); }
        }).then(function (Module) {
          apiModule = Module;
          global.llmplan = wrap(Module);
          runtimeLoaded();
          resolve(global.llmplan);
        }, reject);
      };
      document.head.appendChild(s);
    });
    return loading;
  }

  function linkFields() {
    if (!apiModule || typeof apiModule.linkFields !== 'function') return null;
    return JSON.parse(apiModule.linkFields());
  }

  // One versioned cache for the whole site (sw.js); file:// and other schemes have none. A new
  // build's worker waits until this page has its runtime (JS and WASM of one build) loaded, then
  // takes over, so the next load gets the new build whole.
  var registration = null;
  var runtimeUp = false;
  function promoteWaiting() {
    if (runtimeUp && registration && registration.waiting) registration.waiting.postMessage('skip-waiting');
  }
  function runtimeLoaded() { runtimeUp = true; promoteWaiting(); }
  function registerServiceWorker() {
    if (!siteRoot || !('serviceWorker' in navigator) || !/^https?:$/.test(global.location.protocol)) return;
    navigator.serviceWorker.register(siteUrl('sw.js'), { scope: siteUrl('./') }).then(function (reg) {
      registration = reg;
      promoteWaiting();
      reg.addEventListener('updatefound', function () {
        var worker = reg.installing;
        if (worker) worker.addEventListener('statechange', promoteWaiting);
      });
    }).catch(function (e) {
      console.warn('llmplan: offline cache unavailable: ' + e.message);
    });
  }

  global.llmplanApi = { wrap: wrap, load: load, linkFields: linkFields, siteUrl: siteUrl, runtimeLoaded: runtimeLoaded,
                        registerServiceWorker: registerServiceWorker, InputError: InputError };
})(window);
