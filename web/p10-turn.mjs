// Shared by the browser test's steps 6 and 9: waiting on the game's test hook, and one of the
// player's Pro Spider 10 turns played through the page.

/// Waits until `test(arg)` holds in the page; on a timeout the error names `what` and the
/// hook's attributes as they were.
export function waitForHook(page, what, test, arg) {
  return page.waitForFunction(test, arg, { timeout: 120_000, polling: 100 }).catch(async (e) => {
    const attrs = await page.evaluate(() =>
      Object.fromEntries([...document.body.attributes].map((a) => [a.name, a.value])),
    );
    throw new Error(`${what}: ${e.message}\n${JSON.stringify(attrs)}`);
  });
}

/// Waits for the player's decision at `stage` (`draw`, `play`) with the table at rest.
export function p10Ready(wait, stage) {
  return wait(
    `waiting for the player's ${stage}`,
    (s) =>
      document.body.getAttribute("data-p10-ready") === "1" &&
      document.body.getAttribute("data-p10-stage") === s,
    stage,
  );
}

/// One of the player's turns from the draw: the stock, the card the hook names to discard,
/// then the discard pile, each pressed with `press(x, y)` (a mouse click or a tap) where the
/// hook says (CSS pixels). `wait(what, test, arg)` waits on the hook.
export async function playP10Turn(page, press, wait) {
  const attr = (name) => page.evaluate((n) => document.body.getAttribute(n), name);
  const point = async (name) => (await attr(name)).split(",").map(Number);
  await p10Ready(wait, "draw");
  const hand = Number(await attr("data-p10-hand"));
  await press(...(await point("data-p10-stock")));
  await wait(
    "the stock's card in the hand",
    (n) => Number(document.body.getAttribute("data-p10-hand")) === n + 1,
    hand,
  );
  await p10Ready(wait, "play");
  const ended = Number(await attr("data-p10-turns"));
  // Choose the card, then press the pile (a double-click may fall into one slow frame).
  await press(...(await point("data-p10-discard")));
  await wait("the card chosen", () => document.body.getAttribute("data-p10-chosen") === "1");
  await p10Ready(wait, "play");
  await press(...(await point("data-p10-pile")));
  await wait(
    "the discard ending the turn",
    (n) => Number(document.body.getAttribute("data-p10-turns")) === n + 1,
    ended,
  );
}
