// Browser tests of the static site around the app: offline after the first visit (service
// worker), the single-file build from file://, the embed card inside an iframe on another origin,
// the documentation pages, the Content-Security-Policy, a sub-path host, and no request leaving
// the page's origin on any page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifactsDir, cliPath, catalogVersion, modelVersion, launchBrowser, openApp, repoRoot, siteDir, startServer, waitReady } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  mkdirSync(artifactsDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const qlora = {
  model: { preset: 'qwen2.5-7b' }, method: 'qlora', lora: { rank: 16, targets: 'all_linear' }, tokens: 1e8,
  cluster: { instance: 'aws-g6e.4xlarge-us-east-1' }, parallel: { recompute: 'full' },
};
// Does not fit on 8 x 80 GB without sharding: the card must say so, with warnings.
const tooBig = {
  model: { preset: 'llama-3-70b' }, method: 'full', seq_len: 4096, global_batch: 64, tokens: 1e9,
  cluster: { gpus: 8, gpus_per_node: 8, gpu_memory_gb: 80 },
};

// Without input the CLI's stdin is closed rather than a pipe: a command that exits without reading
// it made spawnSync fail now and then with EPIPE although the command had succeeded.
function cli(args, input) {
  const options = input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input: JSON.stringify(input) };
  return execFileSync(cliPath, args, options).toString();
}
const fragmentOf = (scenario) => cli(['link', 'encode', '-'], scenario).trim();

// Records console errors, page errors and CSP violations of a page (and its frames).
function watch(page) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  return problems;
}
const cspProbe = () => {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
};

async function newPage(opts = {}) {
  const context = await browser.newContext({ viewport: { width: opts.width || 1100, height: opts.height || 800 },
                                             deviceScaleFactor: opts.dpr || 1, locale: opts.locale || 'en-US' });
  const page = await context.newPage();
  const problems = watch(page);
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(cspProbe);
  return { context, page, problems, requests };
}

// The embed page of a link fragment in `lang`, once its card is ready, and the card's text; the
// caller closes the context.
async function openEmbedCard(lang, fragment, size) {
  const opened = await newPage(size);
  await opened.page.goto(`${server.origin}/embed.html?lang=${lang}#${fragment}`);
  await opened.page.waitForFunction(() => window.llmplanReady === true && document.getElementById('card').dataset.state === 'ready',
    null, { timeout: 20000 });
  return { ...opened, text: await opened.page.evaluate(() => document.getElementById('card').innerText) };
}

// The figures the embed card shows, as the raw values it carries in data-value.
async function cardFigures(frame) {
  return frame.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('[data-figure]')].map((e) => [e.getAttribute('data-figure'), e.getAttribute('data-value')])));
}

test('the app works offline after the first visit (service worker, versioned cache)', async () => {
  const { context, page, errors: problems } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
    const caches = await page.evaluate(() => caches.keys());
    const catalogVersion = await page.evaluate(() => window.llmplan.catalogVersion);
    assert.equal(caches.length, 1);
    assert.match(caches[0], new RegExp(`^llmplan-\\d+\\.\\d+\\.\\d+-${catalogVersion.replace(/\./g, '\\.')}-[0-9a-f]{12}$`));
    const online = await page.evaluate((s) => window.llmplan.estimate(s), qlora);
    await context.setOffline(true);
    await page.reload();
    await waitReady(page);
    assert.deepEqual(await page.evaluate((s) => window.llmplan.estimate(s), qlora), online);
    // The embed page and the docs come from the same cache.
    await page.goto(server.origin + '/embed.html#' + fragmentOf(qlora));
    await page.waitForFunction(() => document.getElementById('card').dataset.state === 'ready', null, { timeout: 15000 });
    await page.goto(server.origin + '/docs/validation.html');
    await page.waitForSelector('#cases tbody tr');
    await page.goto(server.origin + '/docs/methodology.html?lang=zh');
    await page.waitForURL(/methodology\.zh\.html$/);
    assert.equal(await page.textContent('h1'), '估算方法');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a new build replaces the offline cache as a whole once the open page has its runtime', async () => {
  const routes = {};
  const srv = await startServer([], { routes });
  const { context, page, errors } = await openApp(browser, srv.origin);
  try {
    await waitReady(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
    const [first] = await page.evaluate(() => caches.keys());
    // The next build: another cache name (its hash covers every file, JS and WASM together).
    const sw = readFileSync(join(siteDir, 'sw.js'), 'utf8');
    routes['/sw.js'] = { type: 'text/javascript', body: sw.replace(JSON.stringify(first), JSON.stringify(first + 'next')) };
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    await page.waitForFunction((name) => caches.keys().then((k) => k.length === 1 && k[0] === name), first + 'next',
      { timeout: 15000, polling: 200 });
    await page.reload();
    await waitReady(page);
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL.endsWith('/sw.js')), true);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await srv.close();
  }
});

test('the single-file build opens from file:// and computes the CLI numbers', async () => {
  const file = join(siteDir, 'llmplan-single.html');
  const { context, page, problems, requests } = await newPage({ dpr: 2, width: 1280, height: 720 });
  try {
    await page.goto(pathToFileURL(file).href + '?lang=en');
    await waitReady(page);
    assert.deepEqual(await page.evaluate((s) => window.llmplan.estimate(s), qlora), JSON.parse(cli(['estimate', '-'], qlora)));
    const link = await page.evaluate((s) => window.llmplan.encode(s), qlora);
    assert.ok(link.startsWith(pathToFileURL(file).href + '#v=1&'), link);
    assert.deepEqual(requests.filter((u) => !u.startsWith('data:')), [pathToFileURL(file).href + '?lang=en'],
      'nothing but the file itself is loaded');
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
    writeFileSync(join(artifactsDir, 'single-file.png'), await page.screenshot());
  } finally {
    await context.close();
  }
});

