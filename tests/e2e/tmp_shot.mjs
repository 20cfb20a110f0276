import { writeFileSync } from 'node:fs';
import { launchBrowser, openApp, startServer, waitReady, waitFrames } from './harness.mjs';
const link = 'v=1&c=2026.12.10&mv=14&m=llama-3.1-8b&me=qlora&s=16384&gb=16&t=1e8&ao=1&qo=min_cost&qg=1';
const server = await startServer();
const browser = await launchBrowser();
const widgets = (page) => page.evaluate(() => JSON.parse(window.Module.appWidgets()));
async function widget(page, id) {
  for (let i = 0; i < 100; i++) {
    const w = (await widgets(page)).find((r) => r.id === id);
    if (w) return w;
    await page.mouse.move(5, 5 + (i % 3)); await page.waitForTimeout(50);
  }
  throw new Error('no ' + id);
}
async function click(page, id) {
  const r = await widget(page, id);
  await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2); await waitFrames(page);
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2); await waitFrames(page, 3);
}
async function scrollTo(page, id) {
  const vh = page.viewportSize().height;
  for (let i = 0; i < 60; i++) {
    const r = await widget(page, id);
    if (r.y >= 0 && r.y + r.h <= vh - 300) return r;
    const a = await widget(page, 'tab_planner');
    await page.mouse.move(a.x + 40, vh / 2); await page.mouse.wheel(0, r.y > vh - 300 ? 200 : -200); await page.waitForTimeout(80);
  }
}
try {
  for (const lang of ['en', 'zh']) {
    const { context, page, errors } = await openApp(browser, server.origin, { path: `/?lang=${lang}#` + link, width: 1280, height: 900 });
    await waitReady(page);
    await click(page, 'tab_planner');
    await click(page, 'planner.run');
    await page.waitForFunction(() => JSON.parse(window.Module.appPlanner()).done, null, { timeout: 60000, polling: 100 });
    await scrollTo(page, 'planner.copy.torchrun');
    await page.mouse.move(2, 2); await page.waitForTimeout(200);
    writeFileSync(`/tmp/shots/art-${lang}-1.png`, await page.screenshot());
    await scrollTo(page, 'planner.copy.peft_python');
    await page.mouse.move(2, 2); await page.waitForTimeout(200);
    writeFileSync(`/tmp/shots/art-${lang}-2.png`, await page.screenshot());
    console.log(lang, 'errors', JSON.stringify(errors));
    await context.close();
  }
} finally { await browser.close(); await server.close(); }
