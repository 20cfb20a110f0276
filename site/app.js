// app.js: the page shell. Checks the browser can run the app, loads the WebAssembly module,
// shows progress and errors, and publishes the JS API (built by api.js, shared with the embed and
// documentation pages, plus the app's own catalogStatus):
//   window.llmplan.estimate(scenario, {explain})  -> result object (throws LlmplanInputError naming the field);
//                                     with {explain: true} it carries "explain": formula and values per figure
//   window.llmplan.plan(question)      -> ranked plans, Pareto front, searched space, rejections (as `llmplan plan`)
//   window.llmplan.encode(scenario)    -> the full link to this app on that scenario
//   window.llmplan.decode(link)        -> {scenario, question, notices, catalogVersion}
//   window.llmplan.version, window.llmplan.catalogVersion
//   window.llmplan.catalog()         -> the built-in catalog (every section, with sources)
//   window.llmplan.catalogStatus()   -> {catalogVersion, asOf, source, error} of the catalog the UI uses
//   window.llmplanReady === true once the first frame is drawn.
// In the single-file build this script is inlined with data-inline-runtime and the Emscripten
// runtime follows it inline, so nothing is loaded.
(function () {
  'use strict';
  var inlineRuntime = !!(document.currentScript && document.currentScript.hasAttribute('data-inline-runtime'));
  var overlay = document.getElementById('overlay');
  var text = document.getElementById('overlay-text');
  var progress = document.getElementById('overlay-progress');

  function fail(message) {
    // The inlined runtime runs right after this script: keep it from starting into a broken page.
    if (inlineRuntime && !window.Module) window.Module = { noInitialRun: true, print: function () {}, printErr: function () {} };
    overlay.classList.remove('hidden');
    overlay.classList.add('error');
    text.textContent = message;
  }

  // Without WebGL the canvas cannot draw: the API module (core only, no GL) estimates the link's
  // scenario, or the app's first one, and the page shows it as text (#mirror, card.js), so people
  // and crawlers without WebGL still get the figures.
  function textOnly(reason) {
    if (inlineRuntime || !window.llmplanApi || !window.llmplanCard) return;
    document.body.classList.add('text-view', 'text-only');
    var q = new URLSearchParams(location.search).get('lang');
    var lang = (q || navigator.language || 'en').toLowerCase().indexOf('zh') === 0 ? 'zh' : 'en';
    window.llmplanApi.load().then(function (api) {
      var fragment = location.hash.replace(/^#/, '');
      var opened = fragment ? api.decode(fragment) : { scenario: null, notices: [] };
      var scenario = opened.scenario || { model: { preset: 'llama-3.1-8b' } };
      var C = window.llmplanCard.create(lang);
      var result = api.estimate(scenario);
      var parts = C.scenarioCard(api, { scenario: scenario, notices: opened.notices || [], changes: [], modelChanges: [] },
                                 null, result);
      var headline = document.getElementById('mirror-headline');
      headline.replaceChildren.apply(headline, [C.el('p', { class: 'sub' }, [reason])].concat(parts.slice(0, 4)));
      var detail = document.getElementById('mirror-detail');
      detail.replaceChildren.apply(detail, parts.slice(4).concat([C.memoryTable(result)]));
      var mirror = document.getElementById('mirror');
      mirror.setAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
      mirror.setAttribute('data-updates', '1');
    }).catch(function () {});
  }

  function hasWebGL2() {
    try { return !!document.createElement('canvas').getContext('webgl2'); } catch (e) { return false; }
  }

  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    fail('This browser cannot run WebAssembly, which llmplan needs. Please use a current Chrome, Edge, Firefox or Safari.');
    return;
  }
  if (!hasWebGL2()) {
    fail('WebGL 2 is unavailable (disabled, or no GPU driver support), and llmplan draws with it. ' +
         'Enable hardware acceleration in your browser settings or try another browser.');
    textOnly(text.textContent);
    return;
  }

  var canvas = document.getElementById('canvas');
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    fail('The graphics context was lost (GPU reset or too many tabs). Reload the page to continue; your inputs are kept in the link.');
  });

  var Module = {
    canvas: canvas,
    print: function (s) { console.log(s); },
    printErr: function (s) { console.warn(s); },
    setStatus: function (s) {
      var m = /\((\d+(?:\.\d+)?)\/(\d+)\)/.exec(s || '');
      if (m) progress.style.width = Math.max(5, 100 * Number(m[1]) / Number(m[2])) + '%';
    },
    onAbort: function (what) { fail('llmplan stopped unexpectedly: ' + what + '. Reload the page to try again.'); },
    onRuntimeInitialized: function () {
      // Links the app makes open this very page (index.html, or the single file from disk).
      var api = window.llmplanApi.wrap(Module, { appUrl: location.href });
      api.catalogStatus = function () { return JSON.parse(Module.appCatalogStatus()); };
      window.llmplan = api;
      window.llmplanApi.runtimeLoaded();
    },
    onFirstFrame: function () {
      progress.style.width = '100%';
      overlay.classList.add('hidden');
      canvas.focus();
    }
  };
  window.Module = Module;

  // [SECTION] The results as text (#mirror): the card of card.js over the app's own result JSON,
  // re-rendered after every update (the app calls llmplanOnResult, debounced) and when the UI
  // language changes. The headline region is aria-live="polite", so screen readers announce it.
  var mirror = document.getElementById('mirror');
  function appLang() { return (document.documentElement.lang || '').indexOf('zh') === 0 ? 'zh' : 'en'; }
  function renderMirror() {
    if (!mirror || !window.llmplan || typeof Module.appResult !== 'function') return;
    var lang = appLang();
    var C = window.llmplanCard.create(lang);
    var result = JSON.parse(Module.appResult());
    if (!result || !result.memory) return;
    var opened = { scenario: JSON.parse(Module.appInput()), notices: [], changes: [], modelChanges: [] };
    var parts = C.scenarioCard(window.llmplan, opened, null, result);
    var headline = parts.slice(0, 4);  // title, subtitle, fits and memory, the figures
    // The calibration line and the top warnings complete the phone's result card (style.css).
    var isCard = function (e) { return e.classList.contains('calibration') || e.classList.contains('warnings'); };
    var more = parts.slice(4).filter(isCard);
    var detail = parts.slice(4).filter(function (e) { return !isCard(e); }).concat([C.memoryTable(result)]);
    var planner = typeof Module.appPlanner === 'function' ? JSON.parse(Module.appPlanner()) : null;
    if (planner && planner.plans && planner.plans.length)
      detail.push(C.plansList(window.llmplan, planner.plans.slice(0, 5)));
    mirror.setAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
    mirror.setAttribute('aria-label', C.T.textViewLabel);
    document.getElementById('mirror-headline').replaceChildren.apply(document.getElementById('mirror-headline'), headline);
    var moreBox = document.getElementById('mirror-more');
    moreBox.replaceChildren.apply(moreBox, more);
    document.getElementById('mirror-detail').replaceChildren.apply(document.getElementById('mirror-detail'), detail);
    mirror.setAttribute('data-updates', String(Number(mirror.getAttribute('data-updates') || 0) + 1));
  }
  window.llmplanOnResult = renderMirror;

  // A training config dropped anywhere on the page is imported into the scenario (core
  // import_config: config.json, DeepSpeed, accelerate, LLaMA-Factory, axolotl, torchrun).
  document.addEventListener('dragover', function (e) { e.preventDefault(); });
  document.addEventListener('drop', function (e) {
    e.preventDefault();
    var file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!file || typeof Module.appImport !== 'function') return;
    file.text().then(function (text) { Module.appImport(text); });
  });
  var textView = document.getElementById('text-view');
  function labelTextView() {
    if (!textView) return;
    var on = document.body.classList.contains('text-view');
    var zh = appLang() === 'zh';
    textView.textContent = on ? (zh ? '返回图形界面' : 'Back to the canvas') : (zh ? '文字版' : 'Text view');
    textView.setAttribute('aria-pressed', String(on));
  }
  if (textView) {
    textView.addEventListener('click', function () {
      document.body.classList.toggle('text-view');
      labelTextView();
    });
  }

  // The footer follows the UI language (the app sets <html lang> when it changes).
  function localiseFooter() {
    var zh = (document.documentElement.lang || '').indexOf('zh') === 0;
    var links = document.querySelectorAll('#site-links a[data-zh]');
    for (var i = 0; i < links.length; ++i) {
      var a = links[i];
      if (!a.hasAttribute('data-en')) a.setAttribute('data-en', a.textContent);
      a.textContent = a.getAttribute(zh ? 'data-zh' : 'data-en');
    }
  }
  new MutationObserver(function () { localiseFooter(); labelTextView(); renderMirror(); })
    .observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  localiseFooter();
  labelTextView();

  window.llmplanApi.registerServiceWorker();
  if (inlineRuntime) return;
  var script = document.createElement('script');
  script.src = 'llmplan.js';
  script.onerror = function () { fail('Could not load llmplan.js. Check your connection and reload.'); };
  document.body.appendChild(script);
})();
