// lang.js: runs in the head of every documentation page. ?lang=zh opens the page's Chinese version
// (NAME.zh.html), ?lang=en its English one, as the page's <link rel="alternate" hreflang> names
// them; the app's footer adds ?lang=zh when its UI is in Chinese. A page without that language
// stays as it is. The fragment is kept.
(function () {
  'use strict';
  var q = new URLSearchParams(location.search).get('lang');
  if (!q) return;
  var want = q.toLowerCase().indexOf('zh') === 0 ? 'zh-CN' : 'en';
  if (document.documentElement.lang === want) return;
  var alt = document.querySelector('link[rel="alternate"][hreflang="' + want + '"]');
  if (alt) location.replace(alt.getAttribute('href') + location.hash);
})();
