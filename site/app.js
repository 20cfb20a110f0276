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
  // The first view's figures written into the page at build time: shown while the app loads (the
  // overlay hides them with itself), hidden in place when the page opens another scenario's link.
  var summary = document.getElementById('static-summary');
  if (summary && location.hash.replace(/^#/, '')) summary.classList.add('superseded');

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
    if (summary) summary.classList.add('superseded');  // the text view shows the same, current figures
    var q = new URLSearchParams(location.search).get('lang');
    var lang = (q || navigator.language || 'en').toLowerCase().indexOf('zh') === 0 ? 'zh' : 'en';
    window.llmplanApi.load().then(function (api) {
      var fragment = location.hash.replace(/^#/, '');
      var opened = fragment ? api.decode(fragment) : { scenario: null, notices: [] };
      // Without a link: the app's first view, as the build wrote it into the page (data-scenario).
      var first = summary && summary.getAttribute('data-scenario');
      var scenario = opened.scenario || (first ? JSON.parse(first) : { model: { preset: 'llama-3.1-8b' } });
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

  // Keys typed in the page's own controls (the form below, the footer) are theirs: the canvas's
  // GLFW listens on the window and would take them too, and keep Tab and Backspace from the
  // browser. Tab moves between the canvas's fields while one is being edited, and otherwise
  // moves the page's focus (out of the canvas too). Registered before the runtime: these run first.
  // The <input> laid over an active canvas text field for IMEs (#ime-input, platform_web.cpp) is
  // the canvas's own: its keys go on to the app, which filters what the input already delivers.
  function pageKeys(e) {
    var t = e.target;
    var page = t && t.nodeType === 1 && t !== canvas && t.id !== 'ime-input' && t !== document.body &&
      t !== document.documentElement;
    var tab = e.key === 'Tab' && typeof Module.appKeyboardCaptured === 'function' && !Module.appKeyboardCaptured();
    if (page || tab) e.stopImmediatePropagation();
  }
  ['keydown', 'keypress', 'keyup'].forEach(function (type) { window.addEventListener(type, pageKeys, true); });

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
      renderControls();
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
    renderControls();
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

  // [SECTION] The main inputs as the page's own form (#mirror-controls): labelled controls that
  // keyboard and screen-reader users reach with Tab outside the canvas (focus inside shows the
  // panel). Fields, labels in the UI language, options (catalog presets and accelerators, the
  // field table's methods and precisions) and checks come from the app (Module.appFormFields,
  // web/page_form.hpp); an edit is Module.appSetField, the edit the canvas's widget makes. A value
  // the core refuses keeps the user's text, with the core's message (field and range) next to it.
  var controls = document.getElementById('mirror-controls');
  var controlsLang = '';
  var formFields = {};
  function controlId(path) { return 'ctl-' + path.replace(/\./g, '-'); }
  function buildControls(form) {
    var fieldset = document.createElement('fieldset');
    var legend = document.createElement('legend');
    legend.textContent = form.title;
    fieldset.appendChild(legend);
    form.fields.forEach(function (f) {
      var id = controlId(f.path);
      var row = document.createElement('div');
      row.className = 'control';
      row.setAttribute('data-path', f.path);
      var label = document.createElement('label');
      label.htmlFor = id;
      // The unit, unless the label already names it or says what it counts ("Global batch (sequences)").
      var unit = f.unit && !/[)）]$/.test(f.label) && f.label.toLowerCase().indexOf(f.unit.toLowerCase()) < 0 ? f.unit : '';
      label.textContent = f.label + (unit ? (appLang() === 'zh' ? '（' + unit + '）' : ' (' + unit + ')') : '');
      var input;
      if (f.options.length) {
        input = document.createElement('select');
        if (f.path === 'model.preset') input.appendChild(new Option(form.custom, ''));
        f.options.forEach(function (o) { input.appendChild(new Option(o.label, o.value)); });
        if (f.path === 'model.preset') input.options[0].disabled = true;  // the canvas types an architecture
      } else {
        input = document.createElement('input');
        input.type = 'text';
        input.inputMode = f.type === 'integer' ? 'numeric' : 'decimal';
        input.autocomplete = 'off';
        input.spellcheck = false;
      }
      input.id = id;
      input.name = f.path;
      var message = document.createElement('span');
      message.className = 'error';
      message.id = id + '-error';
      input.setAttribute('aria-describedby', message.id);
      row.appendChild(label);
      row.appendChild(input);
      row.appendChild(message);
      fieldset.appendChild(row);
    });
    var other = document.createElement('p');
    other.className = 'error';
    other.id = 'ctl-error';
    other.setAttribute('role', 'alert');
    fieldset.appendChild(other);
    controls.replaceChildren(fieldset);
    controls.hidden = false;
  }
  function renderControls(form) {
    if (!controls || typeof Module.appFormFields !== 'function') return;
    form = form || JSON.parse(Module.appFormFields());
    if (controlsLang !== appLang()) {  // labels and option names in the UI language
      buildControls(form);
      controlsLang = appLang();
    }
    var error = form.error;
    // The core's message names the field (and its range); prefixed with it where it does not.
    var named = !!error && (error.message.indexOf(error.field + ':') === 0 || error.message.indexOf(error.field + '\uff1a') === 0);
    var said = !error ? '' : named ? error.message : error.field + ': ' + error.message;
    var shown = false;
    form.fields.forEach(function (f) {
      formFields[f.path] = f;
      var input = document.getElementById(controlId(f.path));
      var mine = !!error && error.field === f.path;
      shown = shown || mine;
      input.disabled = !f.applies;
      input.setAttribute('aria-invalid', String(mine));
      document.getElementById(input.id + '-error').textContent = mine ? said : '';
      // The user's text stays while they type it and while the core refuses it.
      if (input.tagName === 'INPUT' && (mine || document.activeElement === input)) return;
      input.value = typeof f.value === 'number' ? String(f.value) : f.value;
    });
    document.getElementById('ctl-error').textContent = error && !shown ? said : '';
  }
  function commitControl(input) {
    var f = formFields[input.name];
    if (!f || typeof Module.appSetField !== 'function') return;
    var value = input.value;
    if (f.type === 'integer' || f.type === 'number') {
      var t = value.trim();
      if (t !== '' && isFinite(Number(t))) value = Number(t);  // else the text itself: the core names the problem
    }
    renderControls(JSON.parse(Module.appSetField(f.path, JSON.stringify(value))));
  }
  if (controls) {
    controls.addEventListener('submit', function (e) { e.preventDefault(); });
    controls.addEventListener('change', function (e) { if (e.target.name) commitControl(e.target); });
    controls.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && e.target.tagName === 'INPUT') {
        e.preventDefault();
        commitControl(e.target);
      }
    });
    // A paste here is the field's, not the canvas's (platform_web.cpp listens on the document).
    controls.addEventListener('paste', function (e) { e.stopPropagation(); });
  }

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

  // The footer follows the UI language (the app sets <html lang> when it changes), and its links
  // to the documentation carry it: ?lang=zh opens a page's Chinese version (docs/lang.js).
  function localiseFooter() {
    var zh = (document.documentElement.lang || '').indexOf('zh') === 0;
    var links = document.querySelectorAll('#site-links a[data-zh]');
    for (var i = 0; i < links.length; ++i) {
      var a = links[i];
      if (!a.hasAttribute('data-en')) a.setAttribute('data-en', a.textContent);
      a.textContent = a.getAttribute(zh ? 'data-zh' : 'data-en');
      var href = a.getAttribute('href').replace(/\?lang=zh$/, '');
      if (/^docs\//.test(href)) a.setAttribute('href', zh ? href + '?lang=zh' : href);
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
