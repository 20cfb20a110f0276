// app.js: the page shell. Checks the browser can run the app, loads the WebAssembly module,
// shows progress and errors, and publishes the JS API:
//   window.llmplan.estimate(scenario, {explain})  -> result object (throws LlmplanInputError naming the field);
//                                     with {explain: true} it carries "explain": formula and values per figure
//   window.llmplan.plan(question)      -> ranked plans, Pareto front, searched space, rejections (as `llmplan plan`)
//   window.llmplan.version, window.llmplan.catalogVersion
//   window.llmplan.catalog()         -> the built-in catalog (every section, with sources)
//   window.llmplan.catalogStatus()   -> {catalogVersion, asOf, source, error} of the catalog the UI uses
//   window.llmplanReady === true once the first frame is drawn.
(function () {
  'use strict';
  var overlay = document.getElementById('overlay');
  var text = document.getElementById('overlay-text');
  var progress = document.getElementById('overlay-progress');

  function fail(message) {
    overlay.classList.remove('hidden');
    overlay.classList.add('error');
    text.textContent = message;
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
    return;
  }

  var canvas = document.getElementById('canvas');
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    fail('The graphics context was lost (GPU reset or too many tabs). Reload the page to continue; your inputs are kept in the link.');
  });

  function LlmplanInputError(field, message) {
    var err = new Error(message);
    err.name = 'LlmplanInputError';
    err.field = field;
    return err;
  }

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
      window.llmplan = {
        version: Module.version(),
        catalogVersion: Module.catalogVersion(),
        catalog: function () { return JSON.parse(Module.catalogJson()); },
        plan: function (question) {
          var result = JSON.parse(Module.plan(typeof question === 'string' ? question : JSON.stringify(question)));
          if (result.error) throw LlmplanInputError(result.error.field, result.error.message);
          return result;
        },
        catalogStatus: function () { return JSON.parse(Module.appCatalogStatus()); },
        estimate: function (scenario, options) {
          var input = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
          var explain = options && options.explain;
          var result = JSON.parse(explain ? Module.estimateExplained(input) : Module.estimate(input));
          if (result.error) throw LlmplanInputError(result.error.field, result.error.message);
          return result;
        }
      };
    },
    onFirstFrame: function () {
      progress.style.width = '100%';
      overlay.classList.add('hidden');
      canvas.focus();
    }
  };
  window.Module = Module;

  var script = document.createElement('script');
  script.src = 'llmplan.js';
  script.onerror = function () { fail('Could not load llmplan.js. Check your connection and reload.'); };
  document.body.appendChild(script);
})();
