// The app's interface driven like a user: real clicks, keys, pastes and taps on the widgets
// Module.appWidgets() reports, results that change as they should, exports, the catalog view
// and its edits (kept across a reload), and the layout: screenshots in both languages at several
// sizes and devicePixelRatios, failing on overlapping or clipped text (Module.appTexts()).
import { test, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDir, cliPath, catalogVersion, modelVersion, launchBrowser, openApp, repoRoot, startServer, waitReady, selectAllAndType, waitFrames } from './harness.mjs';

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

// Interaction tests use a tall page so every input is on screen without scrolling.
const tall = { width: 1280, height: 1800 };
const result = (page) => page.evaluate(() => JSON.parse(window.Module.appResult()));
const input = (page) => page.evaluate(() => JSON.parse(window.Module.appInput()));
const updates = (page) => page.evaluate(() => window.Module.appUpdates());

// Waits (up to 5 s: frames are slow under software WebGL on a busy machine) for widget `id`.
async function widget(page, id) {
  await page.waitForFunction((w) => JSON.parse(window.Module.appWidgets()).some((r) => r.id === w), id, { timeout: 5000 })
    .catch(() => {});
  const rects = await page.evaluate(() => JSON.parse(window.Module.appWidgets()));
  const r = rects.find((w) => w.id === id);
  assert.ok(r, `widget ${id} is drawn (have: ${rects.map((w) => w.id).join(', ')})`);
  return r;
}

async function click(page, id, dx = 0.5) {
  const r = await widget(page, id);
  await page.mouse.move(r.x + r.w * dx, r.y + r.h / 2);  // hover first, as a person does
  await waitFrames(page);
  await page.mouse.click(r.x + r.w * dx, r.y + r.h / 2);
  await waitFrames(page, 3);
}

// Waits until the app has re-parsed its input at least once more than `n` times.
async function settled(page, n) {
  await page.waitForFunction((k) => window.Module.appUpdates() > k, n, { timeout: 5000 });
  await page.waitForTimeout(100);
}

// Types `text` into the field `id` as a person does (a click into its text, select all, type,
// Enter) and waits until the app has re-parsed its input.
async function typeInto(page, id, text) {
  const n = await updates(page);
  const r = await widget(page, id);
  await page.mouse.click(r.x + r.w * 0.3, r.y + r.h / 2);
  await selectAllAndType(page, text);
  await page.keyboard.press('Enter');
  await settled(page, n);
}

// Picks entry `index` of the combo `id`: a click opens it, a click on the entry (recorded as
// "id=index" while the list is open) picks it.
async function pickCombo(page, id, index) {
  await click(page, id);
  await click(page, `${id}=${index}`);
}

// Picks entry `index` of the combo `id`, after which `field` no longer applies: once the app has
// re-parsed, the field has left the scenario and is no longer drawn.
// Types a value the core refuses: one shown text matches every pattern, and the scenario keeps
// what was typed.
async function typeRefused(page, id, value, patterns, what) {
  await typeInto(page, id, value);
  const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
  assert.ok(texts.some((t) => patterns.every((p) => p.test(t.text))), what);
  const [section, name] = id.split('.');
  assert.equal((await input(page))[section][name], Number(value), 'what was typed is kept');
}

async function pickAndExpectGone(page, id, index, field) {
  const n = await updates(page);
  await pickCombo(page, id, index);
  await settled(page, n);
  const [section, name] = field.split('.');
  assert.equal((await input(page))[section][name], undefined, `${field} leaves the scenario`);
  const ids = await page.evaluate(() => JSON.parse(window.Module.appWidgets()).map((w) => w.id));
  assert.ok(!ids.includes(field), `${field} is no longer drawn`);
}

// Every visible text stays within its clip rectangle horizontally and no two overlap.
async function assertLayout(page, name) {
  const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
  assert.ok(texts.length > 50, `${name}: ${texts.length} texts recorded`);
  const visible = texts.filter((t) => t.w > 0 && t.y >= t.clip[1] - 0.5 && t.y + t.h <= t.clip[3] + 0.5);
  const problems = [];
  for (const t of visible) {
    if (t.x < t.clip[0] - 1 || t.x + t.w > t.clip[2] + 1)
      problems.push(`clipped: "${t.text}" x ${t.x.toFixed(1)}..${(t.x + t.w).toFixed(1)} outside ${t.clip[0].toFixed(1)}..${t.clip[2].toFixed(1)}`);
  }
  for (let i = 0; i < visible.length; ++i)
    for (let j = i + 1; j < visible.length; ++j) {
      const a = visible[i], b = visible[j];
      const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (ox > 1 && oy > 1) problems.push(`overlap: "${a.text}" and "${b.text}" (${ox.toFixed(1)} x ${oy.toFixed(1)} px)`);
    }
  assert.deepEqual(problems, [], `${name}: ${problems.length} layout problems`);
}

