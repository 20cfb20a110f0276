// Milliseconds from navigation start to the app's first ImGui frame in headless Chromium on
// localhost (window.llmplanFirstFrameMs is performance.now() at that frame). Prints each run
// and the median. Usage: node bench/first-frame.mjs [runs=5]
import { launchBrowser, openApp, startServer, waitReady } from '../tests/e2e/harness.mjs';

const runs = Number(process.argv[2] || 5);
const server = await startServer();
const browser = await launchBrowser();
const times = [];
try {
  for (let i = 0; i < runs; i++) {
    const { context, page } = await openApp(browser, server.origin);
    await waitReady(page);
    times.push(await page.evaluate(() => window.llmplanFirstFrameMs));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
console.log(`first frame (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
console.log(`first frame median: ${times[Math.floor(times.length / 2)].toFixed(0)} ms over ${runs} runs`);
