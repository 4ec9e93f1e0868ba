// Step 9 of the browser test (web/test.mjs): the game on a screen with two device pixels to the
// CSS pixel, as on a phone or a Retina Mac. The canvas must have the screen's pixels (a crisp
// picture), every card must be drawn where the game hit-tests it, and a click and a tap must play.
//
// Chromium is started with --force-device-scale-factor=2. Playwright's `deviceScaleFactor`
// alone is not enough: under that emulation Chromium's ResizeObserver reports the canvas's
// `devicePixelContentBoxSize` in CSS pixels, which no real screen does, so winit sizes the
// canvas at half the screen's pixels and Bevy draws everything twice as large (it looks like
// bevyengine/bevy#25306). With the flag, Chromium reports device pixels, as for a real screen.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { p10Ready, playP10Turn, waitForHook } from "./p10-turn.mjs";

/// Runs the checks against the game served at `url`; returns { problems, report }. `plain` is
/// the test's own browser (one CSS pixel to the device pixel), for a picture to compare with.
/// `ratio`: device pixels to the CSS pixel (2 in the test; 1.5 and 3 were tried by hand).
export async function hidpiChecks(chromium, launchArgs, url, shots, plain, ratio = 2) {
  const RATIO = ratio;
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
    const wait = (page, what, test, arg) => waitForHook(page, `HiDPI, ${what}`, test, arg);
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

    // Spider at 1280x720 CSS px, the same deal at one and at two device pixels to the CSS
    // pixel: the game publishes the same click spot (it lays the table out in CSS pixels) and
    // draws the same picture, only finer; a mouse click at the spot plays the move.
    const deal = "?variant=spider-2suit&seed=3";
    const atRest = async (page) => {
      await wait(page, "Spider ready", () => document.body.getAttribute("data-arachne-ready") === "1");
      const spot = await wait(page, "a clickable move", () =>
        document.body.getAttribute("data-arachne-click"),
      ).then((h) => h.jsonValue());
      // The outlook's search done, so that both bars say the same.
      await wait(page, "the outlook", () =>
        ["winnable", "lost", "unknown", "failed"].includes(document.body.getAttribute("data-arachne-outlook")),
      );
      return spot;
    };
    // A fresh context: nothing the test's earlier steps saved (a theme, a game) on the page.
    const plainContext = await plain.newContext({ viewport: { width: 1280, height: 720 } });
    const reference = await plainContext.newPage();
    await reference.goto(url + deal);
    const referenceSpot = await atRest(reference);
    const referencePng = await reference.screenshot({ timeout: 120_000 });
    await plainContext.close();
    const spider = await open({ width: 1280, height: 720 }, deal, false);
    const spot = await atRest(spider);
    const c = await canvas(spider);
    crisp("Spider", c);
    if (spot !== referenceSpot) {
      problems.push(`HiDPI Spider: the click spot is ${spot}, at one device pixel to the CSS pixel ${referenceSpot}`);
    }
    const [xy, move] = spot.split(" ");
    const [x, y] = xy.split(",").map(Number);
    const hidpiPng = await spider.screenshot({ timeout: 120_000 });
    const differing = await differingShare(spider, hidpiPng, referencePng);
    if (!(differing < 0.05)) {
      problems.push(`HiDPI Spider: ${(differing * 100).toFixed(1)}% of the picture differs from the same deal at one device pixel to the CSS pixel`);
    }
    await writeFile(join(shots, "9-hidpi-spider.png"), hidpiPng);
    await writeFile(join(shots, "9-hidpi-spider-reference.png"), referencePng);
    const before = Number(await attr(spider, "data-arachne-moves"));
    await spider.mouse.click(x, y);
    await wait(
      spider,
      `clicking ${xy} to play ${move}`,
      (n) => Number(document.body.getAttribute("data-arachne-moves")) === n + 1,
      before,
    ).catch((e) => problems.push(e.message.split("\n")[0]));
    Object.assign(report, { spider_canvas: c.buffer.join("x"), spider_differing_share: differing });
    await spider.close();

    // Pro Spider 10 on a phone held upright, played with taps: the stock, a card, the pile.
    const phone = await open({ width: 390, height: 844 }, "?game=pro-spider-10&players=4&ai=petra&seed=7", true);
    const onPhone = (what, test, arg) => wait(phone, `Pro Spider 10 on a phone, ${what}`, test, arg);
    await p10Ready(onPhone, "draw");
    const pc = await canvas(phone);
    crisp("Pro Spider 10 on a phone", pc);
    await phone.screenshot({ path: join(shots, "9-hidpi-phone.png") });
    const turnsBefore = Number(await attr(phone, "data-p10-turns"));
    await playP10Turn(phone, (x, y) => phone.touchscreen.tap(x, y), onPhone);
    await p10Ready(onPhone, "draw").catch(() => {});
    await phone.screenshot({ path: join(shots, "9-hidpi-phone-after-turn.png") });
    const turns = Number(await attr(phone, "data-p10-turns")) - turnsBefore;
    Object.assign(report, { phone_canvas: pc.buffer.join("x"), phone_taps_turns: turns });
    await phone.close();
  } catch (e) {
    problems.push(String(e.message ?? e));
  } finally {
    await browser.close();
  }
  return { problems, report };
}

// The share of pixels differing (by more than 40 in a channel) between two screenshots of one
// CSS size, `fine` taken at twice the device pixels of `plain` and scaled down to it (WebGL's
// buffer cannot be read back from the page: the screenshots are decoded there).
async function differingShare(page, fine, plain) {
  return page.evaluate(
    async ([a, b]) => {
      const decode = async (data) => {
        const img = new Image();
        img.src = "data:image/png;base64," + data;
        await img.decode();
        return img;
      };
      const [hi, lo] = [await decode(a), await decode(b)];
      const pixels = (img) => {
        const c = document.createElement("canvas");
        c.width = lo.width;
        c.height = lo.height;
        const g = c.getContext("2d");
        g.imageSmoothingQuality = "high";
        g.drawImage(img, 0, 0, lo.width, lo.height);
        return g.getImageData(0, 0, lo.width, lo.height).data;
      };
      const [p, q] = [pixels(hi), pixels(lo)];
      let differing = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) > 40) differing++;
      }
      return differing / (p.length / 4);
    },
    [fine.toString("base64"), plain.toString("base64")],
  );
}
