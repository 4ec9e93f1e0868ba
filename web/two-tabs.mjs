// Two tabs of one page on one storage: each deals a row in turn. Coming back to a tab takes up
// the game played in the other (it is told so), so no row dealt is lost and no game is saved
// over another. Then a tab left for another (its window's blur, the other named in
// player-here) waits: Pro Spider 10's computer seats decide nothing until it is back.
// Usage: node web/two-tabs.mjs dist
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { p10Ready, playP10Turn, waitForHook } from "./p10-turn.mjs";
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
  const told = (t, words) => t.log.filter((l) => l.includes(words)).length;
  const moves = (t) => t.page.evaluate(() => Number(document.body.getAttribute("data-arachne-moves")));
  // Deals a row in one tab and waits until that tab has made the move (and so saved it).
  const deal = async (t) => {
    await t.page.bringToFront();
    // What a real browser does when the tab is shown again and takes the focus.
    await t.page.evaluate(() => {
      document.dispatchEvent(new Event("visibilitychange"));
      window.dispatchEvent(new Event("focus"));
    });
    await t.page.waitForTimeout(500);
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
  for (const t of [a, b, a, b, a]) await deal(t);
  const [ma, mb] = [await moves(a), await moves(b)];
  const took = [told(a, "played last in another tab"), told(b, "played last in another tab")];
  const over = [told(a, "another game was saved there"), told(b, "another game was saved there")];
  console.log(`moves: tab a ${ma}, tab b ${mb}; took up the other's game: a ${took[0]}, b ${took[1]} time(s); told of a game saved over: a ${over[0]}, b ${over[1]}`);
  const shots = join(tmpdir(), "arachne-two-tabs");
  mkdirSync(shots, { recursive: true });
  await a.page.screenshot({ path: join(shots, "a.png") });
  // Five rows dealt in all, each on the game the other tab left.
  if (ma !== 5 || took[0] < 2 || took[1] < 2 || over[0] + over[1] !== 0) failed = true;

  // Settings one tab writes are taken up by the other at once (the browser's `storage`
  // event), without the player coming back to it: a theme chosen in one shows in both.
  const defaults = (await readFile(resolve("assets/settings.ron"), "utf8")).replace(/^\/\/.*$/gm, "");
  const midnight = `(version: 1, data: ${defaults.replace('theme: "classic"', 'theme: "midnight"')})`;
  const theme = (t) => t.page.evaluate(() => document.body.getAttribute("data-arachne-theme"));
  const themeBefore = await theme(a);
  await b.page.evaluate((text) => localStorage.setItem("arachne/settings", text), midnight);
  const followed = await a.page
    .waitForFunction(() => document.body.getAttribute("data-arachne-theme") === "midnight", null, { timeout: 20_000, polling: 100 })
    .then(() => true, () => false);
  console.log(`settings written in tab b: tab a's theme ${themeBefore} -> ${await theme(a)}`);
  if (!followed) failed = true;

  // A tab the player left (its window's blur) for another tab (named in player-here) waits:
  // Pro Spider 10's computer seats decide nothing and nothing is saved, until it is back.
  await a.page.bringToFront();
  await a.page.goto(`${url}?game=pro-spider-10&players=4&ai=petra&seed=5`);
  const wait = (what, test, arg) => waitForHook(a.page, `Pro Spider 10, ${what}`, test, arg);
  await p10Ready(wait, "draw");
  await playP10Turn(a.page, (x, y) => a.page.mouse.click(x, y), wait);
  const saved = () => a.page.evaluate(() => localStorage.getItem("arachne/p10-game"));
  await a.page.evaluate(() => {
    localStorage.setItem("arachne/player-here", "another tab");
    window.dispatchEvent(new Event("blur"));
  });
  const left = await saved();
  await a.page.waitForTimeout(4000);
  const waited = (await saved()) === left;
  await a.page.evaluate(() => window.dispatchEvent(new Event("focus")));
  let playedOn = true;
  await p10Ready(wait, "draw").catch(() => (playedOn = false));
  const changed = (await saved()) !== left;
  console.log(`left for another tab: waited ${waited}; back: played on ${playedOn && changed}`);
  if (!waited || !playedOn || !changed) failed = true;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