test('raising the ZeRO stage lowers per-GPU memory; an out-of-range input turns its field red with the core message', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=full&n=8&z=0' });
  try {
    await waitReady(page);
    const before = await result(page);
    assert.equal(before.layout.zero, 0);
    const n = await updates(page);
    await pickCombo(page, 'parallel.zero', 3);
    await settled(page, n);
    const after = await result(page);
    assert.equal(after.layout.zero, 3);
    assert.ok(after.memory.per_gpu_bytes.total < before.memory.per_gpu_bytes.total,
      `${after.memory.per_gpu_bytes.total} < ${before.memory.per_gpu_bytes.total}`);

    // Type an invalid tensor-parallel size (3 does not divide 32 heads): the core names the field.
    await typeInto(page, 'parallel.tp', '3');
    const doc = await input(page);
    assert.equal(doc.parallel.tp, 3);
    const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
    assert.ok(texts.some((t) => /parallel\.tp/.test(t.text) && /divide/.test(t.text)), 'the error banner names parallel.tp');
    assert.ok(texts.some((t) => /^parallel\.tp: must divide/.test(t.text) || /must divide/.test(t.text)), 'the message shows under the field');
    writeFileSync(join(artifactsDir, 'ui-invalid-tp.png'), await page.screenshot());
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('MoE capacity factor: shown with the all-to-all dispatcher, balances the ranks, checked against its range', async () => {
  // Mixtral 8x7B pretraining with EP 8 on 64 GPUs: a learned router's busiest rank is charged
  // kMoeCapacityFactor; token dropping with padding at 1 leaves every rank the mean.
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=mixtral-8x7b&me=pretrain&n=64&xp=8&gb=256' });
  try {
    await waitReady(page);
    assert.ok((await result(page)).time.expert_imbalance_s > 0, 'a learned router leaves a busiest rank');
    await typeInto(page, 'parallel.moe_capacity_factor', '1');
    assert.equal((await result(page)).time.expert_imbalance_s, 0);
    await page.waitForFunction(() => /&mcf=1(&|$)/.test(location.hash), null, { timeout: 5000 });

    // Above experts / top_k (8 / 2 = 4): the core's message names the field and the range; what was
    // typed is kept.
    await typeRefused(page, 'parallel.moe_capacity_factor', '5', [/parallel\.moe_capacity_factor/, /0 or 1\.\.4/],
      'the message names the field and 0 or 1..4');

    // DeepEP's dispatcher does not pad to capacity: the field is hidden and leaves the scenario.
    await pickAndExpectGone(page, 'parallel.ep_dispatcher', 1, 'parallel.moe_capacity_factor');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('pipeline flushes: shown with pipeline stages under torchtitan, each flush a bubble, checked against the micro-batches', async () => {
  // Llama 3.1 8B on 8 GPUs, PP 2 x FSDP 4, global batch 64 of micro-batch 1: 16 micro-batches a
  // rank. One schedule's bubble is 1 / 16 of the ideal step; 4 schedules of 4 each, 1 / 4.
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=pretrain&n=8&pp=2&z=3&gb=64&fw=torchtitan' });
  try {
    await waitReady(page);
    const one = await result(page);
    assert.equal(one.layout.grad_accum, 16);
    await typeInto(page, 'parallel.pp_flushes', '4');
    const four = await result(page);
    assert.ok(four.time.bubble_s > 3 * one.time.bubble_s, `${four.time.bubble_s} > 3 x ${one.time.bubble_s}`);
    await page.waitForFunction(() => /&pf=4(&|$)/.test(location.hash), null, { timeout: 5000 });

    // 3 schedules cannot share 16 micro-batches: the core's message names the field and the count;
    // what was typed is kept.
    await typeRefused(page, 'parallel.pp_flushes', '3', [/parallel\.pp_flushes/, /16 micro-batches/],
      'the message names the field and the 16 micro-batches');

    // Megatron-LM runs the whole step in one schedule: the field is hidden and leaves the scenario.
    await pickAndExpectGone(page, 'framework', 4, 'parallel.pp_flushes');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('recomputed layers: shown with full recompute under Megatron, checked against the chunk, dropped with recompute', async () => {
  // Llama 3.1 8B pretraining (Megatron by default) on 8 GPUs, 2 pipeline stages of 16 blocks.
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=pretrain&n=8&pp=2&gb=64&rc=full' });
  try {
    await waitReady(page);
    assert.deepEqual((await result(page)).layout.stage_recomputed_layers, [16, 16]);
    await typeInto(page, 'parallel.recompute_layers', '4');
    assert.deepEqual((await result(page)).layout.stage_recomputed_layers, [4, 4]);
    await page.waitForFunction(() => /&rcl=4(&|$)/.test(location.hash), null, { timeout: 5000 });

    // More than a stage's 16 blocks: the core's message, under the field and in the banner.
    await typeRefused(page, 'parallel.recompute_layers', '17', [/largest pipeline chunk \(16/],
      'the message names the chunk\'s 16 blocks');

    // Without recompute the field no longer applies: it is hidden and leaves the scenario.
    await pickAndExpectGone(page, 'parallel.recompute', 0, 'parallel.recompute_layers');
    assert.deepEqual((await result(page)).layout.stage_recomputed_layers, [0, 0]);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('numbers are typed as people write them: 2e9 tokens, 2e0 GPUs, a GPU count past 2^31 named as typed', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=lora&n=1' });
  try {
    await waitReady(page);
    // Scientific notation in a number field: the 'e' was filtered out and "2e9" read as 29.
    await typeInto(page, 'tokens', '2e9');
    assert.equal((await input(page)).tokens, 2e9);
    assert.equal((await result(page)).scaling.tokens, 2e9);
    // An integer field takes it too: 2e0 GPUs is 2.
    await typeInto(page, 'cluster.gpus', '2e0');
    assert.equal((await input(page)).cluster.gpus, 2);
    // 5,000,000,000 GPUs wrapped to 705032704 through sscanf("%d"); now the core names what was typed.
    await typeInto(page, 'cluster.gpus', '5000000000');
    assert.equal((await input(page)).cluster.gpus, 5000000000);
    const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
    assert.ok(texts.some((t) => /cluster\.gpus: must be an integer in 1\.\.1000000; got 5000000000/.test(t.text)),
      'the message quotes the number typed');
    // Typing passed through 5, 50, ... 500000 GPUs, which parse: the dimmed results and the link
    // are those of the 2 GPUs before the typing began, not of the last keystroke that parsed.
    assert.equal((await result(page)).layout.gpus, 2);
    assert.match(await page.evaluate(() => window.Module.appFragment()), /&n=2(&|$)/);
    await page.waitForFunction(() => location.hash === '#' + window.Module.appFragment());
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('picking a cloud offering changes the price; the offering\'s price and region are shown', async () => {
  const { context, page } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=full&n=8&t=1e9' });
  try {
    await waitReady(page);
    const before = await result(page);
    let n = await updates(page);
    await pickCombo(page, 'cluster.mode', 1);  // Accelerator x count -> Cloud offering
    await settled(page, n);
    const doc = await input(page);
    assert.ok(doc.cluster.instance, JSON.stringify(doc.cluster));
    const after = await result(page);
    assert.equal(after.cluster.instance, doc.cluster.instance);
    assert.notEqual(after.cost.usd_per_gpu_hour, before.cost.usd_per_gpu_hour);
    assert.match(after.cost.price_source, /catalog instance/);
    const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
    assert.ok(texts.some((t) => /per instance-hour/.test(t.text)), 'the offering price line is shown');

    // Pricing mode spot via the keyboard-driven combo: the price changes again (or the core says why).
    n = await updates(page);
    await pickCombo(page, 'pricing.mode', 1);
    await settled(page, n);
    assert.equal((await input(page)).pricing.mode, 'spot');
  } finally {
    await context.close();
  }
});

// A Chinese cloud quotes in yuan: with the costs in yuan, the price override is typed in yuan and
// kept as pricing.usd_per_gpu_hour at the catalog's dated rate, the field the core and links read.
test('a yuan scenario takes its price override in yuan and keeps it in USD at the catalog rate', async () => {
  const { context, page, errors } = await openApp(browser, server.origin,
    { ...tall, path: '/?lang=zh#v=1&m=llama-3.1-8b&me=full&n=8&t=1e9&cu=cny' });
  try {
    await waitReady(page);
    const rate = (await result(page)).cost.usd_to_cny;
    const r = await widget(page, 'pricing.usd_per_gpu_hour');
    await page.mouse.click(r.x + r.w * 0.3, r.y + r.h / 2);
    await selectAllAndType(page, '20');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => JSON.parse(window.Module.appInput()).pricing?.usd_per_gpu_hour !== undefined,
                               null, { timeout: 10000 });
    assert.ok(Math.abs((await input(page)).pricing.usd_per_gpu_hour - 20 / rate) < 1e-9);
    await page.waitForFunction((p) => Math.abs(JSON.parse(window.Module.appResult()).cost.usd_per_gpu_hour - p) < 1e-9,
                               20 / rate, { timeout: 10000 });
    const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
    assert.ok(texts.some((t) => t.text === '元/卡时'), 'the unit reads in yuan');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('keyboard navigation: Tab moves focus between fields and arrows/Enter edit them', async () => {
  const { context, page } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=full&n=8&s=4096' });
  try {
    await waitReady(page);
    // Focus the sequence-length field by clicking it, then Tab to the micro-batch field and type.
    const r = await widget(page, 'seq_len');
    await page.mouse.click(r.x + r.w * 0.3, r.y + r.h / 2);
    await page.waitForTimeout(100);
    const n = await updates(page);
    await page.keyboard.press('Tab');
    await page.waitForTimeout(100);
    await selectAllAndType(page, '2');
    await page.keyboard.press('Enter');
    await settled(page, n);
    const doc = await input(page);
    assert.equal(doc.seq_len, 4096);
    assert.equal(doc.micro_batch, 2, JSON.stringify(doc));
    // Browser shortcuts are not taken: Ctrl+R / F5 / Ctrl+= keydowns are not default-prevented.
    const prevented = await page.evaluate(() => {
      const out = {};
      for (const [key, ctrl] of [['r', true], ['F5', false], ['=', true], ['-', true], ['0', true], ['F12', false]]) {
        const e = new KeyboardEvent('keydown', { key, ctrlKey: ctrl, bubbles: true, cancelable: true });
        document.getElementById('canvas').dispatchEvent(e);
        out[key] = e.defaultPrevented;
      }
      return out;
    });
    assert.deepEqual(Object.values(prevented).filter(Boolean), [], JSON.stringify(prevented));
  } finally {
    await context.close();
  }
});

test('paste: the browser paste event types into the active field; Ctrl+C copies through navigator.clipboard', async () => {
  const { context, page } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=full&n=8&s=4096' });
  try {
    await waitReady(page);
    const r = await widget(page, 'seq_len');
    await page.mouse.click(r.x + r.w * 0.3, r.y + r.h / 2);  // the field selects all on click
    await page.waitForTimeout(150);
    const n = await updates(page);
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', '8192\n');
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await settled(page, n);
    assert.equal((await input(page)).seq_len, 8192);
    // Ctrl held as a person holds it (a few frames), so a loaded machine cannot release the
    // modifier before the app's next frame reads it.
    await page.keyboard.down('Control');
    await waitFrames(page);
    await page.keyboard.press('a');
    await waitFrames(page);
    await page.keyboard.press('c');
    await waitFrames(page);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => window.llmplanLastCopied === '8192', null, { timeout: 5000 });
  } finally {
    await context.close();
  }
});

test('a touch tap works on the first tap', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, hasTouch: true, locale: 'en-US' });
  const page = await context.newPage();
  try {
    await page.goto(server.origin + '/#v=1&m=llama-3.1-8b&me=full&n=8&s=4096');
    await waitReady(page);
    const r = await widget(page, 'seq_len');
    const n = await updates(page);
    // The "+" stepper at the right end of the field: one tap, one step.
    await page.touchscreen.tap(r.x + r.w - r.h / 2, r.y + r.h / 2);
    await settled(page, n);
    assert.equal((await input(page)).seq_len, 4097);
  } finally {
    await context.close();
  }
});

test('exports: Markdown summary, scenario JSON and result JSON', async () => {
  const { context, page } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=full&n=8&t=1e9' });
  try {
    await waitReady(page);
    await click(page, 'export_markdown');
    await page.waitForFunction(() => /## llmplan estimate/.test(window.llmplanLastCopied || ''), null, { timeout: 5000 });
    const md = await page.evaluate(() => window.llmplanLastCopied);
    assert.match(md, /Llama 3\.1 8B/);
    assert.match(md, /\| Cost \| \$/);
    await click(page, 'export_scenario');
    await page.waitForFunction(() => window.llmplanLastDownload?.filename === 'llmplan-scenario.json', null, { timeout: 5000 });
    const scenario = JSON.parse(await page.evaluate(() => window.llmplanLastDownload.text));
    assert.deepEqual(scenario, await input(page));
    await click(page, 'export_result');
    await page.waitForFunction(() => window.llmplanLastDownload?.filename === 'llmplan-result.json', null, { timeout: 5000 });
    const downloaded = JSON.parse(await page.evaluate(() => window.llmplanLastDownload.text));
    const web = await page.evaluate((s) => window.llmplan.estimate(s, { explain: true }), scenario);
    assert.deepEqual(downloaded, web);
  } finally {
    await context.close();
  }
});

test('catalog view: an instance price override is applied, kept across a reload and exportable', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/#v=1&m=llama-3.1-8b&me=full&t=1e9' });
  try {
    await waitReady(page);
    await click(page, 'tab_catalog');
    await click(page, 'cat_tab_instances');
    writeFileSync(join(artifactsDir, 'ui-catalog.png'), await page.screenshot());
    let n = await updates(page);
    await click(page, 'instances_use_first');  // "use" on the first row: the scenario runs on it
    await settled(page, n);
    const id = (await input(page)).cluster.instance;
    assert.ok(id);
    const before = await result(page);
    // Select the row (its name cell), set a price, apply.
    const rects = await page.evaluate(() => JSON.parse(window.Module.appWidgets()));
    const use = rects.find((w) => w.id === 'instances_use_first');
    await page.mouse.move(use.x + use.w + 30, use.y + use.h / 2);
    await page.waitForTimeout(50);
    await page.mouse.click(use.x + use.w + 30, use.y + use.h / 2);
    await page.waitForTimeout(150);
    const price = await widget(page, 'price_override');
    await page.mouse.move(price.x + 10, price.y + price.h / 2);
    await page.waitForTimeout(50);
    await page.mouse.click(price.x + 10, price.y + price.h / 2);
    await selectAllAndType(page, '1234');
    await page.keyboard.press('Enter');
    n = await updates(page);
    await click(page, 'price_apply');
    await settled(page, n);
    const edits = await page.evaluate(() => JSON.parse(window.Module.appCatalogEdits()));
    assert.equal(edits.prices[id], 1234);
    const after = await result(page);
    assert.notEqual(after.cost.usd_per_gpu_hour, before.cost.usd_per_gpu_hour);
    assert.equal(await page.evaluate(() => window.llmplan.catalogStatus().source), 'built-in + edits');

    await page.reload();
    await waitReady(page);
    const kept = await page.evaluate(() => JSON.parse(window.Module.appCatalogEdits()));
    assert.equal(kept.prices[id], 1234, 'edits survive a reload (localStorage)');
    assert.equal((await result(page)).cost.usd_per_gpu_hour, after.cost.usd_per_gpu_hour);
    await click(page, 'tab_catalog');
    await click(page, 'cat_tab_edits');
    await click(page, 'export_edits');
    await page.waitForFunction(() => window.llmplanLastDownload?.filename === 'llmplan-catalog-edits.json', null, { timeout: 5000 });
    assert.deepEqual(JSON.parse(await page.evaluate(() => window.llmplanLastDownload.text)), kept);
    await click(page, 'clear_edits');
    assert.equal(await page.evaluate(() => localStorage.getItem('llmplan.catalogEdits')), null);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a custom GPU is validated by the catalog loader and can be used', async () => {
  const edits = { gpus: [{ base: 'h100-sxm5-80gb', id: 'my-gpu-141gb', name: 'My GPU 141GB', memory_gb: 141, memory_bw_gb_per_s: 4800, bf16_dense_tflops: 989 }] };
  const init = (e) => localStorage.setItem('llmplan.catalogEdits', JSON.stringify(e));
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-US' });
  await context.addInitScript(init, edits);
  const page = await context.newPage();
  try {
    await page.goto(server.origin + '/');
    await waitReady(page);
    const r = await page.evaluate(() => {
      window.Module.appOpenLink('#v=1&m=llama-3.1-8b&me=full&g=my-gpu-141gb&n=8');
      return JSON.parse(window.Module.appResult());
    });
    assert.equal(r.cluster.accelerator, 'my-gpu-141gb');
    assert.equal(r.memory.capacity_bytes, 141e9);
  } finally {
    await context.close();
  }
});

test('damaged saved edits (localStorage) are refused with a message; the app starts on the built-in catalog', async () => {
  // Hand-edited or damaged values: a number out of double's range, and the right JSON in the wrong
  // shape (core's apply_catalog_edits refuses every kind of damage: test_catalog.cpp; here, that
  // the app starts on the built-in catalog and shows the refusal).
  const damaged = ['1E978', '{"gpus": [{"base": 5}]}'];
  for (const text of damaged) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-US' });
    await context.addInitScript((t) => localStorage.setItem('llmplan.catalogEdits', t), text);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    try {
      await page.goto(server.origin + '/?lang=en');
      await waitReady(page);
      assert.equal(await page.evaluate(() => window.llmplan.catalogStatus().source), 'built-in', text);
      await click(page, 'tab_catalog');
      await click(page, 'cat_tab_edits');
      await waitFrames(page);
      const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()).map((t) => t.text).join('\n'));
      assert.match(texts, /refused/, `${text}: the refusal is shown`);
      assert.deepEqual(errors, [], text);
    } finally {
      await context.close();
    }
  }
});

const layouts = [
  [1280, 720, 1, 'en'], [1280, 720, 1, 'zh'], [1920, 1080, 1, 'en'], [1920, 1080, 1, 'zh'],
  [800, 900, 1, 'en'], [800, 900, 1, 'zh'], [1280, 720, 2, 'en'], [1280, 720, 2, 'zh'],
  [1280, 720, 1.25, 'zh'], [1280, 720, 3, 'zh'],
];
for (const [width, height, dpr, lang] of layouts) {
  test(`layout ${width}x${height} at dpr ${dpr} in ${lang}: no overlapping or clipped text`, async () => {
    const path = `/?lang=${lang}#v=1&m=llama-3.1-70b&me=full&s=4096&gb=256&t=2e9&n=64&tp=8&pp=2&z=1`;
    const { context, page, errors } = await openApp(browser, server.origin, { width, height, dpr, path });
    try {
      await waitReady(page);
      await page.waitForTimeout(200);
      writeFileSync(join(artifactsDir, `ui-${width}x${height}-dpr${dpr}-${lang}.png`), await page.screenshot());
      await assertLayout(page, `${width}x${height}@${dpr} ${lang}`);
      // The catalog view too.
      await click(page, 'tab_catalog');
      await page.waitForTimeout(150);
      writeFileSync(join(artifactsDir, `ui-catalog-${width}x${height}-dpr${dpr}-${lang}.png`), await page.screenshot());
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('"Paste your measurement": a pasted log fills the calibration block; an unreadable one changes nothing', async () => {
  const { context, page } = await openApp(browser, server.origin,
    { width: 1280, height: 2400, path: '/#v=1&m=llama-3.1-8b&me=full&n=8&s=4096&z=3' });
  try {
    await waitReady(page);
    await click(page, 'sec_calibration');  // closed until the scenario has measurements
    const box = await widget(page, 'measure_log');
    const pasteInto = async (text) => {
      await page.mouse.click(box.x + box.w / 2, box.y + box.h / 2);
      await waitFrames(page, 3);
      await page.keyboard.down('Control');
      await waitFrames(page);
      await page.keyboard.press('a');
      await waitFrames(page);
      await page.keyboard.up('Control');
      await page.evaluate((t) => {
        const dt = new DataTransfer();
        dt.setData('text/plain', t);
        document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      }, text);
      await waitFrames(page, 3);
    };
    // Not a log: nothing changes, and the app says what it looked for.
    await pasteInto('hello\nnothing to see\n');
    const before = JSON.stringify(await input(page));
    await click(page, 'measure_read');
    await page.waitForFunction(() => window.Module.appTexts().includes('no measurement recognised'), null, { timeout: 5000 });
    assert.equal(JSON.stringify(await input(page)), before);
    // A torchtitan log: tps after the first step (median of 3,000 and 3,200 = 3,100), memory as reserved.
    await pasteInto('step:  1  loss: 12.2  memory: 30.00GiB(40%)  tps: 900  mfu: 5%\n' +
                    'step:  2  loss: 11.2  memory: 31.00GiB(41%)  tps: 3,000  mfu: 25%\n' +
                    'step:  3  loss: 10.2  memory: 31.50GiB(41%)  tps: 3,200  mfu: 26%\n');
    const n = await updates(page);
    await click(page, 'measure_read');
    await settled(page, n);
    const cal = (await input(page)).calibration;
    assert.equal(cal.tokens_per_s_per_gpu, 3100);
    assert.equal(cal.peak_memory_gib, 31.5);
    assert.equal(cal.peak_memory_from, 'reserved');
    const r = await result(page);
    assert.ok(Math.abs(r.calibration.reproduced.tokens_per_s_per_gpu.estimated / 3100 - 1) < 0.01);
    assert.equal(r.ranges['time.tokens_per_s'].basis, 'measured');  // the scenario is the trial's configuration
    await page.screenshot({ path: join(artifactsDir, 'calibration-paste.png') });
  } finally {
    await context.close();
  }
});

// The "Own or rent" tab: no overlapping or clipped text in both languages and at a narrow width,
// and "Use this scenario's GPU-hours" puts the scenario's GPU-hours a month into the question
// and its link.
for (const [width, height, dpr, lang] of [[1280, 720, 1, 'en'], [1280, 720, 2, 'zh'], [800, 900, 1, 'zh'], [1920, 1080, 1, 'en']]) {
  test(`own-or-rent tab ${width}x${height} at dpr ${dpr} in ${lang}: no overlapping or clipped text`, async () => {
    const path = `/?lang=${lang}#v=1&c=${catalogVersion}&mv=${modelVersion}&wa=h100-sxm5-80gb&wn=2&wu=0.6`;
    const { context, page, errors } = await openApp(browser, server.origin, { width, height, dpr, path });
    try {
      await waitReady(page);
      await page.waitForFunction(() => JSON.parse(window.Module.appTco()).active, null, { timeout: 10000 });
      await waitFrames(page, 3);
      writeFileSync(join(artifactsDir, `ui-tco-${width}x${height}-dpr${dpr}-${lang}.png`), await page.screenshot());
      await assertLayout(page, `own-or-rent ${width}x${height}@${dpr} ${lang}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('own or rent: the scenario\'s GPU-hours become the workload, in the question and its link', async () => {
  const path = `/#v=1&c=${catalogVersion}&mv=${modelVersion}&wa=a100-sxm4-80gb&wu=0.6`;
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path });
  try {
    await waitReady(page);
    await page.waitForFunction(() => JSON.parse(window.Module.appTco()).active, null, { timeout: 10000 });
    const gpuHours = (await result(page)).gpu_hours;
    await click(page, 'tco.use_scenario');
    await page.waitForFunction(() => !!JSON.parse(window.Module.appTco()).question.workload, null, { timeout: 5000 });
    await waitFrames(page, 2);
    const tco = await page.evaluate(() => JSON.parse(window.Module.appTco()));
    // The app's scenario runs on H100s: the servers follow it; 60 months is the default horizon.
    assert.equal(tco.question.servers.accelerator, (await result(page)).cluster.accelerator);
    assert.ok(Math.abs(tco.question.workload.gpu_hours_per_month - gpuHours / 60) < 1e-6 * gpuHours);
    assert.equal(tco.question.utilisation, undefined);
    assert.ok(Math.abs(tco.answer.own.gpu_hours_per_month - gpuHours / 60) < 1e-6 * gpuHours);
    // The address bar follows the app's fragment 300 ms after an edit: wait for it, not for a time.
    await page.waitForFunction(() => /&ww=/.test(location.hash), null, { timeout: 10000 }).catch(() => {});
    assert.match(await page.evaluate(() => location.hash), /&ww=/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// Until it is edited, the own-or-rent question asks about the scenario's accelerator in its currency:
// a yuan Ascend 910B scenario opens on the catalog's Atlas 800T A2 servers priced in yuan.
test('own or rent follows the scenario\'s accelerator and currency until the question is edited', async () => {
  const scenario = { model: { preset: 'qwen2.5-7b' }, method: 'full', tokens: 1e9,
                     cluster: { accelerator: 'ascend-910b', gpus: 8 }, parallel: { zero: 3, recompute: 'full' },
                     pricing: { currency: 'cny' } };
  const fragment = execFileSync(cliPath, ['link', 'encode', '-'], { input: JSON.stringify(scenario) }).toString().trim();
  const { context, page, errors } = await openApp(browser, server.origin, { ...tall, path: '/?lang=zh#' + fragment });
  try {
    await waitReady(page);
    await click(page, 'tab_tco');
    await page.waitForFunction(() => JSON.parse(window.Module.appTco()).question.servers.accelerator === 'ascend-910b',
                               null, { timeout: 10000 });
    const tco = await page.evaluate(() => JSON.parse(window.Module.appTco()));
    assert.equal(tco.question.currency, 'cny');
    const cli = JSON.parse(execFileSync(cliPath, ['tco', '-'], { input: JSON.stringify(tco.question) }).toString());
    assert.deepEqual(tco.answer, cli);
    assert.equal(tco.answer.question.currency, 'cny');
    // A yuan question asks colocation and staff in yuan too: typed, they travel in the question and
    // its link as colocation_cny_per_kw_month / staff_cny_per_month (wcc, wsc), as the CLI reads them.
    for (const [id, text] of [['tco.colocation_cny_per_kw_month', '1200'], ['tco.staff_cny_per_month', '9000']]) {
      const r = await widget(page, id);
      await page.mouse.click(r.x + r.w * 0.3, r.y + r.h / 2);
      await selectAllAndType(page, text);
      await page.keyboard.press('Enter');
    }
    await page.waitForFunction(() => {
      const q = JSON.parse(window.Module.appTco()).question;
      return q.colocation_cny_per_kw_month === 1200 && q.staff_cny_per_month === 9000;
    }, null, { timeout: 10000 });
    await page.waitForFunction(() => /wcc=1\.2e3/.test(location.hash) && /wsc=9e3/.test(location.hash), null,
                               { timeout: 10000 });
    const edited = await page.evaluate(() => JSON.parse(window.Module.appTco()));
    const answer = JSON.parse(execFileSync(cliPath, ['tco', '-'], { input: JSON.stringify(edited.question) }).toString());
    assert.deepEqual(edited.answer, answer);
    assert.equal(edited.answer.own.monthly_breakdown.staff_cny, 9000);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// The catalog's provider scorecard: kind, GPUs listed, multi-node RDMA, parallel file system,
// images and platform, billing and lead time, in both languages.
for (const lang of ['en', 'zh']) {
  test(`the provider scorecard in ${lang}: every provider, no overlapping or clipped text`, async () => {
    const { context, page, errors } = await openApp(browser, server.origin, { width: 1920, height: 1080, dpr: 1, path: `/?lang=${lang}` });
    try {
      await waitReady(page);
      await click(page, 'tab_catalog');
      await click(page, 'cat_tab_providers');
      await waitFrames(page, 3);
      writeFileSync(join(artifactsDir, `catalog-providers-1920-${lang}.png`), await page.screenshot());
      await widget(page, 'providers_filter');
      await assertLayout(page, `providers ${lang}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

// The results as text (#mirror, card.js over the app's result JSON): what a screen reader reads,
// updated after every edit; "Text view" shows it to everyone, in both languages.
test('the text view: the accessibility tree has the headline figures, follows an edit, and shows in both languages', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { width: 1280, height: 800, dpr: 2,
    path: '/?lang=en#v=1&m=llama-3.1-8b&me=full&n=8&z=0&t=1e9' });
  try {
    await waitReady(page);
    await page.waitForFunction(() => Number(document.getElementById('mirror').dataset.updates || 0) > 0, null, { timeout: 10000 });
    const r = await result(page);
    const figure = (path) => page.evaluate((p) => document.querySelector(`#mirror [data-figure="${p}"]`)?.getAttribute('data-value'), path);
    assert.equal(await figure('memory.per_gpu_bytes.total'), String(r.memory.per_gpu_bytes.total));
    assert.equal(await figure('time.mfu'), String(r.time.mfu));
    const tree = await page.locator('#mirror').ariaSnapshot();
    assert.match(tree, /Llama 3\.1 8B/);
    assert.match(tree, /Per-GPU memory/);
    assert.match(tree, /Weights/);
    assert.equal(await page.getAttribute('#mirror-headline', 'aria-live'), 'polite');
    // An edit (ZeRO 0 -> 3 through a link the app opens) re-renders it with the new figures.
    const before = Number(await page.getAttribute('#mirror', 'data-updates'));
    await page.evaluate(() => window.Module.appOpenLink('#v=1&m=llama-3.1-8b&me=full&n=8&z=3&t=1e9'));
    await page.waitForFunction((n) => Number(document.getElementById('mirror').dataset.updates) > n, before, { timeout: 10000 });
    const after = await result(page);
    assert.ok(after.memory.per_gpu_bytes.total < r.memory.per_gpu_bytes.total);
    assert.equal(await figure('memory.per_gpu_bytes.total'), String(after.memory.per_gpu_bytes.total));
    // "Text view" lays it over the canvas; the canvas keeps its size.
    const canvasBefore = await page.locator('#canvas').boundingBox();
    await page.click('#text-view');
    assert.equal(await page.getAttribute('#text-view', 'aria-pressed'), 'true');
    assert.deepEqual(await page.locator('#canvas').boundingBox(), canvasBefore);
    assert.ok((await page.locator('#mirror').boundingBox()).width > 300);
    writeFileSync(join(artifactsDir, 'text-view-en.png'), await page.screenshot());
    // In Chinese (the app's language button sets <html lang>): the mirror follows.
    await click(page, 'language');
    await page.waitForFunction(() => document.getElementById('mirror').getAttribute('lang') === 'zh-CN', null, { timeout: 10000 });
    assert.match(await page.locator('#mirror').ariaSnapshot(), /单卡显存/);
    assert.equal(await page.textContent('#text-view'), '返回图形界面');
    writeFileSync(join(artifactsDir, 'text-view-zh.png'), await page.screenshot());
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// A file dropped anywhere on the page, as a user drags one from their desktop.
const dropFile = (page, name, type, text) => page.evaluate(([n, k, t]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([t], n, { type: k }));
  document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
}, [name, type, text]);

// "Import your config": a Hugging Face config.json dropped on the page becomes the scenario's
// model; Llama 3.1 8B has 8,030,261,248 parameters (its model card), and the keys not imported are listed.
test('a dropped config.json of Llama 3.1 8B sets 8,030,261,248 parameters', async () => {
  const text = readFileSync(join(repoRoot, 'tests/import/llama-3.1-8b.config.json'), 'utf8');
  const { context, page, errors } = await openApp(browser, server.origin, { width: 1280, height: 800, path: '/?lang=en#v=1&m=qwen2.5-7b&me=lora' });
  try {
    await waitReady(page);
    await dropFile(page, 'config.json', 'application/json', text);
    await page.waitForFunction(() => JSON.parse(window.Module.appResult()).model?.params?.total === 8030261248, null, { timeout: 10000 });
    const input = JSON.parse(await page.evaluate(() => window.Module.appInput()));
    assert.equal(input.model.layers, 32);
    assert.equal(input.method, 'lora', 'a config.json changes the model only');
    // The app draws the import's report on its next frames: wake it until the line is there.
    for (let i = 0; i < 20 && !(await page.evaluate(() => window.Module.appTexts())).includes('Imported a Hugging Face config.json'); i++) {
      await page.mouse.move(600 + i, 400);
      await waitFrames(page, 1);
    }
    assert.match(await page.evaluate(() => window.Module.appTexts()), /Imported a Hugging Face config\.json config/);
    writeFileSync(join(artifactsDir, 'import-config-json.png'), await page.screenshot());
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// A Megatron-LM launch command (the launch artefacts' own, for an MoE layout) dropped on the page
// sets its layout, batch and model: Megatron-LM's flags, not micro-batch x GPUs as a Trainer's.
test('a dropped Megatron-LM command sets its layout, global batch and model, in English and Chinese', async () => {
  const command = [
    'torchrun --nnodes=4 --nproc_per_node=8 pretrain_gpt.py \\',
    '  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --context-parallel-size 2 \\',
    '  --expert-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --sequence-parallel \\',
    '  --moe-token-dispatcher-type alltoall --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \\',
    '  --num-layers 48 --hidden-size 2048 --ffn-hidden-size 6144 --num-attention-heads 32 --kv-channels 128 \\',
    '  --group-query-attention --num-query-groups 4 --num-experts 128 --moe-router-topk 8 --moe-ffn-hidden-size 768 \\',
    '  --swiglu --normalization RMSNorm --position-embedding-type rope --untie-embeddings-and-output-weights \\',
    '  --disable-bias-linear --seq-length 4096 --micro-batch-size 1 --global-batch-size 256 --bf16 \\',
    '  --attention-dropout 0.0 --hidden-dropout 0.0 --tokenizer-model Qwen/Qwen3-30B-A3B --lr 3e-4',
  ].join('\n');
  for (const lang of ['en', 'zh']) {
    const { context, page, errors } = await openApp(browser, server.origin, { width: 1280, height: 800, path: `/?lang=${lang}#v=1&m=llama-3.1-8b&me=full&n=8` });
    try {
      await waitReady(page);
      await dropFile(page, 'launch.sh', 'text/x-sh', command);
      await page.waitForFunction(() => JSON.parse(window.Module.appInput()).parallel?.ep === 4, null, { timeout: 10000 });
      const input = JSON.parse(await page.evaluate(() => window.Module.appInput()));
      assert.equal(input.model.preset, 'qwen3-30b-a3b');
      assert.deepEqual([input.parallel.tp, input.parallel.pp, input.parallel.cp, input.parallel.vp], [2, 2, 2, 2]);
      assert.equal(input.global_batch, 256, 'Megatron-LM\'s --global-batch-size, not micro-batch x GPUs (32)');
      assert.equal(input.cluster.gpus, 32);
      assert.equal(input.framework, 'megatron');
      for (let i = 0; i < 20 && !(await page.evaluate(() => window.Module.appTexts())).includes('Megatron-LM (torchrun)'); i++) {
        await page.mouse.move(600 + i, 400);
        await waitFrames(page, 1);
      }
      assert.match(await page.evaluate(() => window.Module.appTexts()), /Megatron-LM \(torchrun\)/);
      writeFileSync(join(artifactsDir, `import-megatron-${lang}.png`), await page.screenshot());
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

// Without WebGL the canvas cannot draw: the page shows the link's figures as text, computed by the
// API module (the same core), with the reason.
test('without WebGL the page shows the results as text, the CLI\'s figures', async () => {
  const fragment = 'v=1&m=llama-3.1-8b&me=full&n=8&z=3&t=1e9';
  const noWebGL = () => {
    const get = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === 'webgl2' || kind === 'webgl' ? null : get.call(this, kind, ...rest);
    };
  };
  const { context, page } = await openApp(browser, server.origin, { width: 1000, height: 800, path: '/?lang=zh#' + fragment, init: noWebGL });
  try {
    await page.waitForFunction(() => document.getElementById('mirror').dataset.updates === '1', null, { timeout: 20000 });
    const cli = JSON.parse(execFileSync(cliPath, ['link', 'estimate', fragment], { stdio: ['ignore', 'pipe', 'pipe'] }).toString());
    const shown = await page.evaluate(() => document.querySelector('#mirror [data-figure="memory.per_gpu_bytes.total"]').getAttribute('data-value'));
    assert.equal(shown, String(cli.memory.per_gpu_bytes.total));
    const tree = await page.locator('#mirror').ariaSnapshot();
    assert.match(tree, /WebGL 2/);
    assert.match(tree, /单卡显存/);
    assert.ok((await page.locator('#mirror').boundingBox()).width > 900, 'the text is the page');
    writeFileSync(join(artifactsDir, 'no-webgl-text-zh.png'), await page.screenshot());
  } finally {
    await context.close();
  }
});

// Phones: a shared link opened at 390 x 844 shows the answer first: the result card (card.js over
// the core's result JSON) inside the first screen, the CLI's figures in it, the full results under
// it and the inputs folded under "Edit the scenario". A finger's swipe scrolls the canvas (the card
// with it) and clicks nothing; a tap opens the inputs.
const phoneLink = `v=1&c=${catalogVersion}&mv=${modelVersion}&m=llama-3.1-70b&me=full&s=4096&gb=256&t=2e9&n=64&tp=8&pp=2&z=1`;
const cardFigures = ['memory.fits', 'memory.per_gpu_bytes.total', 'time.step_s', 'time.total_hours', 'time.mfu',
                     'time.tokens_per_s', 'tier'];
const cardBox = (page) => page.locator('#mirror').boundingBox();

async function openPhone(lang) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true,
                                             locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.origin}/?lang=${lang}#${phoneLink}`);
  await waitReady(page);
  // The card is drawn, measured, and the canvas has made room for it.
  await page.waitForFunction(() => {
    const m = document.getElementById('mirror');
    return document.body.classList.contains('phone-card') && Number(m.dataset.updates || 0) > 0 &&
      m.style.getPropertyValue('--card-y') !== '' && m.getBoundingClientRect().height > 150;
  }, null, { timeout: 20000 });
  await waitFrames(page, 3);
  return { context, page, errors };
}

// A finger dragged from (x, y0) to (x, y1) in steps, each seen by a frame. The first move follows
// the touch at once, as a finger's does: a finger still for 400 ms by the events' time stamps
// presses and drags instead (platform_web.cpp), and a frame can take that long here.
async function swipe(page, cdp, x, y0, y1) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: y0 }] });
  for (let i = 1; i <= 6; ++i) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y0 + (y1 - y0) * i / 6 }] });
    await waitFrames(page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await waitFrames(page, 2);
}

for (const lang of ['en', 'zh']) {
  test(`phone 390x844 in ${lang}: the result card comes first, with the CLI's figures; the inputs are folded`, async () => {
    const { context, page, errors } = await openPhone(lang);
    try {
      const box = await cardBox(page);
      assert.ok(box.y >= 0 && box.y + box.height <= 844, `the card lies in the first screen: ${JSON.stringify(box)}`);
      const cli = JSON.parse(execFileSync(cliPath, ['link', 'estimate', phoneLink], { stdio: ['ignore', 'pipe', 'pipe'] }).toString());
      const at = (path) => path.split('.').reduce((o, k) => o[k], cli);
      const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#mirror-headline [data-figure]')]
        .map((e) => [e.getAttribute('data-figure'), e.getAttribute('data-value')])));
      const cost = lang === 'zh' ? 'cost.total_cny' : 'cost.total_usd';
      for (const path of [...cardFigures, cost]) assert.equal(shown[path], String(at(path)), path);
      assert.ok(cli.warnings.length > 0);
      assert.equal(await page.locator('#mirror-more ul.warnings li').count(), Math.min(cli.warnings.length, 3) + (cli.warnings.length > 3 ? 1 : 0));
      // The canvas leaves the card's band empty: no text of the app's lies under it.
      const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
      const under = texts.filter((t) => t.w > 0 && t.y < box.y + box.height - 1 && t.y + t.h > box.y + 1);
      assert.deepEqual(under.map((t) => t.text), []);
      writeFileSync(join(artifactsDir, `phone-390x844-dpr3-${lang}.png`), await page.screenshot());
      await assertLayout(page, `phone ${lang}`);
      const ids = JSON.parse(await page.evaluate(() => window.Module.appWidgets())).map((w) => w.id);
      assert.ok(ids.includes('tab_results') && ids.includes('edit_scenario'), ids.join(', '));
      assert.ok(!ids.includes('seq_len'), 'the inputs are folded');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('phone: a swipe scrolls the canvas and the card with it, clicking nothing; a tap opens "Edit the scenario", whose labels never break inside a word', async () => {
  const { context, page, errors } = await openPhone('en');
  try {
    const cdp = await context.newCDPSession(page);
    const before = await cardBox(page);
    const n = await updates(page);
    const doc = JSON.stringify(await input(page));
    await swipe(page, cdp, 200, 700, 400);  // up by 300 px, starting on the canvas below the card
    const cardAt = (y) => page.waitForFunction((want) => Math.abs(document.getElementById('mirror').getBoundingClientRect().y - want) < 30,
                                               y, { timeout: 5000 }).then(() => true, () => false);
    assert.ok(await cardAt(before.y - 300), `the card followed the finger: ${before.y} -> ${(await cardBox(page)).y}`);
    assert.equal(await updates(page), n, 'the swipe clicked nothing');
    assert.equal(JSON.stringify(await input(page)), doc);
    await swipe(page, cdp, 200, 400, 800);  // back down: the card returns to the top and stops there
    assert.ok(await cardAt(before.y), `the card is back: ${before.y} -> ${(await cardBox(page)).y}`);
    // Down to the folded inputs at the end of the window (a few swipes), then a tap opens them.
    const visible = (r) => r && r.y > 0 && r.y + r.h < 820;
    for (let i = 0; i < 12; ++i) {
      const r = JSON.parse(await page.evaluate(() => window.Module.appWidgets())).find((w) => w.id === 'edit_scenario');
      if (visible(r)) break;
      await swipe(page, cdp, 200, 750, 150);
    }
    const header = await widget(page, 'edit_scenario');
    assert.ok(visible(header), JSON.stringify(header));
    await page.touchscreen.tap(header.x + header.w / 2, header.y + header.h / 2);
    await widget(page, 'seq_len');
    // Labels never break inside a word: one wider than its column is one line cut with "…".
    await widget(page, 'parallel.flash_attention');
    const flash = JSON.parse(await page.evaluate(() => window.Module.appTexts())).find((t) => t.text.startsWith('FlashAtten'));
    assert.ok(flash && flash.text.endsWith('\u2026') && flash.h < 25, JSON.stringify(flash));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// A finger's 400 ms hold is judged by the events' own times (platform_web.cpp): a page busy with
// a long frame holds the moves back while its timers run late, and a swipe made at once must
// still scroll; a finger held still past 400 ms before it moves presses and drags, scrolling
// nothing.
test('phone: a quick swipe scrolls even when the page is busy as it starts; a finger held 400 ms before it moves drags instead', async () => {
  const { context, page, errors } = await openPhone('en');
  try {
    const cdp = await context.newCDPSession(page);
    const touch = (type, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: y === undefined ? [] : [{ x: 200, y }] });
    const moveUp = async () => { for (let i = 1; i <= 6; ++i) await touch('touchMove', 700 - 50 * i); };
    const cardNear = async (want, what) => {
      await waitFrames(page, 3);
      await page.waitForFunction((y) => Math.abs(document.getElementById('mirror').getBoundingClientRect().y - y) < 30,
                                 want, { timeout: 5000 }).catch(() => {});
      const y = (await cardBox(page)).y;
      assert.ok(Math.abs(y - want) < 30, `${what}: the card is at ${y}, not ${want}`);
    };
    const before = await cardBox(page);
    const n = await updates(page);
    const doc = JSON.stringify(await input(page));
    // The moves are sent while the page spends 700 ms in script: they reach it late.
    await touch('touchStart', 700);
    const busy = page.evaluate(() => { const t = performance.now(); while (performance.now() - t < 700); });
    await new Promise((r) => setTimeout(r, 50));
    await moveUp();
    await busy;
    await touch('touchEnd');
    await cardNear(before.y - 300, 'a swipe while busy');
    // Held still for 600 ms by the clock, then the same travel: a drag on the window, no scroll.
    await touch('touchStart', 700);
    await new Promise((r) => setTimeout(r, 600));
    await moveUp();
    await touch('touchEnd');
    await cardNear(before.y - 300, 'a held finger');
    assert.equal(await updates(page), n, 'the gestures clicked nothing');
    assert.equal(JSON.stringify(await input(page)), doc);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// Chinese through an IME: while an ImGui text field is active a real <input> lies over it (canvas
// text fields take no composition); the composition shows there, and the committed text reaches
// the field: the catalog's offerings filter by a provider's Chinese name.
test('an IME composes Chinese into the catalog filter through the <input> over the field', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { width: 1280, height: 720, path: '/?lang=en' });
  try {
    await waitReady(page);
    await click(page, 'tab_catalog');
    await click(page, 'cat_tab_instances');
    const name = '矩池云';
    const all = (await page.evaluate(() => window.llmplan.catalog().instances.length));
    const expected = await page.evaluate((n) => window.llmplan.catalog().instances.filter((i) => i.name.includes(n)).length, name);
    assert.ok(expected > 0 && expected < all);
    const rows = (shown) => page.waitForFunction((t) => JSON.parse(window.Module.appTexts()).some((x) => x.text === t),
                                                 `${shown} of ${all}`, { timeout: 5000 }).then(() => true, () => false);
    assert.ok(await rows(all));
    const filter = await widget(page, 'instances_filter');
    await click(page, 'instances_filter', 0.3);
    // The <input> lies over the active field and has the focus.
    await page.waitForFunction(() => document.activeElement?.id === 'ime-input', null, { timeout: 5000 });
    const box = await page.locator('#ime-input').boundingBox();
    assert.ok(Math.abs(box.y - filter.y) < 4 && box.x >= filter.x - 4 && box.x + box.width <= filter.x + filter.w + 4,
      `${JSON.stringify(box)} over ${JSON.stringify(filter)}`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'ju chi yun', selectionStart: 10, selectionEnd: 10 });
    assert.equal(await page.evaluate(() => document.getElementById('ime-input').className), 'composing');
    assert.ok(await rows(all), 'nothing reaches the field while composing');
    await cdp.send('Input.insertText', { text: name });
    assert.ok(await rows(expected), `the offerings filter by ${name}`);
    assert.equal(await page.evaluate(() => document.getElementById('ime-input').value), '');
    // Backspace still edits the field: with the three characters gone, every offering shows again.
    for (let i = 0; i < name.length; ++i) {
      await page.keyboard.press('Backspace');
      await waitFrames(page, 2);
    }
    assert.ok(await rows(all), 'Backspace reaches the field');
    // Leaving the field hides the <input>.
    await click(page, 'cat_tab_accelerators');
    await page.waitForFunction(() => document.getElementById('ime-input').style.display === 'none', null, { timeout: 5000 });
    // A custom GPU: its id typed key by key (each key once, through the <input>), its name composed.
    await click(page, 'cat_tab_edits');
    await click(page, 'gpu_id', 0.3);
    await selectAllAndType(page, 'my-gpu-2');
    await click(page, 'gpu_name', 0.3);
    await page.keyboard.down('Control');
    await waitFrames(page);
    await page.keyboard.press('a');
    await waitFrames(page);
    await page.keyboard.up('Control');
    await cdp.send('Input.imeSetComposition', { text: 'wo de xian ka', selectionStart: 13, selectionEnd: 13 });
    await cdp.send('Input.insertText', { text: '我的显卡' });
    await waitFrames(page, 3);
    await click(page, 'add_gpu');
    await page.waitForFunction(() => (JSON.parse(window.Module.appCatalogEdits()).gpus || []).length === 1, null, { timeout: 5000 });
    const gpu = JSON.parse(await page.evaluate(() => window.Module.appCatalogEdits())).gpus[0];
    assert.equal(gpu.id, 'my-gpu-2');
    assert.equal(gpu.name, '我的显卡');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
