// Links in the app: a golden link opens with its exact numbers (with the catalog release it was
// made with), editing an input rewrites the hash, a hashchange re-opens the app, bad fields give
// notices, and the copy buttons give the link and the iframe snippet.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cliPath, catalogVersion, modelVersion, launchBrowser, openApp, repoRoot, startServer, waitFrames, waitReady } from './harness.mjs';
import { join } from 'node:path';

let server;
let browser;
const golden = JSON.parse(readFileSync(join(repoRoot, 'tests/golden/links.json'), 'utf8')).links;
const byName = (name) => golden.find((l) => l.name === name);

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function at(doc, dotted) {
  return dotted.split('.').reduce((v, k) => (v == null ? undefined : v[k]), doc);
}

// The app's estimate (Module.appResult: the CLI's JSON for the app's scenario) against the
// golden expectations, to 1e-9 relative.
function assertExpected(result, expected, name) {
  for (const [key, want] of Object.entries(expected)) {
    const got = at(result, key);
    if (typeof want === 'number' && !Number.isInteger(want)) {
      assert.ok(Math.abs(got - want) <= 1e-9 * Math.abs(want), `${name} ${key}: ${got} vs ${want}`);
    } else {
      assert.deepEqual(got, want, `${name} ${key}`);
    }
  }
}

// A link made with an older catalog opens with the built-in one, then again with its release once
// fetched: wait for the release before reading numbers or the link the app gives back.
async function waitForCatalog(page, version) {
  await page.waitForFunction((v) => JSON.parse(window.Module.appLinkReport()).catalog === v, version, { timeout: 10000 });
}

async function appResult(page) {
  return page.evaluate(() => JSON.parse(window.Module.appResult()));
}

async function widget(page, id) {
  const rects = await page.evaluate(() => JSON.parse(window.Module.appWidgets()));
  const r = rects.find((w) => w.id === id);
  assert.ok(r, `widget ${id} is drawn`);
  return r;
}

test('a golden link opens in the app with its exact numbers', async () => {
  for (const name of ['llama-3.1-70b-full-b200', 'llama-2-13b-spot-pricing', 'custom-arch-moe-mla', 'qwen2.5-7b-full-autodl-4-cards']) {
    const link = byName(name);
    const { context, page } = await openApp(browser, server.origin, { path: '/' + link.link });
    try {
      await waitReady(page);
      await waitForCatalog(page, link.catalog);
      assertExpected(await appResult(page), link.expected, name);
      const report = await page.evaluate(() => JSON.parse(window.Module.appLinkReport()));
      assert.deepEqual(report.notices, [], `${name} opens without notices`);
    } finally {
      await context.close();
    }
  }
});

test('a link made with an older catalog opens with that release and lists what changed since', async () => {
  const link = byName('release-2026.11.0-p4de');
  const { context, page } = await openApp(browser, server.origin, { path: '/' + link.link });
  try {
    await waitReady(page);
    await page.waitForFunction(() => JSON.parse(window.Module.appLinkReport()).catalog === '2026.11.0', null, { timeout: 10000 });
    assertExpected(await appResult(page), link.expected, link.name);
    const report = await page.evaluate(() => JSON.parse(window.Module.appLinkReport()));
    assert.ok(report.changes.some((c) => c.includes('aws-p4de.24xlarge-us-east-1 inter_node_link')), JSON.stringify(report.changes));
  } finally {
    await context.close();
  }
});

