// embed.js: embed.html#<fragment>, a compact read-only result card for blog columns. Decodes the
// link with the API module (and the catalog release it was made with, when the site has it),
// estimates it (or plans a planner question, or answers an own-or-rent question) and shows the card
// of card.js: the headline figures, warnings, notices, whether the estimator changed since the link
// was made, the catalog version and an "Open in llmplan" link with the same fragment. English and
// Chinese (?lang=zh|en, else the browser's language).
(function () {
  'use strict';

  function pickLanguage() {
    var q = new URLSearchParams(location.search).get('lang');
    var want = (q || navigator.language || 'en').toLowerCase();
    return want.indexOf('zh') === 0 ? 'zh' : 'en';
  }
  var lang = pickLanguage();
  var C = llmplanCard.create(lang);
  var T = C.T;
  var el = C.el;
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = T.title;

  var card = document.getElementById('card');
  function show(state, children) {
    card.replaceChildren.apply(card, children);
    card.setAttribute('data-state', state);
    window.llmplanReady = true;
  }

  function render(api) {
    var fragment = location.hash.replace(/^#/, '');
    if (!fragment) {
      show('empty', [el('h1', {}, [T.noLink]), el('p', { class: 'sub' }, [T.noLinkHint]), C.footer(api, '', null)]);
      return Promise.resolve();
    }
    // A link made with an older catalog computes with that release when the site ships it.
    var version = '';
    try { version = api.linkCatalogVersion(fragment); } catch (e) { version = ''; }
    return api.loadCatalogRelease(version).then(function () {
      var opened = api.decode(fragment);
      var options = { catalogVersion: opened.catalogUsed };
      try {
        if (opened.tco) show('ready', C.tcoCard(api, opened, fragment, api.tco(opened.tco)));
        else if (opened.question) show('ready', C.questionCard(api, opened, fragment, api.plan(opened.question, options)));
        else if (opened.scenario) show('ready', C.scenarioCard(api, opened, fragment, api.estimate(opened.scenario, options)));
        else throw api && llmplanApi.InputError('link', T.noLink);
      } catch (e) {
        show('invalid', [el('h1', {}, [T.invalid]),
          el('p', { class: 'error', 'data-error-field': e.field || '' }, [(e.field ? e.field + ': ' : '') + e.message])]
          .concat(C.noticesOf(opened), [C.footer(api, fragment, opened)]));
      }
    });
  }

  show('loading', [el('p', { class: 'status' }, [T.loading])]);
  window.llmplanReady = false;
  llmplanApi.registerServiceWorker();
  llmplanApi.load().then(function (api) {
    window.addEventListener('hashchange', function () { render(api); });
    return render(api);
  }).catch(function (e) {
    show('failed', [el('h1', {}, [T.failed]), el('p', { class: 'error' }, [e.message])]);
  });
})();
