// Two tabs of one page on one storage (a manual check, not part of make test-web): each plays
// a deal row in turn, and each must be told once that the other saved its game over its own.
// Usage: node web/two-tabs.mjs dist
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const root = resolve(process.argv[2] ?? "dist");
const { server, url } = await serve(root, {});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--disable-background-networking"],
});
let failed = false;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const open = async (name) => {
    const page = await context.newPage();
    const log = [];
    page.on("console", (m) => log.push(m.text()));
    await page.goto(url);
    await page.waitForFunction(() => document.body.getAttribute("data-arachne-ready") === "1", null, { timeout: 180_000, polling: 100 });
    return { page, log, name };
  };
  const a = await open("a");
  const b = await open("b");
  const told = (t) => t.log.filter((l) => l.includes("another tab or window")).length;
  const moves = (t) => t.page.evaluate(() => Number(document.body.getAttribute("data-arachne-moves")));
  // Deals a row in one tab and waits until that tab has made the move (and so saved it).
  const deal = async (t) => {
    await t.page.bringToFront();
    const before = await moves(t);
    await t.page.mouse.click(640, 400);
    await t.page.keyboard.press("d");
    await t.page.waitForFunction(
      (n) => Number(document.body.getAttribute("data-arachne-moves")) > n,
      before,
      { timeout: 60_000, polling: 100 },
    );
    await t.page.waitForTimeout(500);
  };
  await deal(a);
  await deal(b);
  await deal(a);
  await deal(b);
  await deal(a);
  console.log(`tab a told ${told(a)} time(s), tab b told ${told(b)} time(s)`);
  await a.page.screenshot({ path: "/tmp/twotab/a.png" });
  if (told(a) !== 1 || told(b) !== 1) failed = true;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