test('a link made before links recorded the model version says its figures changed (English and Chinese)', async () => {
  const link = byName('llama-3.1-70b-full-b200');
  assert.doesNotMatch(link.link, /[#&]mv=/, 'golden links predate mv: model 1');
  const notes = { en: 'Figures changed since this link was made (estimator model 1 → ',
                  zh: '此链接创建后估算结果已有变化（估算模型 1 → ' };
  for (const lang of ['en', 'zh']) {
    for (const width of [1280, 800]) {
      const { context, page, errors } = await openApp(browser, server.origin, { width, height: 720, path: `/?lang=${lang}${link.link}` });
      try {
        await waitReady(page);
        const current = await page.evaluate(() => window.llmplan.modelVersion);
        assert.ok(current >= 2, `model version ${current}`);
        const decoded = await page.evaluate((l) => window.llmplan.decode(l), link.link);
        assert.equal(decoded.modelVersion, 1);
        assert.equal(decoded.modelVersionCurrent, current);
        assert.ok(decoded.modelChanges.length > 0 && decoded.modelChanges.every((c) => /^model \d+ \(\d{4}-\d\d-\d\d\): .+ — .+/.test(c)),
                  JSON.stringify(decoded.modelChanges));
        const report = await page.evaluate(() => JSON.parse(window.Module.appLinkReport()));
        assert.equal(report.model_version, 1);
        assert.deepEqual(report.model_changes, decoded.modelChanges);
        assert.deepEqual(report.notices, [], 'a missing mv is no notice');
        // The one line, inside its window, and the list it opens.
        const texts = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
        const note = texts.find((t) => t.text === `${notes[lang]}${current})` || t.text === `${notes[lang]}${current}）`);
        assert.ok(note, `the note is drawn: ${JSON.stringify(texts.slice(0, 12).map((t) => t.text))}`);
        assert.ok(note.x >= note.clip[0] - 1 && note.x + note.w <= note.clip[2] + 1, `the note fits: ${JSON.stringify(note)}`);
        const rects = await page.evaluate(() => JSON.parse(window.Module.appWidgets()));
        const node = rects.find((r) => r.id === 'link_model_changes');
        assert.ok(node, 'the note can be opened');
        await page.screenshot({ path: join(repoRoot, `build/web/e2e/app-model-changes-${width}-${lang}.png`) });
        await page.mouse.click(node.x + node.h / 2, node.y + node.h / 2);
        await waitFrames(page, 3);
        await page.mouse.move(0, 0);
        await waitFrames(page, 2);
        // Opened: every change is drawn, wrapped inside the window.
        const open = await page.evaluate(() => JSON.parse(window.Module.appTexts()));
        for (const change of decoded.modelChanges) {
          const t = open.find((x) => x.text === change);
          assert.ok(t, `drawn: ${change}`);
          assert.ok(t.x >= t.clip[0] - 1 && t.x + t.w <= t.clip[2] + 1, `wrapped inside the window: ${JSON.stringify(t)}`);
        }
        await page.screenshot({ path: join(repoRoot, `build/web/e2e/app-model-changes-${width}-${lang}-open.png`) });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    }
  }
  // A link of this build's model (the app's own, or any fresh one) shows no note.
  const { context, page } = await openApp(browser, server.origin, { path: '/' + link.link });
  try {
    await waitReady(page);
    const fragment = await page.evaluate(() => window.Module.appFragment());
    assert.match(fragment, /^v=1&c=[0-9.]+&mv=\d+&/);
    await page.evaluate((h) => { location.hash = h; }, fragment.replace(/&s=4096/, '&s=2048'));
    // Wait for the state asked about (the report of the newly opened link), not only the result:
    // on a busy machine the result was seen before the report of the new link was.
    await page.waitForFunction(() => JSON.parse(window.Module.appResult()).time.tokens_per_step === 256 * 2048 &&
                                     JSON.parse(window.Module.appLinkReport()).model_changes.length === 0,
                               null, { timeout: 10000 }).catch(() => {});
    const report = await page.evaluate(() => JSON.parse(window.Module.appLinkReport()));
    assert.deepEqual(report.model_changes, []);
  } finally {
    await context.close();
  }
});

test('editing an input rewrites the hash; a hashchange re-opens the app', async () => {
  const link = byName('llama-3.1-70b-full-b200');
  const { context, page } = await openApp(browser, server.origin, { path: '/' + link.link });
  try {
    await waitReady(page);
    assert.match(link.link, /&s=4096&/);
    // The "+" stepper sits at the right end of the sequence-length field.
    const r = await widget(page, 'seq_len');
    const entries = await page.evaluate(() => history.length);
    await page.mouse.click(r.x + r.w - r.h / 2, r.y + r.h / 2);
    await page.waitForFunction(() => /&s=4097&/.test(location.hash), null, { timeout: 5000 });
    assert.equal((await appResult(page)).time.tokens_per_step, 256 * 4097);
    // History is not flooded: replaceState, not pushState.
    assert.equal(await page.evaluate(() => history.length), entries);

    const other = byName('qwen2.5-72b-lora-8xh100');
    await page.evaluate((h) => { location.hash = h; }, other.link);
    await page.waitForFunction((m) => JSON.parse(window.Module.appResult()).model.preset === m, 'qwen2.5-72b', { timeout: 5000 });
    assertExpected(await appResult(page), other.expected, other.name);
  } finally {
    await context.close();
  }
});

test('a link with bad fields opens with notices naming them and keeps the rest', async () => {
  const { context, page } = await openApp(browser, server.origin, { path: '/#v=1&m=llama-3.1-70b&tp=3&s=abc&gb=256&n=16&g=h100-sxm5-80gb&zz=1' });
  try {
    await waitReady(page);
    const report = await page.evaluate(() => JSON.parse(window.Module.appLinkReport()));
    const fields = report.notices.map((n) => n.field);
    for (const f of ['parallel.tp', 'seq_len', 'zz']) assert.ok(fields.includes(f), `${f} in ${fields}`);
    const r = await appResult(page);
    assert.equal(r.layout.global_batch, 256);
    assert.equal(r.cluster.gpus, 16);
    await page.screenshot({ path: join(repoRoot, 'build/web/e2e/app-link-notices.png') });
  } finally {
    await context.close();
  }
});

test('the copy buttons give the link to this view and the embed iframe snippet', async () => {
  const link = byName('qwen2.5-7b-full-h800');
  const { context, page } = await openApp(browser, server.origin, { path: '/' + link.link });
  try {
    await waitReady(page);
    await waitForCatalog(page, link.catalog);
    const fragment = await page.evaluate(() => window.Module.appFragment());
    const copyLink = await widget(page, 'copy_link');
    await page.mouse.click(copyLink.x + copyLink.w / 2, copyLink.y + copyLink.h / 2);
    await page.waitForFunction(() => !!window.llmplanLastCopied, null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => window.llmplanLastCopied), `${server.origin}/#${fragment}`);
    const copyEmbed = await widget(page, 'copy_embed');
    await page.mouse.click(copyEmbed.x + copyEmbed.w / 2, copyEmbed.y + copyEmbed.h / 2);
    await page.waitForFunction(() => window.llmplanLastCopied.startsWith('<iframe'), null, { timeout: 5000 });
    const snippet = await page.evaluate(() => window.llmplanLastCopied);
    assert.ok(snippet.includes(`src="${server.origin}/embed.html#${fragment}"`), snippet);
  } finally {
    await context.close();
  }
});

test('an own-or-rent link opens its tab with the CLI answer, keeps its link, and the copy button gives it', async () => {
  const fragment = `v=1&c=${catalogVersion}&mv=${modelVersion}&wa=h100-sxm5-80gb&wn=2&wu=0.6&wqd=2`;
  const { context, page } = await openApp(browser, server.origin, { path: '/#' + fragment, width: 1440, height: 1000 });
  try {
    await waitReady(page);
    await page.waitForFunction(() => JSON.parse(window.Module.appTco()).active, null, { timeout: 10000 });
    await waitFrames(page, 3);
    const tco = await page.evaluate(() => JSON.parse(window.Module.appTco()));
    assert.equal(tco.fragment, fragment);
    assert.equal(await page.evaluate(() => location.hash), '#' + fragment);
    const cli = JSON.parse(execFileSync(cliPath, ['link', 'estimate', fragment], { stdio: ['ignore', 'pipe', 'pipe'] }).toString());
    assert.deepEqual(tco.answer, cli);
    assert.equal(tco.answer.own.gpus, 16);
    await widget(page, 'tco.chart');
    const copyLink = await widget(page, 'copy_link');
    await page.mouse.click(copyLink.x + copyLink.w / 2, copyLink.y + copyLink.h / 2);
    await page.waitForFunction(() => !!window.llmplanLastCopied, null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => window.llmplanLastCopied), `${server.origin}/#${fragment}`);
    // Back on the results, the page's link is the scenario's again.
    // ImGui takes a tab click only after a frame with the pointer over it: hover, then click, and
    // again if a busy machine dropped the frame in between.
    const results = await widget(page, 'tab_results');
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.mouse.move(results.x + results.w / 2, results.y + results.h / 2);
      await waitFrames(page, 2);
      await page.mouse.click(results.x + results.w / 2, results.y + results.h / 2);
      const left = await page.waitForFunction(() => !JSON.parse(window.Module.appTco()).active, null, { timeout: 3000 })
        .then(() => true, () => false);
      if (left) break;
    }
    assert.equal(JSON.parse(await page.evaluate(() => window.Module.appTco())).active, false);
    await page.waitForFunction(() => location.hash === '#' + window.Module.appFragment(), null, { timeout: 5000 })
      .catch(() => {});
    assert.equal(await page.evaluate(() => location.hash), '#' + (await page.evaluate(() => window.Module.appFragment())));
  } finally {
    await context.close();
  }
});
