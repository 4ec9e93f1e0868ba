// The browser test (make test-web): serves dist/ on 127.0.0.1, drives Debian's Chromium with
// playwright-core, and checks that the game starts without errors, draws the deal, plays a real
// mouse move, and resumes it from localStorage after a reload. Screenshots go to
// artifacts/web/; the timing and sizes print as one JSON line for BENCHMARKS.md.
import { createServer } from "node:http";
import { readFile, mkdir, stat } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { extname, join, resolve } from "node:path";
import { chromium } from "playwright-core";

const root = resolve(process.argv[2] ?? "dist");
const shots = resolve("artifacts/web");
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
};

const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  const file = join(root, path === "/" ? "index.html" : path);
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const url = `http://127.0.0.1:${server.address().port}/`;

const problems = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",
    "--disable-background-networking",
  ],
});
let failed = false;
try {
  await mkdir(shots, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const log = [];
  page.on("console", (m) => {
    log.push(`${m.type()}: ${m.text()}`);
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    if (/panicked at/.test(m.text())) problems.push(`panic: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));

  const attr = (name) => page.evaluate((n) => document.body.getAttribute(n), name);
  const waitReady = async (what) => {
    const t0 = Date.now();
    await page.waitForFunction(
      () => document.body.getAttribute("data-arachne-ready") === "1",
      null,
      { timeout: 120_000, polling: 100 },
    ).catch((e) => {
      throw new Error(`${what}: the game never signalled ready (${e.message})\n${log.join("\n")}`);
    });
    return Date.now() - t0;
  };

  // 1. Load: ready, drawn, no errors.
  const start = Date.now();
  await page.goto(url);
  await waitReady("first load");
  const firstDeal = Date.now() - start;
  // The game's own clock (performance.now(), from navigation) at the first frame with the deal
  // drawn in place; "ready" comes 10 quiet frames later.
  const dealDrawn = Number(await attr("data-arachne-dealt-ms"));
  if (!(dealDrawn > 0)) problems.push("the game did not publish when the deal was drawn");
  const lines = log.filter((l) => l.includes("arachne: ready"));
  if (lines.length === 0) problems.push("no 'arachne: ready' console line");
  await page.screenshot({ path: join(shots, "1-dealt.png") });
  // The canvas is drawn: many distinct colours, card white and table green both present.
  // (WebGL's buffer cannot be read back from the page, so the screenshot is decoded there.)
  // The canvas fills the page: a page screenshot (an element screenshot waits for the element to
  // be "stable", which timed out once under load).
  const png = (await page.screenshot({ timeout: 120_000 })).toString("base64");
  const drawn = await page.evaluate(async (data) => {
    const img = new Image();
    img.src = "data:image/png;base64," + data;
    await img.decode();
    const copy = document.createElement("canvas");
    copy.width = img.width;
    copy.height = img.height;
    const g = copy.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, copy.width, copy.height).data;
    let light = 0, green = 0;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) {
      const [r, gg, b] = [d[i], d[i + 1], d[i + 2]];
      if (r > 225 && gg > 225 && b > 215) light++;
      if (gg > r + 30 && gg > b + 20) green++;
      colours.add((r >> 4) * 256 + (gg >> 4) * 16 + (b >> 4));
    }
    const n = d.length / (4 * 7);
    return { light: light / n, green: green / n, colours: colours.size, w: img.width, h: img.height };
  }, png);
  if (!(drawn.light > 0.03 && drawn.green > 0.2 && drawn.colours > 20)) {
    problems.push(`the canvas does not show a dealt table: ${JSON.stringify(drawn)}`);
  }

  // 2. A real move with the mouse, where the game says a click makes one.
  // The hook is cleared while anything moves: wait for the table to be at rest with a move
  // published, rather than reading it once.
  const spot = await page
    .waitForFunction(() => document.body.getAttribute("data-arachne-click"), null, {
      timeout: 30_000,
      polling: 100,
    })
    .then((h) => h.jsonValue())
    .catch(() => null);
  if (!spot) throw new Error("the game published no clickable move in 30 s");
  const before = Number(await attr("data-arachne-moves"));
  const [xy, move] = spot.split(" ");
  const [x, y] = xy.split(",").map(Number);
  // Every value "ready" takes from here on: it must drop while the move animates, then rise.
  await page.evaluate(() => {
    window.__arachneReady = [];
    new MutationObserver(() =>
      window.__arachneReady.push(document.body.getAttribute("data-arachne-ready")),
    ).observe(document.body, { attributes: true, attributeFilter: ["data-arachne-ready"] });
  });
  await page.mouse.click(x, y);
  await page.waitForFunction(
    (n) => Number(document.body.getAttribute("data-arachne-moves")) === n + 1,
    before,
    { timeout: 10_000 },
  ).catch(() => problems.push(`clicking ${xy} did not play ${move}`));
  await page
    .waitForFunction(
      () => {
        const seq = window.__arachneReady;
        const drop = seq.indexOf("0");
        return drop >= 0 && seq.slice(drop).includes("1");
      },
      null,
      { timeout: 120_000, polling: 100 },
    )
    .catch(async () =>
      problems.push(
        `"ready" did not drop while the move animated and rise after it: ${JSON.stringify(
          await page.evaluate(() => window.__arachneReady),
        )}`,
      ),
    );
  await waitReady("after the move");
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(shots, "2-after-move.png") });
  const deal = [await attr("data-arachne-variant"), await attr("data-arachne-seed")];

  // 3. Reload: the game resumes from localStorage.
  await page.reload();
  await waitReady("after reload");
  const resumed = {
    moves: Number(await attr("data-arachne-moves")),
    variant: await attr("data-arachne-variant"),
    seed: await attr("data-arachne-seed"),
  };
  if (resumed.moves !== before + 1 || resumed.variant !== deal[0] || resumed.seed !== deal[1]) {
    problems.push(
      `after reload: ${JSON.stringify(resumed)}, expected ${before + 1} moves of ${deal}`,
    );
  }
  await page.screenshot({ path: join(shots, "3-resumed.png") });

  // 4. A damaged entry is set aside and the game still starts.
  await page.evaluate(() => localStorage.setItem("arachne/game", "(version: 1, garbage"));
  await page.reload();
  await waitReady("with a damaged save");
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes(".bad-")));
  if (kept.length === 0) problems.push("the damaged save was not set aside");
  if (Number(await attr("data-arachne-moves")) !== 0) problems.push("a damaged save gave moves");
  // Setting the damaged entry aside is reported in the game, not as an error.

  // 5. Pro Spider 10 from a link: a few of the player's turns with the mouse, the computer
  // seat playing in between.
  await page.goto(`${url}?game=pro-spider-10&players=2&ai=petra&seed=5`);
  const p10 = async (what, test, arg) =>
    page
      .waitForFunction(test, arg, { timeout: 120_000, polling: 100 })
      .catch(async (e) => {
        const attrs = await page.evaluate(() =>
          Object.fromEntries([...document.body.attributes].map((a) => [a.name, a.value])),
        );
        throw new Error(`Pro Spider 10, ${what}: ${e.message}\n${JSON.stringify(attrs)}`);
      });
  const p10Ready = (stage) =>
    p10(
      `waiting for the player's ${stage}`,
      (s) =>
        document.body.getAttribute("data-p10-ready") === "1" &&
        document.body.getAttribute("data-p10-stage") === s,
      stage,
    );
  const point = async (name) => (await attr(name)).split(",").map(Number);
  let p10Turns = 0;
  for (let turn = 0; turn < 3; turn++) {
    await p10Ready("draw");
    if (turn === 0) await page.screenshot({ path: join(shots, "4-pro-spider-10.png") });
    const hand = Number(await attr("data-p10-hand"));
    const [sx, sy] = await point("data-p10-stock");
    await page.mouse.click(sx, sy);
    await p10(
      "the stock's card in the hand",
      (n) => Number(document.body.getAttribute("data-p10-hand")) === n + 1,
      hand,
    );
    await p10Ready("play");
    const ended = Number(await attr("data-p10-turns"));
    // Choose the card, then click the pile (a double-click may fall into one slow frame).
    const [dx, dy] = await point("data-p10-discard");
    await page.mouse.click(dx, dy);
    await p10("the card chosen", () => document.body.getAttribute("data-p10-chosen") === "1");
    await p10Ready("play");
    const [px, py] = await point("data-p10-pile");
    await page.mouse.click(px, py);
    await p10(
      "the discard ending the turn",
      (n) => Number(document.body.getAttribute("data-p10-turns")) === n + 1,
      ended,
    );
    p10Turns++;
    if (Number(await attr("data-p10-round")) !== 1) break;
  }
  await p10Ready("draw").catch(() => {});
  await page.screenshot({ path: join(shots, "5-pro-spider-10-after-turns.png") });

  const wasm = join(root, "arachne_bg.wasm");
  const raw = (await stat(wasm)).size;
  const gz = gzipSync(await readFile(wasm), { level: 9 }).length;
  console.log(
    JSON.stringify({
      deal: deal.join(" "),
      move,
      deal_drawn_ms: dealDrawn,
      ready_ms: firstDeal,
      pro_spider_10_turns: p10Turns,
      wasm_bytes: raw,
      wasm_gzip_bytes: gz,
    }),
  );
} catch (e) {
  failed = true;
  console.error(String(e.stack ?? e));
} finally {
  await browser.close();
  server.close();
}
for (const p of problems) console.error("FAIL", p);
if (failed || problems.length > 0) process.exit(1);
console.log("browser test passed; screenshots in artifacts/web/");
