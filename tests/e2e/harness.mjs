// harness.mjs: what every browser test needs: a static server over the built site on a free
// loopback port, and Debian's Chromium driven by playwright-core with flags that work offline.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../..');
export const siteDir = resolve(process.env.LLMPLAN_SITE_DIR || join(repoRoot, 'build/web/site'));
export const cliPath = resolve(process.env.LLMPLAN_CLI || join(repoRoot, 'build/native/llmplan'));
// The estimator's model version (kModelVersion), which every link made now records as `mv`.
export const modelVersion = JSON.parse(execFileSync(cliPath, ['link', 'model-changes', '--format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString())
  .model_version;
// The shipped catalog's version, which every link made now records as `c`.
export const catalogVersion = JSON.parse(readFileSync(join(repoRoot, 'catalog/accelerators.json'), 'utf8')).catalog_version;
export const artifactsDir = resolve(process.env.LLMPLAN_ARTIFACTS || join(repoRoot, 'build/web/e2e'));

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json', '.ttf': 'font/ttf',
};

// Serves siteDir; `log` collects every request path so tests can assert what was fetched.
// `prefix` serves the site under a sub-path (e.g. '/some/sub/path'), as a static host may;
// `routes` adds test pages: {'/host.html': {type: 'text/html', body: '...'}}.
export async function startServer(log = [], { prefix = '', routes = {} } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    log.push(path);
    if (routes[path]) {
      res.writeHead(200, { 'content-type': routes[path].type || 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(routes[path].body);
      return;
    }
    if (prefix && path !== prefix && !path.startsWith(prefix + '/')) { res.writeHead(404).end('not found'); return; }
    let file = normalize(join(siteDir, path.slice(prefix.length)));
    if (!file.startsWith(siteDir)) { res.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, log, close: () => new Promise((ok) => server.close(ok)) };
}

export const chromiumPath = process.env.LLMPLAN_CHROMIUM || '/usr/bin/chromium';

export function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--use-gl=swiftshader', '--enable-unsafe-swiftshader',
           '--use-angle=swiftshader'],
  });
}

// Opens the app and waits for its first frame; records console errors and every request URL.
export async function openApp(browser, origin, { dpr = 1, width = 1280, height = 720, path = '/', init } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr, locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  if (init) await page.addInitScript(init);
  await page.goto(origin + path);
  return { context, page, errors, requests };
}

export async function waitReady(page, timeout = 30000) {
  await page.waitForFunction(() => window.llmplanReady === true, null, { timeout });
}

// Paces input to the app's frames: waits until it has drawn `n` more frames (window.llmplanFrames
// counts them; a frame can take 100 ms or more under software WebGL on a busy machine). An idle
// app draws no frames (and a lone modifier key wakes none), so it is woken for them: a wake draws
// 3 frames (kFramesAfterEvent), counted from before the wake. 3 s is the limit for a stuck page.
export async function waitFrames(page, n = 2) {
  if (n > 3) throw new Error('waitFrames: a wake draws 3 frames');
  const start = await page.evaluate(() => { const s = window.llmplanFrames || 0; window.Module?._llmplan_wake?.(); return s; });
  await page.waitForFunction((s) => (window.llmplanFrames || 0) >= s, start + n, { timeout: 3000 }).catch(() => {});
}

// Replaces the focused field's text as a person does: Ctrl held across frames for Ctrl+A, then
// the text typed key by key, each key seen by a frame of its own.
export async function selectAllAndType(page, text) {
  await page.keyboard.down('Control');
  await waitFrames(page);
  await page.keyboard.press('a');
  await waitFrames(page);
  await page.keyboard.up('Control');
  await waitFrames(page);
  for (const ch of text) {
    await page.keyboard.press(ch);
    await waitFrames(page);
  }
}
