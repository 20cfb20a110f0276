// Browser end-to-end tests of the web app: it loads, draws, talks to nobody else, gives the
// CLI's numbers through window.llmplan, idles when idle, and fails clearly without WebGL2/WASM.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDir, cliPath, launchBrowser, openApp, repoRoot, startServer, waitReady } from './harness.mjs';

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

const scenarios = {
  contract_example: {
    model: { preset: 'llama-2-7b' }, method: 'pretrain', precision: 'bf16', optimizer: 'adamw',
    seq_len: 4096, micro_batch: 1, global_batch: 1024, tokens: 2e12,
    cluster: { accelerator: 'a100-sxm4-80gb', gpus: 2048, gpus_per_node: 8 },
    parallel: { tp: 8, pp: 1, zero: 1, sequence_parallel: true, recompute: 'selective' },
    pricing: { mode: 'on_demand', usd_per_gpu_hour: 2.0 },
  },
  qlora_instance: {
    model: { preset: 'qwen2.5-7b' }, method: 'qlora', lora: { rank: 16, targets: 'all_linear' }, tokens: 1e8,
    cluster: { instance: 'aws-g6e.4xlarge-us-east-1' }, parallel: { recompute: 'full' },
  },
  llama2_7b_zero3: {
    model: { preset: 'llama-2-7b' }, method: 'full', seq_len: 4096, micro_batch: 1, global_batch: 64,
    cluster: { gpus: 8, gpus_per_node: 8, gpu_memory_gb: 80 }, parallel: { zero: 3 },
  },
  llama3_70b_3d: {
    model: { preset: 'llama-3-70b' }, seq_len: 8192, global_batch: 512,
    cluster: { gpus: 64, gpus_per_node: 8, gpu_memory_gb: 80 },
    parallel: { tp: 8, pp: 2, zero: 1, sequence_parallel: true, recompute: 'selective' },
  },
  custom_arch_fp32: {
    model: { layers: 12, hidden: 768, heads: 12, ffn: 3072, vocab: 50257, gated_mlp: false, tied_embeddings: true,
             norm: 'layernorm', linear_bias: true, learned_positions: 1024 },
    precision: 'fp32', seq_len: 1024, micro_batch: 8, dropout: true, cluster: { gpus: 1, gpu_memory_gb: 24 },
    parallel: { flash_attention: false },
  },
};

function cli(scenario) {
  return JSON.parse(execFileSync(cliPath, ['estimate', '-'], { input: JSON.stringify(scenario) }).toString());
}

// Luminance variance of a PNG, computed by the browser itself (no image library needed).
async function pixelVariance(png) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = 'data:image/png;base64,' + b64;
      await img.decode();
      const c = new OffscreenCanvas(img.width, img.height);
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, img.width, img.height).data;
      let sum = 0, sum2 = 0;
      const n = d.length / 4;
      for (let i = 0; i < d.length; i += 4) {
        const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
        sum += y; sum2 += y * y;
      }
      return sum2 / n - (sum / n) ** 2;
    }, png.toString('base64'));
  } finally {
    await page.close();
  }
}

