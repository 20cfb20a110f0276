// sw.js: the offline cache. The build (cmake/site_tool.mjs service-worker) fills in the cache
// name (llmplan version, catalog version, hash of every file) and the list of files, so a new
// build is a new cache: its JS and WASM arrive together, and activating it deletes the old ones.
// Served files are answered from the cache first; anything else goes to the network. A new build's
// worker waits until an open page has loaded its own runtime, so no page mixes two builds.
'use strict';
const CACHE = '__LLMPLAN_CACHE__';
const FILES = __LLMPLAN_FILES__;

self.addEventListener('install', (event) => {
  // Relative to this worker's URL, so the site works from any sub-path.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new URL(f, self.location).href))));
});

// A page whose runtime is loaded lets a new build take over (api.js promoteWaiting).
self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('llmplan-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then((cache) =>
    // ?lang=zh and the like select nothing on the server: the cached page answers them.
    cache.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request))));
});
