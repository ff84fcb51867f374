// The service worker: keeps every file of the page in the cache, so the
// page works offline once it has been loaded. build.js writes the list of
// files and a version (the hash of their contents) over the two
// placeholders; a new version fills a new cache and drops the old one.
const VERSION = "__VERSION__";
const ASSETS = __ASSETS__;
const CACHE = `nginx-lint-playground-${VERSION}`;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("nginx-lint-playground-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page's own files from the cache (the query and hash of the page's
// URL do not matter), anything else from the network.
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  e.respondWith(caches.open(CACHE).then((c) => c.match(e.request, { ignoreSearch: true })).then((hit) => hit || fetch(e.request)));
});