test('the app draws its first frame with no console errors and no request outside its origin', async () => {
  const { context, page, errors, requests } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    const firstFrameMs = await page.evaluate(() => window.llmplanFirstFrameMs);
    console.log(`# first frame after ${firstFrameMs.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
    const foreign = requests.filter((u) => !u.startsWith(server.origin + '/'));
    assert.deepEqual(foreign, []);
    assert.ok(requests.some((u) => u.endsWith('/llmplan.wasm')), 'the wasm came from the same origin');
    assert.equal(await page.evaluate(() => document.getElementById('overlay').classList.contains('hidden')), true);
  } finally {
    await context.close();
  }
});

test('window.llmplan.estimate returns exactly the CLI result for the same scenario', async () => {
  const { context, page } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    for (const [name, scenario] of Object.entries(scenarios)) {
      const web = await page.evaluate((s) => window.llmplan.estimate(s), scenario);
      assert.deepEqual(web, cli(scenario), name);
    }
    const explained = await page.evaluate((s) => window.llmplan.estimate(s, { explain: true }), scenarios.contract_example);
    const cliExplained = JSON.parse(execFileSync(cliPath, ['estimate', '-', '--explain'],
      { input: JSON.stringify(scenarios.contract_example) }).toString());
    assert.deepEqual(explained, cliExplained);
    assert.equal(explained.explain['time.step_s'].value, explained.time.step_s);
    const fromString = await page.evaluate((s) => window.llmplan.estimate(JSON.stringify(s)), scenarios.llama2_7b_zero3);
    assert.equal(fromString.memory.per_gpu_bytes.total, cli(scenarios.llama2_7b_zero3).memory.per_gpu_bytes.total);
  } finally {
    await context.close();
  }
});

test('an invalid scenario throws an error naming the field, as the CLI does', async () => {
  const { context, page } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    const bad = { model: { preset: 'llama-2-70b' }, cluster: { gpus: 3 }, parallel: { tp: 3 } };
    const err = await page.evaluate((s) => {
      try { window.llmplan.estimate(s); return null; } catch (e) { return { name: e.name, field: e.field, message: e.message }; }
    }, bad);
    assert.equal(err.name, 'LlmplanInputError');
    assert.equal(err.field, 'parallel.tp');
    let stderr = '';
    try { execFileSync(cliPath, ['estimate', '-'], { input: JSON.stringify(bad), stdio: 'pipe' }); } catch (e) {
      assert.equal(e.status, 2);
      stderr = e.stderr.toString();
    }
    assert.ok(stderr.includes(err.message), `CLI says: ${stderr}`);
  } finally {
    await context.close();
  }
});

for (const [dpr, lang] of [[1, 'en'], [2, 'en'], [2, 'zh']]) {
  test(`screenshot at devicePixelRatio ${dpr} in ${lang} is not blank`, async () => {
    const { context, page, errors } = await openApp(browser, server.origin, { dpr, path: `/?lang=${lang}` });
    try {
      await waitReady(page);
      const size = await page.evaluate(() => [document.getElementById('canvas').width, window.devicePixelRatio]);
      assert.deepEqual(size, [1280 * dpr, dpr], 'the canvas backing store follows devicePixelRatio');
      const png = await page.screenshot();
      writeFileSync(join(artifactsDir, `app-dpr${dpr}-${lang}.png`), png);
      const variance = await pixelVariance(png);
      assert.ok(variance > 100, `pixel variance ${variance.toFixed(1)} means the canvas is drawn`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-CN' : 'en');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('the app narrows to one column at 800 px and stays drawn', async () => {
  const { context, page } = await openApp(browser, server.origin, { width: 800, height: 900 });
  try {
    await waitReady(page);
    const png = await page.screenshot();
    writeFileSync(join(artifactsDir, 'app-800px-en.png'), png);
    assert.ok((await pixelVariance(png)) > 100);
  } finally {
    await context.close();
  }
});

test('no frames are drawn while idle; input wakes the app', async () => {
  const { context, page } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    await page.waitForTimeout(500);  // let the post-load frames settle
    const before = await page.evaluate(() => window.llmplanFrames);
    await page.waitForTimeout(1500);
    const idle = await page.evaluate(() => window.llmplanFrames);
    assert.equal(idle, before, 'no frame drawn in 1.5 s without input');
    await page.mouse.move(300, 300);
    await page.mouse.move(320, 320);
    await page.waitForFunction((n) => window.llmplanFrames > n, idle, { timeout: 5000 });
  } finally {
    await context.close();
  }
});

test('the language button switches the UI to Chinese and remembers it', async () => {
  const { context, page } = await openApp(browser, server.origin, { path: '/?lang=en' });
  try {
    await waitReady(page);
    // The button sits at the right end of the top bar (window padding 14 px, "中文" ~ 30 px + padding).
    await page.mouse.click(1280 - 14 - 22, 20);
    await page.waitForFunction(() => localStorage.getItem('llmplan.lang') === 'zh', null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  } finally {
    await context.close();
  }
});

// The main inputs as the page's own labelled controls (#mirror-controls), for keyboard and screen
// reader users: Tab leaves the canvas and reaches them; an edit is the canvas's edit.
test('the main inputs as page controls: Tab reaches them, a keyboard edit updates the link and the text figures, a bad value names its field', async () => {
  const { context, page, errors } = await openApp(browser, server.origin, { width: 1280, height: 800, path: '/?lang=en' });
  try {
    await waitReady(page);
    await page.waitForFunction(() => !document.getElementById('mirror-controls').hidden);
    const labels = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#mirror-controls label')]
      .map((l) => [l.htmlFor, l.textContent])));
    for (const id of ['model-preset', 'method', 'precision', 'cluster-accelerator', 'cluster-gpus', 'seq_len', 'micro_batch',
                      'global_batch', 'tokens'])
      assert.ok(labels[`ctl-${id}`], `a labelled control for ${id}`);
    assert.equal(labels['ctl-cluster-gpus'], 'GPUs');
    // Options from the catalog and the field table.
    const catalog = await page.evaluate(() => window.llmplan.catalog());
    const options = (id) => page.evaluate((i) => [...document.querySelectorAll(`#${i} option`)].map((o) => o.value).filter(Boolean), id);
    assert.deepEqual(await options('ctl-model-preset'), catalog.models.map((m) => m.id));
    assert.deepEqual(await options('ctl-cluster-accelerator'), catalog.accelerators.map((a) => a.id));
    assert.ok((await options('ctl-method')).includes('qlora'));
    assert.equal(await page.inputValue('#ctl-model-preset'), 'llama-3.1-8b');
    assert.equal(await page.inputValue('#ctl-cluster-gpus'), '8');

    // From the canvas (focused after the first frame) Tab leaves it and reaches the controls.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'canvas');
    let presses = 0;
    while (presses < 40 && await page.evaluate(() => document.activeElement.id) !== 'ctl-cluster-gpus') {
      await page.keyboard.press('Tab');
      presses++;
    }
    assert.equal(await page.evaluate(() => document.activeElement.id), 'ctl-cluster-gpus', `after ${presses} Tab presses`);
    assert.ok((await page.locator('#mirror').boundingBox()).width > 300, 'focus inside shows the panel');
    assert.match(await page.locator('#mirror-controls').ariaSnapshot(), /textbox "GPUs"/);

    // Typed GPU count: the app's scenario, its link and the text view's headline figures follow.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('16');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /(^|&)n=16(&|$)/.test(location.hash.slice(1)), null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => JSON.parse(window.Module.appInput()).cluster.gpus), 16);
    const fragment = await page.evaluate(() => location.hash.slice(1));
    const expected = JSON.parse(execFileSync(cliPath, ['link', 'estimate', fragment], { stdio: ['ignore', 'pipe', 'pipe'] }).toString());
    await page.waitForFunction((v) => document.querySelector('#mirror-headline [data-figure="memory.per_gpu_bytes.total"]')
      ?.getAttribute('data-value') === v, String(expected.memory.per_gpu_bytes.total), { timeout: 10000 });
    const headline = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#mirror-headline [data-figure]')]
      .map((e) => [e.getAttribute('data-figure'), e.getAttribute('data-value')])));
    assert.ok(Object.keys(headline).length >= 4, JSON.stringify(headline));
    const at = (p) => p.split('.').reduce((o, k) => o?.[k], expected);
    for (const [f, v] of Object.entries(headline)) assert.equal(v, String(at(f)), f);
    writeFileSync(join(artifactsDir, 'page-controls-en.png'), await page.screenshot());

    // A value the core refuses: its message, naming the field and its range, next to the control;
    // the typed text stays, and the link keeps the last valid scenario.
    for (const bad of ['0', 'abc']) {
      await page.keyboard.press('Control+A');
      await page.keyboard.type(bad);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('ctl-cluster-gpus').getAttribute('aria-invalid') === 'true');
      const message = await page.textContent('#ctl-cluster-gpus-error');
      assert.match(message, /^cluster\.gpus: /, message);
      if (bad === '0') assert.match(message, /1.*1,?000,?000|1000000/, message);
      assert.equal(await page.inputValue('#ctl-cluster-gpus'), bad);
      assert.equal(await page.evaluate(() => JSON.parse(window.Module.appFormFields()).error.field), 'cluster.gpus');
      assert.ok(/(^|&)n=16(&|$)/.test(await page.evaluate(() => location.hash.slice(1))));
    }
    writeFileSync(join(artifactsDir, 'page-controls-error-en.png'), await page.screenshot());
    await page.keyboard.press('Control+A');
    await page.keyboard.type('8');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('ctl-cluster-gpus').getAttribute('aria-invalid') === 'false');
    // A choice by keyboard: the method select, one Shift+Tab back from... reached by Tab order.
    await page.focus('#ctl-method');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => JSON.parse(window.Module.appInput()).method !== 'full', null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => JSON.parse(window.Module.appInput()).method), await page.inputValue('#ctl-method'));

    // In Chinese: the labels are the app's.
    await page.mouse.click(1280 - 14 - 22, 20);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.waitForFunction(() => document.querySelector('label[for="ctl-cluster-gpus"]').textContent.startsWith('GPU 总数'));
    assert.match(await page.textContent('label[for="ctl-seq_len"]'), /^序列长度/);
    await page.focus('#ctl-cluster-gpus');
    writeFileSync(join(artifactsDir, 'page-controls-zh.png'), await page.screenshot());
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a field whose condition rests on a derived default leaves with it: eager activation, pretraining to full fine-tuning', async () => {
  // Pretraining defaults to Megatron-LM, whose kernels are fused, so techniques.eager_activation
  // applies; full fine-tuning defaults to Hugging Face, which runs the model's eager code, so it
  // no longer does: the app drops it and the scenario still parses (the parser would refuse it).
  const { context, page } = await openApp(browser, server.origin, { path: '/#v=1&m=llama-3.1-8b&me=pretrain&n=8&ea=1' });
  try {
    await waitReady(page);
    assert.equal((await page.evaluate(() => JSON.parse(window.Module.appInput()))).techniques?.eager_activation, true);
    const form = await page.evaluate(() => JSON.parse(window.Module.appSetField('method', '"full"')));
    assert.equal(form.error?.field ?? '', '', JSON.stringify(form.error));
    const input = await page.evaluate(() => JSON.parse(window.Module.appInput()));
    assert.equal(input.method, 'full');
    assert.equal(input.techniques?.eager_activation, undefined);
  } finally {
    await context.close();
  }
});