test('the embed card in a 360 px iframe on another origin shows llmplan.estimate of its decoded link', async () => {
  for (const [name, scenario, lang] of [['qlora', qlora, 'en'], ['toobig', tooBig, 'zh']]) {
    const fragment = fragmentOf(scenario);
    const embedUrl = `${server.origin}/embed.html?lang=${lang}#${fragment}`;
    const host = await startServer([], { routes: { '/post.html': { body:
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>A blog post</title><body style="margin:8px;font:16px serif">` +
      `<p>Our fine-tune, live:</p><iframe id="e" src="${embedUrl}" width="360" height="520" style="border:0"></iframe>` } } });
    const { context, page, problems, requests } = await newPage({ dpr: 2, width: 400, height: 600 });
    try {
      await page.goto(host.origin + '/post.html');
      const frame = await (await page.waitForSelector('#e')).contentFrame();
      await frame.waitForFunction(() => window.llmplanReady === true && document.getElementById('card').dataset.state === 'ready',
        null, { timeout: 20000 });
      const shown = await cardFigures(frame);
      // The reference: the app's own API decodes the same link and estimates it.
      const app = await newPage();
      let expected;
      try {
        await app.page.goto(server.origin + '/');
        await waitReady(app.page);
        expected = await app.page.evaluate((f) => {
          const d = window.llmplan.decode(f);
          return { decoded: d, result: window.llmplan.estimate(d.scenario) };
        }, fragment);
      } finally {
        await app.context.close();
      }
      assert.deepEqual(expected.result, JSON.parse(cli(['estimate', '-'], scenario)), 'the decoded link estimates as the CLI');
      const at = (p) => p.split('.').reduce((o, k) => o[k], expected.result);
      const figures = ['memory.per_gpu_bytes.total', 'memory.capacity_bytes', 'memory.fits', 'time.step_s',
                       'time.total_hours', 'time.mfu', 'time.tokens_per_s', 'tier'];
      for (const f of figures) assert.equal(shown[f], String(at(f)), f);
      const cost = lang === 'zh' ? 'cost.total_cny' : 'cost.total_usd';
      assert.equal(shown[cost], String(at(cost)), cost);
      // Each headline figure shows the core's 80 % range under it.
      const ranged = await frame.evaluate(() => [...document.querySelectorAll('[data-range]')].map((e) => e.getAttribute('data-range')));
      for (const f of ['time.step_s', 'time.total_hours', cost, 'time.mfu', 'time.tokens_per_s'])
        assert.ok(ranged.includes(f), `range of ${f} shown (${ranged})`);
      const card = await frame.evaluate(() => ({
        open: document.querySelector('[data-open]').href, catalog: document.querySelector('[data-catalog]').dataset.catalog,
        lang: document.documentElement.lang, text: document.getElementById('card').innerText,
        width: document.getElementById('card').getBoundingClientRect().width, scroll: document.documentElement.scrollWidth,
        warnings: document.querySelectorAll('.warnings li').length }));
      assert.equal(card.open, `${server.origin}/#${fragment}`, 'Open in llmplan carries the same fragment');
      assert.equal(card.catalog, expected.decoded.catalogVersion);
      assert.ok(card.scroll <= 360, `no horizontal scroll at 360 px (${card.scroll})`);
      if (lang === 'zh') {
        assert.equal(card.lang, 'zh-CN');
        assert.match(card.text, /放不下/);
        assert.ok(card.warnings > 0, 'a scenario that does not fit lists its warnings');
        // ... in Chinese, by warning code (the core's English message is not shown on a Chinese page).
        assert.match(card.text, /但显卡只有/);
        for (const w of expected.result.warnings) assert.ok(!card.text.includes(w.message), `English warning shown: ${w.message}`);
      } else {
        assert.match(card.text, /Fits/);
      }
      assert.deepEqual(requests.filter((u) => !u.startsWith(host.origin + '/') && !u.startsWith(server.origin + '/')), []);
      assert.deepEqual(problems, []);
      writeFileSync(join(artifactsDir, `embed-iframe-360-${name}-${lang}.png`), await page.screenshot({ fullPage: true }));
    } finally {
      await context.close();
      await host.close();
    }
  }
});

test('the embed card words link notices by code: Chinese on a Chinese page, the core message in English', async () => {
  // An unknown field code and a sequence length that is not a number: two notices, whose English
  // messages come from `llmplan link decode`.
  const fragment = 'v=1&m=llama-2-7b&s=abc&zz=9';
  const decoded = JSON.parse(cli(['link', 'decode', '#' + fragment]));
  const byCode = Object.fromEntries(decoded.notices.map((n) => [n.code, n]));
  assert.deepEqual(Object.keys(byCode).sort(), ['invalid_default', 'unknown_code']);
  for (const lang of ['en', 'zh']) {
    const { context, problems, text } = await openEmbedCard(lang, fragment, { width: 400, height: 700 });
    try {
      if (lang === 'zh') {
        assert.match(text, /zz: 未知字段代码"zz"，已忽略/);
        // The reason stays the core's own (it names the allowed range); the rest is Chinese.
        assert.ok(text.includes('seq_len: ' + byCode.invalid_default.args.reason + '；已使用默认值'), text);
        for (const n of decoded.notices) assert.ok(!text.includes(n.message), `English notice shown: ${n.message}`);
      } else {
        for (const n of decoded.notices) assert.ok(text.includes(n.field + ': ' + n.message), `notice shown: ${n.message}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('the embed card words the rule that refuses a layout by its id: Chinese on a Chinese page', async () => {
  // LoRA with TP 2: Hugging Face PEFT has no tensor parallelism, the first of the core's rules.
  const scenario = { model: { preset: 'llama-3.1-8b' }, method: 'lora', cluster: { gpus: 8 }, parallel: { tp: 2 } };
  const warning = JSON.parse(cli(['estimate', '-'], scenario)).warnings.find((w) => w.code === 'unsupported_layout');
  assert.equal(warning.rule_id, 'peft_without_model_parallel');
  const fragment = fragmentOf(scenario);
  for (const lang of ['en', 'zh']) {
    const { context, page, problems, text } = await openEmbedCard(lang, fragment, { width: 400, height: 900 });
    try {
      if (lang === 'zh') {
        assert.ok(text.includes('PEFT 与冻结微调在 Hugging Face PEFT / Trainer 中运行，它没有张量并行和流水线并行'), text);
        assert.ok(!text.includes(warning.rule), 'the English rule stays out of the Chinese card');
        writeFileSync(join(artifactsDir, 'embed-unsupported-layout-360-zh.png'), await page.screenshot({ fullPage: true }));
      } else {
        assert.ok(text.includes(warning.message), text);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('the embed card has Chinese words for every rule id the core can send', () => {
  // The ids are a public contract (core kMegatronRefusalIds); a rule added there needs its
  // wording in site/card.js too, or a Chinese card would fall back to the English rule.
  const header = readFileSync(join(repoRoot, 'core/include/llmplan/layouts.hpp'), 'utf8');
  const block = header.slice(header.indexOf('kMegatronRefusalIds[] = {'), header.indexOf('};', header.indexOf('kMegatronRefusalIds[] = {')));
  const ids = [...block.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length >= 8, `ids read from layouts.hpp: ${ids}`);
  const card = readFileSync(join(repoRoot, 'site/card.js'), 'utf8');
  const rules = card.slice(card.indexOf('var RULES_ZH = {'), card.indexOf('};', card.indexOf('var RULES_ZH = {')));
  const worded = [...rules.matchAll(/^\s*([a-z_]+):/gm)].map((m) => m[1]);
  assert.deepEqual(worded.sort(), ids.sort());
});

test('the embed card has Chinese words for every attention kernel the core can name', () => {
  // The slow_attention_kernel warning names any kernel of kAttentionKernelNames but auto.
  const header = readFileSync(join(repoRoot, 'core/include/llmplan/model.hpp'), 'utf8');
  const start = header.indexOf('kAttentionKernelNames[] = {');
  const ids = [...header.slice(start, header.indexOf('};', start)).matchAll(/"([a-z_0-9]+)"/g)].map((m) => m[1]).filter((k) => k !== 'auto');
  assert.ok(ids.length >= 8, `ids read from model.hpp: ${ids}`);
  const card = readFileSync(join(repoRoot, 'site/card.js'), 'utf8');
  const at = card.indexOf('var KERNELS_ZH = {');
  const worded = [...card.slice(at, card.indexOf('};', at)).matchAll(/\b([a-z_0-9]+): '/g)].map((m) => m[1]);
  assert.deepEqual(worded.sort(), ids.sort());
});

test('the embed card has Chinese words for every memory remedy id the core can send', () => {
  // The ids are a public contract (core kMemoryRemedyIds, warnings[].remedies of memory_exceeds).
  const header = readFileSync(join(repoRoot, 'core/include/llmplan/estimate.hpp'), 'utf8');
  const start = header.indexOf('kMemoryRemedyIds[] = {');
  const ids = [...header.slice(start, header.indexOf('};', start)).matchAll(/"([a-z_0-9]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length >= 10, `ids read from estimate.hpp: ${ids}`);
  const card = readFileSync(join(repoRoot, 'site/card.js'), 'utf8');
  const at = card.indexOf('var REMEDIES_ZH = {');
  const worded = [...card.slice(at, card.indexOf('};', at)).matchAll(/^\s*([a-z_0-9]+):/gm)].map((m) => m[1]);
  assert.deepEqual(worded.sort(), ids.sort());
});

test('the embed card words the memory warning with the remedies the scenario has left, in Chinese', async () => {
  // A LoRA of Llama 3.1 70B on one 80 GB H100: 141 GB of bf16 base weights; QLoRA is advised, full-weight
  // adapters and an 8-bit optimizer are not.
  const scenario = { model: { preset: 'llama-3.1-70b' }, method: 'lora', seq_len: 4096, micro_batch: 2,
                     cluster: { accelerator: 'h100-sxm5-80gb', gpus: 1 } };
  const warning = JSON.parse(cli(['estimate', '-'], scenario)).warnings.find((w) => w.code === 'memory_exceeds');
  assert.deepEqual(warning.remedies, ['recompute', 'lower_micro_batch', 'qlora', 'bigger_gpu']);
  await checkCardWarning(scenario, warning, ['开启激活重计算、减小微批、以 4 比特加载冻结权重（QLoRA），或换显存更大的显卡。'], 900);
});

// Opens the embed card of `scenario` in English and Chinese: the English card shows the core's
// message of `warning`, the Chinese one its own wording (`zhParts`) and not the English.
async function checkCardWarning(scenario, warning, zhParts, height) {
  const fragment = fragmentOf(scenario);
  for (const lang of ['en', 'zh']) {
    const { context, problems, text } = await openEmbedCard(lang, fragment, { width: 400, height });
    try {
      if (lang === 'zh') {
        for (const part of zhParts) assert.ok(text.includes(part), text);
        assert.ok(!text.includes(warning.message), 'the English warning stays out of the Chinese card');
      } else {
        assert.ok(text.includes(warning.message), text);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
}

test('the embed card words the slow attention kernel warning with the faster kernel\'s name in Chinese', async () => {
  // FlashAttention-2 named on a B200, where FlashAttention-4 is measured at 3.6 times its rate at 8,192 tokens (catalog 2026.12.9).
  const scenario = { model: { preset: 'llama-3.1-8b' }, seq_len: 8192, global_batch: 1,
                     cluster: { accelerator: 'b200-sxm-180gb', gpus: 1 }, parallel: { attention_kernel: 'flash2' } };
  const warning = JSON.parse(cli(['estimate', '-'], scenario)).warnings.find((w) => w.code === 'slow_attention_kernel');
  assert.equal(warning.kernel, 'flash4');
  await checkCardWarning(scenario, warning, ['使用所选注意力内核时，注意力每步耗时', 'FlashAttention 4'], 900);
});

test('the embed card words the known slow path warning with the path and the runs behind it in Chinese', async () => {
  // Qwen3-30B-A3B on Megatron with EP 8 and the dropless all-to-all dispatcher, one 4,096-token
  // sequence a micro-batch: Megatron-Bridge's H100 rows of this kind ran far below the estimate.
  const scenario = { model: { preset: 'qwen3-30b-a3b' }, framework: 'megatron', seq_len: 4096, micro_batch: 1,
                     global_batch: 512, cluster: { accelerator: 'h100-sxm5-80gb', gpus: 16 }, parallel: { ep: 8 } };
  const warning = JSON.parse(cli(['estimate', '-'], scenario)).warnings.find((w) => w.code === 'known_slow_path');
  assert.equal(warning.slow_path, 'dropless_moe_small_batch');
  assert.ok(warning.value < 0.8 && warning.limit <= warning.value && warning.runs >= 2, JSON.stringify(warning));
  await checkCardWarning(scenario, warning, ['在 Megatron 的无丢弃 all-to-all MoE 分发', '共 ' + warning.runs + ' 次运行'], 1100);
});

test('the own-or-rent embed card shows the CLI answer, in Chinese with Chinese notices', async () => {
  const fragment = `v=1&c=${catalogVersion}&mv=${modelVersion}&wa=h100-sxm5-80gb&wn=2&wu=0.6&wcu=cny`;
  const { context, page, problems } = await newPage({ width: 360, height: 640, dpr: 2 });
  try {
    await page.goto(server.origin + '/embed.html?lang=zh#' + fragment);
    await page.waitForFunction(() => document.getElementById('card').dataset.state === 'ready', null, { timeout: 20000 });
    const shown = await cardFigures(page);
    const answer = JSON.parse(cli(['link', 'estimate', fragment]));
    assert.equal(shown['own.capex_cny'], String(answer.own.capex_cny));
    assert.equal(shown['own.cny_per_gpu_hour'], String(answer.own.cny_per_gpu_hour));
    assert.equal(shown['rent.0.break_even.months'], String(answer.rent[0].break_even.months));
    const text = await page.evaluate(() => document.getElementById('card').innerText);
    assert.match(text, /自购还是租用/);
    // The answer's notices (no sourced storage share; the US colocation price) read in Chinese.
    assert.equal(answer.notices.length, 2);
    assert.match(text, /没有带出处的默认值，此项成本未计入/);
    assert.match(text, /没有带出处的国内数据/);
    assert.doesNotMatch(text, /the catalog has no sourced/);
    writeFileSync(join(artifactsDir, 'embed-tco-360-zh.png'), await page.screenshot({ fullPage: true }));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the manifest offers PNG icons of 192 and 512 px, so the site installs as an app', async () => {
  const manifest = JSON.parse(readFileSync(join(siteDir, 'manifest.webmanifest'), 'utf8'));
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.type === 'image/png');
    assert.ok(icon, `a ${size} px PNG icon is listed`);
    const png = readFileSync(join(siteDir, icon.src));
    // PNG signature, then the IHDR chunk: width and height as big-endian 32-bit integers at 16 and 20.
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.equal(png.readUInt32BE(16), size);
    assert.equal(png.readUInt32BE(20), size);
  }
});

test('the embed page names what a bad link field fell back from, and loads in at most 1 MB', async () => {
  const { context, page, problems } = await newPage({ width: 360, height: 640, dpr: 2 });
  const bytes = [];
  page.on('response', async (r) => { try { bytes.push((await r.body()).length); } catch { /* redirects */ } });
  try {
    const fragment = fragmentOf(qlora) + '&tp=abc&zz=1';
    await page.goto(server.origin + '/embed.html?lang=en#' + fragment);
    await page.waitForFunction(() => document.getElementById('card').dataset.state === 'ready', null, { timeout: 20000 });
    const notices = await page.evaluate(() => [...document.querySelectorAll('.notices li')].map((e) => e.textContent));
    const decoded = await page.evaluate((f) => window.llmplan.decode(f), fragment);
    assert.ok(decoded.notices.length >= 2, JSON.stringify(decoded.notices));
    for (const n of decoded.notices) assert.ok(notices.includes(`${n.field}: ${n.message}`), `notice shown: ${n.field}`);
    writeFileSync(join(artifactsDir, 'embed-notices-360.png'), await page.screenshot({ fullPage: true }));
    await page.waitForTimeout(200);
    const total = bytes.reduce((a, b) => a + b, 0);
    console.log(`# embed page first load: ${total} bytes`);
    assert.ok(total <= 1e6, `embed first load ${total} bytes`);
    // No fragment, or a scenario the core rejects: a clear card, not a blank one.
    await page.goto(server.origin + '/embed.html');
    await page.waitForFunction(() => document.getElementById('card').dataset.state === 'empty');
    await page.goto(server.origin + '/embed.html#v=1&m=llama-2-70b&g=3&tp=3');
    await page.waitForFunction(() => ['invalid', 'ready'].includes(document.getElementById('card').dataset.state));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the embed card of a link made before the model version says its figures changed, in English and Chinese', async () => {
  const current = fragmentOf(qlora);
  assert.match(current, /^v=1&c=[0-9.]+&mv=\d+&/);
  const old = current.replace(/&mv=\d+/, '');  // as links were made before they recorded the model
  for (const [lang, line] of [['en', /^Figures changed since this link was made \(estimator model 1 → \d+\)$/],
                              ['zh', /^此链接创建后估算结果已有变化（估算模型 1 → \d+）$/]]) {
    const { context, page, problems } = await newPage({ width: 360, height: 640, dpr: 2 });
    try {
      await page.goto(`${server.origin}/embed.html?lang=${lang}#${old}`);
      await page.waitForFunction(() => document.getElementById('card').dataset.state === 'ready', null, { timeout: 20000 });
      const decoded = await page.evaluate((f) => window.llmplan.decode(f), old);
      assert.equal(decoded.modelVersion, 1);
      assert.equal(decoded.modelVersionCurrent, await page.evaluate(() => window.llmplan.modelVersion));
      assert.ok(decoded.modelChanges.length > 0);
      const note = await page.evaluate(() => {
        const p = document.querySelector('.model-changes');
        return p && { text: p.textContent, title: p.title, right: p.getBoundingClientRect().right,
                      scroll: document.documentElement.scrollWidth };
      });
      assert.ok(note, 'the card shows the model-change line');
      assert.match(note.text, line);
      assert.equal(note.title, decoded.modelChanges.join('\n'));
      assert.ok(note.scroll <= 360, `no horizontal scroll at 360 px (${note.scroll})`);
      writeFileSync(join(artifactsDir, `embed-model-changes-360-${lang}.png`), await page.screenshot({ fullPage: true }));
      // A link of this build's model shows no such line.
      await page.goto(`${server.origin}/embed.html?lang=${lang}#${current}`);
      await page.waitForFunction(() => document.getElementById('card').dataset.state === 'ready', null, { timeout: 20000 });
      assert.equal(await page.locator('.model-changes').count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a link made with an older catalog release computes with that release', async () => {
  const index = JSON.parse(readFileSync(join(siteDir, 'catalogs/index.json'), 'utf8'));
  if (!index.releases.length) return;  // nothing older shipped yet
  const old = index.releases[0].catalog_version;
  const fragment = fragmentOf(qlora).replace(/(^|&)c=[^&]*/, `$1c=${old}`);
  const { context, page, problems } = await newPage();
  try {
    await page.goto(server.origin + '/embed.html#' + fragment);
    await page.waitForFunction(() => document.getElementById('card').dataset.state, null, { timeout: 20000 });
    await page.waitForFunction(() => document.getElementById('card').dataset.state !== 'loading');
    assert.equal(await page.evaluate(() => document.querySelector('[data-catalog]').dataset.catalog), old);
    const cliOld = JSON.parse(cli(['link', 'estimate', fragment]));
    const shown = await cardFigures(page);
    assert.equal(shown['time.step_s'], String(cliOld.time.step_s));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the documentation pages render the core\'s validation table, catalog and link fields', async () => {
  const { context, page, problems } = await newPage({ dpr: 2 });
  try {
    const validation = JSON.parse(readFileSync(join(siteDir, 'validation.json'), 'utf8'));
    await page.goto(server.origin + '/docs/validation.html');
    await page.waitForFunction(() => window.llmplanReady === true);
    assert.equal(await page.locator('#cases tbody tr').count(), validation.cases.length);
    assert.ok(validation.cases.length >= 100);
    // The per-family table: every family of the cases, fit apart from held-out, with the held-out targets;
    // the fits group (right or wrong predictions) in a table of its own.
    const fitsLines = validation.families.filter((f) => f.group === 'fits').length;
    assert.ok(fitsLines > 0);
    assert.equal(await page.locator('#fits tbody tr').count(), fitsLines);
    assert.equal(await page.locator('#families tbody tr').count(), validation.families.length - fitsLines);
    for (const family of new Set(validation.cases.map((c) => c.family))) {
      assert.ok(await page.locator(`#families tr[data-family="${family}"], #fits tr[data-family="${family}"]`).count() > 0,
                family);
    }
    assert.ok(await page.locator('#families tr[data-family="all holdout"]').count() > 0);
    assert.equal(await page.locator('#summary-lines li').count(), validation.targets.length + validation.invalid.length);
    writeFileSync(join(artifactsDir, 'docs-validation.png'), await page.screenshot());
    // In a laptop-wide window the tables need no sideways scrolling: case ids wrap and the sources
    // keep a readable width instead of being squeezed into a column a word wide.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const id of ['families', 'fits', 'cases']) {
      const [width, room] = await page.evaluate((id) => {
        const table = document.getElementById(id);
        return [table.scrollWidth, table.parentElement.clientWidth];
      }, id);
      assert.ok(width <= room + 1, `#${id} is ${width} px wide in ${room} px`);
    }

    await page.goto(server.origin + '/docs/catalog.html');
    await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
    const catalog = await page.evaluate(() => window.llmplan.catalog());
    for (const [section, entries] of Object.entries(catalog).filter(([, v]) => Array.isArray(v))) {
      assert.equal(await page.locator(`table[data-section="${section}"] tbody tr`).count(), entries.length, section);
    }
    assert.ok(await page.locator('table[data-section="accelerators"] th', { hasText: 'source' }).count() > 0);
    writeFileSync(join(artifactsDir, 'docs-catalog.png'), await page.screenshot());

    await page.goto(server.origin + '/docs/url-format.html');
    await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
    const codes = await page.locator('#fields tbody tr').count();
    assert.ok(codes >= 20, `${codes} field codes`);
    assert.match(await page.textContent('#example-link'), /#v=1&c=[0-9.]+&mv=\d+&/);
    // mv is documented next to v and c, with this build's model version.
    const modelVersion = await page.evaluate(() => window.llmplan.modelVersion);
    assert.equal(await page.textContent('#model-version'), `this build: model ${modelVersion}`);

    await page.goto(server.origin + '/docs/embedding.html');
    await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
    const live = await page.evaluate(() => [...document.querySelectorAll('.live')].map((e) => e.dataset.value));
    assert.ok(live.length >= 8 && live.every((v) => v && v !== 'undefined'), JSON.stringify(live));
    const contract = JSON.parse(cli(['estimate', '-'], {
      model: { preset: 'llama-2-7b' }, method: 'pretrain', precision: 'bf16', optimizer: 'adamw',
      seq_len: 4096, micro_batch: 1, global_batch: 1024, tokens: 2e12,
      cluster: { accelerator: 'a100-sxm4-80gb', gpus: 2048, gpus_per_node: 8 },
      parallel: { tp: 8, pp: 1, zero: 1, sequence_parallel: true, recompute: 'selective' },
      pricing: { mode: 'on_demand', usd_per_gpu_hour: 2.0 } }));
    assert.equal(live[0], String(contract.memory.per_gpu_bytes.total), 'inline figure = CLI');
    assert.match(await page.textContent('#iframe-snippet'), /<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html#v=1&/);
    writeFileSync(join(artifactsDir, 'docs-embedding.png'), await page.screenshot({ fullPage: true }));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// The documentation pages with a Chinese version (docs/site/zh/NAME.html and docs/zh/NAME.md ->
// docs/NAME.zh.html).
const translatedDocs = ['index', 'methodology', 'scenario', 'calibration', 'validation', 'catalog', 'embedding', 'url-format'];
const pages = ['/', '/embed.html', '/docs/index.html', '/docs/methodology.html', '/docs/scenario.html', '/docs/calibration.html', '/docs/validation.html',
               '/docs/catalog.html', '/docs/embedding.html', '/docs/url-format.html',
               ...translatedDocs.map((d) => `/docs/${d}.zh.html`)];

test('every page carries the CSP, breaks none of it and requests nothing outside its origin', async () => {
  for (const path of pages) {
    const html = readFileSync(join(siteDir, path === '/' ? 'index.html' : path), 'utf8');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(csp, `${path} has a CSP meta tag`);
    assert.match(csp[1], /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'/, path);
    assert.doesNotMatch(html, /<script>|<script (?![^>]*src=)/, `${path} has no inline script`);
    assert.doesNotMatch(html, /(src|href)="\//, `${path} uses relative URLs only`);
  }
  const { context, page, problems, requests } = await newPage();
  try {
    for (const path of pages) {
      await page.goto(server.origin + path + (path === '/embed.html' ? '#' + fragmentOf(qlora) : ''));
      await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
      await page.waitForTimeout(100);
      assert.deepEqual(await page.evaluate(() => window.__csp), [], `${path}: CSP violations`);
    }
    assert.deepEqual(requests.filter((u) => !u.startsWith(server.origin + '/')), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// index.html as a crawler or a browser without JavaScript reads it: the build wrote the app's first
// view into it (web/site_summary.cpp: the core under Node), so its figures are the CLI's.
test('index.html carries the first view\'s figures as static HTML, equal to llmplan estimate of it', async () => {
  const html = await (await fetch(server.origin + '/')).text();
  const section = /<section id="static-summary" data-scenario="([^"]*)" data-catalog="([^"]*)">([\s\S]*?)<\/section>/.exec(html);
  assert.ok(section, 'index.html has the static summary');
  const unescape = (t) => t.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const scenario = JSON.parse(unescape(section[1]));
  const expected = JSON.parse(cli(['estimate', '-'], scenario));
  assert.equal(section[2], expected.catalog_version);
  const body = section[3];
  assert.match(body, /llmplan estimates whether training or fine-tuning a large language model fits in GPU memory/);
  const shown = Object.fromEntries([...body.matchAll(/data-figure="([^"]+)" data-value="([^"]*)">([^<]*)</g)]
    .map((m) => [m[1], { value: m[2], text: m[3] }]));
  const at = (p) => p.split('.').reduce((o, k) => o[k], expected);
  for (const f of ['memory.fits', 'memory.per_gpu_bytes.total', 'time.total_hours', 'cost.total_usd', 'time.mfu'])
    assert.equal(shown[f]?.value, String(at(f)), f);
  assert.equal(shown['memory.fits'].text, expected.memory.fits ? 'yes' : 'no');
  assert.match(shown['time.mfu'].text, new RegExp(`^${(100 * expected.time.mfu).toFixed(1)} %`));
  assert.match(shown['memory.per_gpu_bytes.total'].text, / of 80 GB/);
  // The same scenario the app opens with, and its link.
  const fragment = fragmentOf(scenario);
  assert.ok(body.includes(`href="#${fragment.replace(/&/g, '&amp;')}"`), 'links its scenario');
  const app = await newPage();
  try {
    await app.page.addInitScript(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
    });
    await app.page.goto(server.origin + '/');
    await waitReady(app.page);
    assert.deepEqual(await app.page.evaluate(() => JSON.parse(window.Module.appInput())), scenario);
    assert.equal(await app.page.evaluate(() => window.Module.appFragment()), fragment);
    // With JavaScript the app hides it with the loading overlay, and nothing on the page moves.
    await app.page.waitForFunction(() => getComputedStyle(document.getElementById('overlay')).visibility === 'hidden');
    assert.equal(await app.page.isVisible('#static-summary'), false);
    assert.equal(await app.page.evaluate(() => window.__shift), 0, 'no layout shift');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.context.close();
  }
  // Without JavaScript it is what the page shows.
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(server.origin + '/');
    assert.equal(await page.isVisible('#static-summary dl'), true);
    assert.match(await page.innerText('#static-summary'), /Memory per GPU/);
    // ... without a loading line that would wait forever (noscript.css).
    assert.equal(await page.isVisible('#overlay-text'), false);
    writeFileSync(join(artifactsDir, 'index-no-js.png'), await page.screenshot());
  } finally {
    await context.close();
  }
});

// Share of the Chinese (CJK) characters among the letters of a text.
const cjkShare = (text) => {
  const letters = text.match(/[\p{L}]/gu) || [];
  return letters.filter((c) => /\p{Script=Han}/u.test(c)).length / Math.max(1, letters.length);
};

test('every documentation page opens in Chinese with ?lang=zh, links back to English, and stays on its origin', async () => {
  const { context, page, problems, requests } = await newPage({ dpr: 2 });
  try {
    for (const doc of translatedDocs) {
      for (const path of doc === 'index' ? ['/docs/?lang=zh', '/docs/index.html?lang=zh'] : [`/docs/${doc}.html?lang=zh`]) {
        await page.goto(server.origin + path);
        await page.waitForURL(`${server.origin}/docs/${doc}.zh.html`);
        await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
        const shown = await page.evaluate(() => ({
          lang: document.documentElement.lang, title: document.title, h1: document.querySelector('h1').textContent,
          lead: document.querySelector('p.lead').textContent, nav: document.querySelector('header.nav').innerText,
          english: document.querySelector('header.nav a.lang[hreflang="en"]')?.getAttribute('href'),
          current: document.querySelector('header.nav a[aria-current="page"]')?.getAttribute('href'),
          alternates: [...document.querySelectorAll('link[rel="alternate"]')].map((l) => `${l.hreflang} ${l.getAttribute('href')}`) }));
        assert.equal(shown.lang, 'zh-CN', path);
        assert.ok(cjkShare(shown.h1 + shown.lead) > 0.5, `${path}: Chinese heading and lead (${shown.h1})`);
        assert.ok(cjkShare(shown.nav) > 0.5, `${path}: Chinese navigation (${shown.nav})`);
        assert.match(shown.title, /[\p{Script=Han}]/u);
        assert.equal(shown.english, `${doc}.html`);
        assert.equal(shown.current, doc === 'calibration' ? undefined : `${doc}.zh.html`);  // not in the navigation
        assert.deepEqual(shown.alternates, [`en ${doc}.html`, `zh-CN ${doc}.zh.html`]);
        assert.deepEqual(await page.evaluate(() => window.__csp), [], `${path}: CSP violations`);
      }
      // The English page names its Chinese one, and ?lang=en on the Chinese page goes back.
      await page.goto(`${server.origin}/docs/${doc}.zh.html?lang=en`);
      await page.waitForURL(`${server.origin}/docs/${doc}.html`);
      await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.getAttribute('header.nav a.lang[hreflang="zh-CN"]', 'href'), `${doc}.zh.html`);
    }
    // The Markdown pages in Chinese: the English page's anchors land (the fragment is kept), and
    // the generated tables are the English page's, as the core writes them.
    await page.goto(server.origin + '/docs/methodology.html?lang=zh#step-time');
    await page.waitForURL(`${server.origin}/docs/methodology.zh.html#step-time`);
    assert.equal(await page.textContent('h2#step-time'), '步时间');
    assert.ok(await page.locator('main pre code', { hasText: 'kGemmHalfSize' }).count() > 0);
    assert.equal(await page.getAttribute('main a[href^="validation"]', 'href'), 'validation.zh.html');
    writeFileSync(join(artifactsDir, 'docs-methodology-zh.png'), await page.screenshot());
    for (const [doc, cell] of [['scenario', 'parallel.tp'], ['scenario', 'constraints.max_gpus'], ['calibration', 'kGemmHalfSize']]) {
      const english = readFileSync(join(siteDir, `docs/${doc}.html`), 'utf8').match(/<tr>/g).length;
      await page.goto(`${server.origin}/docs/${doc}.zh.html`);
      assert.equal(await page.locator('main tr').count(), english, `${doc}: the English page's table rows`);
      assert.equal(await page.evaluate((c) => [...document.querySelectorAll('main td code')].filter((e) => e.textContent === c).length,
                                       cell), 1, `${doc}: ${cell}`);
    }
    // The live parts write Chinese words around the core's figures.
    await page.goto(server.origin + '/docs/url-format.html?lang=zh');
    await page.waitForURL(/url-format\.zh\.html$/);
    await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
    assert.equal(await page.textContent('#model-version'), `本构建：模型 ${await page.evaluate(() => window.llmplan.modelVersion)}`);
    assert.ok(await page.locator('#fields tbody tr').count() >= 20);
    await page.goto(server.origin + '/docs/validation.html?lang=zh');
    await page.waitForURL(/validation\.zh\.html$/);
    await page.waitForSelector('#cases tbody tr');
    const validation = JSON.parse(readFileSync(join(siteDir, 'validation.json'), 'utf8'));
    assert.equal(await page.locator('#cases tbody tr').count(), validation.cases.length);
    assert.match(await page.textContent('#summary'), /^共 \d+ 个数据点/);
    writeFileSync(join(artifactsDir, 'docs-validation-zh.png'), await page.screenshot());
    await page.goto(server.origin + '/docs/embedding.html?lang=zh');
    await page.waitForURL(/embedding\.zh\.html$/);
    await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
    const live = await page.evaluate(() => [...document.querySelectorAll('.live')].map((e) => e.dataset.value));
    assert.ok(live.length >= 8 && live.every((v) => v && v !== 'undefined'), JSON.stringify(live));
    writeFileSync(join(artifactsDir, 'docs-embedding-zh.png'), await page.screenshot({ fullPage: true }));
    assert.deepEqual(requests.filter((u) => !u.startsWith(server.origin + '/')), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the app in Chinese links the documentation with ?lang=zh', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { path: '/?lang=zh' });
  try {
    await waitReady(page);
    await page.waitForFunction(() => document.querySelector('#site-links a[href^="docs/validation.html"]')
      .getAttribute('href') === 'docs/validation.html?lang=zh');
    const hrefs = await page.evaluate(() => [...document.querySelectorAll('#site-links a[href^="docs/"]')].map((a) => a.getAttribute('href')));
    assert.ok(hrefs.length >= 6 && hrefs.every((h) => h.endsWith('.html?lang=zh')), JSON.stringify(hrefs));
    await page.click('#site-links a[href^="docs/catalog.html"]');
    await page.waitForURL(/\/docs\/catalog\.zh\.html$/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the site works from a sub-path of a static host', async () => {
  const prefix = '/some/sub/path';
  const log = [];
  const sub = await startServer(log, { prefix });
  const { context, page, problems, requests } = await newPage();
  try {
    await page.goto(`${sub.origin}${prefix}/`);
    await waitReady(page);
    const link = await page.evaluate((s) => window.llmplan.encode(s), qlora);
    assert.ok(link.startsWith(`${sub.origin}${prefix}/#v=1&`), link);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
    await page.goto(`${sub.origin}${prefix}/embed.html#${fragmentOf(qlora)}`);
    await page.waitForFunction(() => document.getElementById('card').dataset.state === 'ready', null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => document.querySelector('[data-open]').href), `${sub.origin}${prefix}/#${fragmentOf(qlora)}`);
    for (const doc of ['catalog', 'url-format', 'validation', 'methodology.html?lang=zh', 'calibration.html?lang=zh',
                       'validation.html?lang=zh']) {
      await page.goto(`${sub.origin}${prefix}/docs/${doc.includes('?') ? doc : doc + '.html'}`);
      await page.waitForFunction(() => window.llmplanReady === true, null, { timeout: 20000 });
    }
    assert.ok(page.url().endsWith(`${prefix}/docs/validation.zh.html`), page.url());
    assert.deepEqual(requests.filter((u) => !u.startsWith(`${sub.origin}${prefix}/`)), []);
    assert.deepEqual(log.filter((p) => !p.startsWith(prefix + '/')), [], 'every request stays under the sub-path');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await sub.close();
  }
});

test('the app shell links the documentation pages, and they link each other', async () => {
  const index = readFileSync(join(siteDir, 'index.html'), 'utf8');
  for (const doc of ['methodology', 'scenario', 'validation', 'catalog', 'embedding', 'url-format']) {
    assert.ok(index.includes(`href="docs/${doc}.html"`), doc);
    for (const other of ['methodology', 'scenario', 'validation', 'catalog', 'embedding', 'url-format']) {
      assert.ok(readFileSync(join(siteDir, `docs/${doc}.html`), 'utf8').includes(`href="${other}.html"`), `${doc} -> ${other}`);
    }
  }
  assert.ok(existsSync(join(siteDir, 'manifest.webmanifest')));
  const manifest = JSON.parse(readFileSync(join(siteDir, 'manifest.webmanifest'), 'utf8'));
  assert.equal(manifest.start_url, './');
});

test('the embed card of a calibrated scenario says what was measured on what, in English and Chinese', async () => {
  // Measured on one node of the 64 GPUs the scenario runs: the card names the trial's figure and hardware.
  const scenario = { model: { preset: 'llama-3.1-8b' }, method: 'full', seq_len: 4096, micro_batch: 2, global_batch: 512,
                     tokens: 1e10, cluster: { accelerator: 'h100-sxm5-80gb', gpus: 64 }, parallel: { zero: 3 },
                     calibration: { tokens_per_s_per_gpu: 3100, measured_on: { gpus: 8 } } };
  const fragment = fragmentOf(scenario);
  assert.match(fragment, /&kt=3\.1e3&kog=8/);
  for (const [lang, pattern] of [['en', /Calibrated with a measured 3,100 tokens\/s per GPU on 8 × NVIDIA H100/],
                                 ['zh', /已按实测校准：8 × NVIDIA H100 80GB SXM5 上实测每卡 3,100 tokens\/s/]]) {
    const { context, page, problems } = await openEmbedCard(lang, fragment);
    try {
      const line = await page.evaluate(() => {
        const p = document.querySelector('p.calibration');
        return p && { text: p.textContent, calibrated: p.dataset.calibrated };
      });
      assert.ok(line, 'the card has its calibration line');
      assert.match(line.text, pattern);
      assert.equal(line.calibrated, 'true');
      assert.deepEqual(problems, []);
      writeFileSync(join(artifactsDir, `embed-calibrated-${lang}.png`), await page.screenshot({ fullPage: true }));
    } finally {
      await context.close();
    }
  }
});
