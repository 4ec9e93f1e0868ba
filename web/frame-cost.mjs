// Where the page's frame time goes while nothing runs (a measurement for BENCHMARKS.md, not a
// test): serves dist/, loads the game (optionally with a query such as "?game=pro-spider-10") in
// headless Chromium at W x H (1280x720 by default), waits for it to be ready, then for 5 s records
// the requestAnimationFrame gaps, how long the game's own frame callbacks take, and the page's
// main-thread task and script time per second (Chrome's Performance.getMetrics). Prints one JSON
// line. `node web/frame-cost.mjs dist [QUERY]`, `W=640 H=360 node web/frame-cost.mjs dist`.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { chromium } from "playwright-core";
const root = resolve(process.argv[2] ?? "dist");
const query = process.argv[3] ?? "";
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  try {
    const body = await readFile(join(root, path === "/" ? "index.html" : path));
    res.writeHead(200, { "content-type": types[extname(path)] ?? "text/html" }).end(body);
  } catch { res.writeHead(404).end(); }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const url = `http://127.0.0.1:${server.address().port}/${query}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--disable-background-networking"] });
const page = await browser.newPage({ viewport: { width: Number(process.env.W ?? 1280), height: Number(process.env.H ?? 720) } });
await page.addInitScript(() => {
  window.__cb = [];
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (f) => raf((t) => { const a = performance.now(); f(t); window.__cb.push(performance.now() - a); });
  window.__gaps = []; let last = performance.now();
  const tick = (t) => { window.__gaps.push(t - last); last = t; raf(tick); }; raf(tick);
});
await page.goto(url);
// Spider is ready at rest after its deal; Pro Spider 10 at rest on the player's decision.
await page.waitForFunction(() => ["data-arachne-ready", "data-p10-ready"].some((a) => document.body.getAttribute(a) === "1"),
  null, { timeout: 120000 });
await page.waitForTimeout(2000);
const cdp = await page.context().newCDPSession(page);
await cdp.send("Performance.enable");
const m0 = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
await page.evaluate(() => { window.__cb = []; window.__gaps = []; });
const t0 = Date.now();
await page.waitForTimeout(5000);
const secs = (Date.now() - t0) / 1000;
const m1 = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
const r = await page.evaluate(() => ({ cb: window.__cb, gaps: window.__gaps }));
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const d = (k) => ((m1[k] - m0[k]) / secs).toFixed(3);
console.log(JSON.stringify({ query, gaps: r.gaps.length, median_gap: med(r.gaps).toFixed(1), callbacks: r.cb.length,
  median_cb_ms: r.cb.length ? med(r.cb).toFixed(1) : null, task_per_s: d("TaskDuration"), script_per_s: d("ScriptDuration"),
  layout_per_s: d("LayoutDuration"), recalc_per_s: d("RecalcStyleDuration") }));
await browser.close(); server.close();