test('a browser without WebGL2 gets a clear message instead of a blank page', async () => {
  const init = () => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
    };
  };
  const { context, page } = await openApp(browser, server.origin, { init });
  try {
    await page.waitForFunction(() => document.getElementById('overlay').classList.contains('error'));
    assert.match(await page.textContent('#overlay-text'), /WebGL 2 is unavailable/);
  } finally {
    await context.close();
  }
});

test('a browser without WebAssembly gets a clear message', async () => {
  const { context, page } = await openApp(browser, server.origin, { init: () => { delete window.WebAssembly; } });
  try {
    await page.waitForFunction(() => document.getElementById('overlay').classList.contains('error'));
    assert.match(await page.textContent('#overlay-text'), /cannot run WebAssembly/);
  } finally {
    await context.close();
  }
});

test('the app reports its catalog; a broken picked catalog is refused and a valid one is used', async () => {
  const { context, page, errors } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    // The version the shipped catalog files carry (every section file carries the same one).
    const shipped = JSON.parse(readFileSync(new URL('../../catalog/accelerators.json', import.meta.url))).catalog_version;
    const builtin = await page.evaluate(() => window.llmplan.catalogStatus());
    assert.deepEqual(builtin, { catalogVersion: shipped, asOf: builtin.asOf, source: 'built-in', error: '' });
    assert.equal(await page.evaluate(() => window.llmplan.catalogVersion), shipped);

    await page.evaluate(() => window.Module.loadCatalog('bad.json', '{"schema_version": 1}'));
    const refused = await page.evaluate(() => window.llmplan.catalogStatus());
    assert.equal(refused.source, 'built-in');
    assert.match(refused.error, /bad\.json: \/catalog_version: is required/);

    const result = await page.evaluate(() => {
      const c = window.llmplan.catalog();
      c.catalog_version = '2026.12.0';
      window.Module.loadCatalog('mine.json', JSON.stringify(c));
      return window.llmplan.catalogStatus();
    });
    assert.deepEqual(result, { catalogVersion: '2026.12.0', asOf: builtin.asOf, source: 'mine.json', error: '' });
    const png = await page.screenshot();
    writeFileSync(join(artifactsDir, 'app-user-catalog.png'), png);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('window.llmplan.plan returns exactly the CLI plan for the same question', async () => {
  const { context, page } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    const question = {
      model: { preset: 'llama-3.1-8b' }, method: 'qlora', seq_len: 2048, global_batch: 32, tokens: 2e8,
      objective: 'min_cost', constraints: { max_gpus: 8 },
    };
    const t0 = Date.now();
    const web = await page.evaluate((q) => window.llmplan.plan(q), question);
    console.log(`# 8B QLoRA plan in the browser: ${Date.now() - t0} ms`);
    const cli = JSON.parse(execFileSync(cliPath, ['plan', '-'], { input: JSON.stringify(question) }).toString());
    assert.deepEqual(web, cli);
    assert.equal(web.plans[0].gpus, 1);
  } finally {
    await context.close();
  }
});

test('window.llmplan.tco returns exactly the CLI answer, and throws naming the field of a bad question', async () => {
  const { context, page } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    const question = { servers: { accelerator: 'h100-sxm5-80gb', count: 2 }, utilisation: 0.6 };
    const web = await page.evaluate((q) => window.llmplan.tco(q), question);
    const cli = JSON.parse(execFileSync(cliPath, ['tco', '-'], { input: JSON.stringify(question) }).toString());
    assert.deepEqual(web, cli);
    assert.equal(web.own.gpus, 16);
    const err = await page.evaluate(() => {
      try { window.llmplan.tco({ servers: { accelerator: 'h100-sxm5-80gb' }, utilisation: 1.5 }); return null; }
      catch (e) { return { name: e.name, field: e.field }; }
    });
    assert.deepEqual(err, { name: 'LlmplanInputError', field: 'utilisation' });
  } finally {
    await context.close();
  }
});

test('window.llmplan.parseLog reads a log as `llmplan measure` does, and names what it looked for otherwise', async () => {
  const { context, page } = await openApp(browser, server.origin);
  try {
    await waitReady(page);
    const log = readFileSync(join(repoRoot, 'tests/cli/golden/torchtitan-train.log'), 'utf8');
    const web = await page.evaluate((t) => window.llmplan.parseLog(t), log);
    assert.deepEqual(web, JSON.parse(execFileSync(cliPath, ['measure', '-'], { input: log }).toString()));
    assert.equal(web.calibration.tokens_per_s_per_gpu, 6498);
    const refused = await page.evaluate(() => {
      try { window.llmplan.parseLog('hello'); return null; } catch (e) { return { name: e.name, field: e.field, message: e.message }; }
    });
    assert.equal(refused.name, 'LlmplanInputError');
    assert.equal(refused.field, 'log');
    assert.match(refused.message, /looked for Hugging Face Trainer/);
  } finally {
    await context.close();
  }
});
