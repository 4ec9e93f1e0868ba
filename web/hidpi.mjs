// Step 9 of the browser test (web/test.mjs): the game on a screen with two device pixels to the
// CSS pixel, as on a phone or a Retina Mac. The canvas must have the screen's pixels (a crisp
// picture), every card must be drawn where the game hit-tests it, and a click and a tap must play.
//
// Chromium is started with --force-device-scale-factor=2. Playwright's `deviceScaleFactor`
// alone is not enough: under that emulation Chromium's ResizeObserver reports the canvas's
// `devicePixelContentBoxSize` in CSS pixels, which no real screen does, so winit sizes the
// canvas at half the screen's pixels and Bevy draws everything twice as large (it looks like
// bevyengine/bevy#25306). With the flag, Chromium reports device pixels, as for a real screen.
import { join } from "node:path";

const RATIO = 2;

/// Runs the checks against the game served at `url`; returns { problems, report }.
export async function hidpiChecks(chromium, launchArgs, url, shots) {
  const problems = [];
  const report = {};
  const browser = await chromium.launch({
    ...launchArgs,
    args: [...launchArgs.args, `--force-device-scale-factor=${RATIO}`],
  });
  try {
    const open = async (viewport, query, touch) => {
      const page = await browser.newPage({ viewport, deviceScaleFactor: RATIO, hasTouch: touch });
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`HiDPI console error: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`HiDPI page error: ${e.message}`));
      await page.goto(url + query);
      return page;
    };
    const wait = (page, what, test, arg) =>
      page.waitForFunction(test, arg, { timeout: 120_000, polling: 100 }).catch(async (e) => {
        const attrs = await page.evaluate(() =>
          Object.fromEntries([...document.body.attributes].map((a) => [a.name, a.value])),
        );
        throw new Error(`HiDPI, ${what}: ${e.message}\n${JSON.stringify(attrs)}`);
      });
    const attr = (page, name) => page.evaluate((n) => document.body.getAttribute(n), name);
    // The canvas's buffer against its size on the page.
    const canvas = (page) =>
      page.evaluate(() => {
        const c = document.getElementById("bevy");
        return {
          ratio: devicePixelRatio,
          buffer: [c.width, c.height],
          css: [c.clientWidth, c.clientHeight],
        };
      });
    const crisp = (what, c) => {
      const want = c.css.map((v) => Math.round(v * c.ratio));
      // winit rounds the device-pixel size down; allow one pixel.
      if (c.ratio !== RATIO || c.buffer.some((v, i) => Math.abs(v - want[i]) > 1)) {
        problems.push(`HiDPI ${what}: canvas buffer ${c.buffer} for ${c.css} CSS px at ratio ${c.ratio}, expected ${want}`);
      }
    };

    // Spider at 1280x720 CSS px: the top card the game says a click moves is drawn under that
    // spot (mostly card-white around it), and a mouse click there plays the move.
    const spider = await open({ width: 1280, height: 720 }, "?variant=spider-2suit&seed=3", false);
    await wait(spider, "Spider ready", () => document.body.getAttribute("data-arachne-ready") === "1");
    const spot = await wait(spider, "a clickable move", () =>
      document.body.getAttribute("data-arachne-click"),
    ).then((h) => h.jsonValue());
    const c = await canvas(spider);
    crisp("Spider", c);
    const [xy, move] = spot.split(" ");
    const [x, y] = xy.split(",").map(Number);
    const white = await lightAround(spider, x, y, 12);
    if (!(white > 0.5)) {
      problems.push(`HiDPI Spider: around the click spot ${xy} only ${white.toFixed(2)} is card-white: the card is drawn elsewhere`);
    }
    await spider.screenshot({ path: join(shots, "9-hidpi-spider.png") });
    const before = Number(await attr(spider, "data-arachne-moves"));
    await spider.mouse.click(x, y);
    await wait(
      spider,
      `clicking ${xy} to play ${move}`,
      (n) => Number(document.body.getAttribute("data-arachne-moves")) === n + 1,
      before,
    ).catch((e) => problems.push(e.message.split("\n")[0]));
    Object.assign(report, { spider_canvas: c.buffer.join("x"), spider_spot_white: white });
    await spider.close();

    // Pro Spider 10 on a phone held upright, played with taps: the stock, a card, the pile.
    const phone = await open({ width: 390, height: 844 }, "?game=pro-spider-10&players=4&ai=petra&seed=7", true);
    const ready = (stage) =>
      wait(
        phone,
        `Pro Spider 10 at the player's ${stage}`,
        (s) =>
          document.body.getAttribute("data-p10-ready") === "1" &&
          document.body.getAttribute("data-p10-stage") === s,
        stage,
      );
    const point = async (name) => (await attr(phone, name)).split(",").map(Number);
    await ready("draw");
    const pc = await canvas(phone);
    crisp("Pro Spider 10 on a phone", pc);
    await phone.screenshot({ path: join(shots, "9-hidpi-phone.png") });
    const hand = Number(await attr(phone, "data-p10-hand"));
    const [sx, sy] = await point("data-p10-stock");
    await phone.touchscreen.tap(sx, sy);
    await wait(
      phone,
      "a tap on the stock",
      (n) => Number(document.body.getAttribute("data-p10-hand")) === n + 1,
      hand,
    );
    await ready("play");
    const ended = Number(await attr(phone, "data-p10-turns"));
    const [dx, dy] = await point("data-p10-discard");
    await phone.touchscreen.tap(dx, dy);
    await wait(phone, "a tap choosing a card", () => document.body.getAttribute("data-p10-chosen") === "1");
    await ready("play");
    const [px, py] = await point("data-p10-pile");
    await phone.touchscreen.tap(px, py);
    await wait(
      phone,
      "a tap on the discard pile",
      (n) => Number(document.body.getAttribute("data-p10-turns")) === n + 1,
      ended,
    );
    await ready("draw").catch(() => {});
    await phone.screenshot({ path: join(shots, "9-hidpi-phone-after-turn.png") });
    Object.assign(report, { phone_canvas: pc.buffer.join("x"), phone_turns: 1 });
    await phone.close();
  } catch (e) {
    problems.push(String(e.message ?? e));
  } finally {
    await browser.close();
  }
  return { problems, report };
}

// The share of near-white pixels in a square of `r` CSS px either side of (x, y), read from a
// screenshot at the screen's pixels (WebGL's buffer cannot be read back from the page).
async function lightAround(page, x, y, r) {
  const png = (await page.screenshot({ timeout: 120_000 })).toString("base64");
  return page.evaluate(
    async ([data, x, y, r]) => {
      const img = new Image();
      img.src = "data:image/png;base64," + data;
      await img.decode();
      const k = img.width / window.innerWidth;
      const copy = document.createElement("canvas");
      copy.width = img.width;
      copy.height = img.height;
      const g = copy.getContext("2d");
      g.drawImage(img, 0, 0);
      const side = Math.round(2 * r * k);
      const d = g.getImageData(Math.round((x - r) * k), Math.round((y - r) * k), side, side).data;
      let light = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] > 225 && d[i + 1] > 225 && d[i + 2] > 215) light++;
      }
      return light / (d.length / 4);
    },
    [png, x, y, r],
  );
}
