// Times Pro Spider 10 computer decisions in the browser worker's wasm module (web/solver), on
// requests written by the engine's example `p10_requests write` (NUL-separated), answered in
// order as the worker would answer them: in Node's V8, or with --browser in headless Chromium
// (the page's own thread, where the game falls back to deciding if its worker fails). Compare
// with `p10_requests time` on the same file, in the same sitting, for the ratio to native.
//
//   node web/p10-worker-time.mjs [--browser] WASM REQUESTS [ANSWERS]
//
// WASM: $CARGO_TARGET_DIR/wasm32-unknown-unknown/web-solver/arachne_solver_worker.wasm, built by
// `cargo build -p arachne-solver-worker --lib --profile web-solver --target wasm32-unknown-unknown`.
// ANSWERS, when given, receives the answers, one per line, to compare with the native ones.
import { readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const browser = args[0] === "--browser";
const [wasmPath, requestsPath, answersPath] = browser ? args.slice(1) : args;
if (!wasmPath || !requestsPath) {
  console.error("usage: node web/p10-worker-time.mjs [--browser] WASM REQUESTS [ANSWERS]");
  process.exit(2);
}

// Runs where it is called (Node, or the page through Playwright): web APIs only.
async function timeAll({ wasmBase64, requests }) {
  const bytes = Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
  // The worker's clock and pauses; no pause is ever due here.
  const imports = { arachne: { now: () => performance.now(), due: () => 0, pause: () => {} } };
  const { instance } = await WebAssembly.instantiate(bytes, imports);
  const x = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const ms = [];
  let answers = "";
  for (const request of requests) {
    const t = performance.now();
    const input = encoder.encode(request);
    const ptr = x.arachne_alloc(input.length) >>> 0;
    new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
    const out = x.arachne_answer(ptr, input.length) >>> 0;
    const len = new DataView(x.memory.buffer).getUint32(out, true);
    const answer = decoder.decode(new Uint8Array(x.memory.buffer, out + 4, len));
    ms.push(performance.now() - t);
    answers += answer;
  }
  return { ms, answers };
}

const input = {
  wasmBase64: readFileSync(wasmPath).toString("base64"),
  requests: readFileSync(requestsPath, "utf8").split("\0").filter((r) => r.length > 0),
};
if (input.requests.length === 0) {
  console.error(`${requestsPath}: no requests (write them with \`p10_requests write\`)`);
  process.exit(1);
}
let result;
let where = "wasm in node " + process.version;
if (browser) {
  const { chromium } = await import("playwright-core");
  const b = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--disable-background-networking"],
  });
  try {
    const page = await b.newPage();
    await page.goto("about:blank");
    result = await page.evaluate(timeAll, input);
    where = "wasm in chromium " + b.version();
  } finally {
    await b.close();
  }
} else {
  result = await timeAll(input);
}
const { ms, answers } = result;
if (answersPath) writeFileSync(answersPath, answers);
const errors = answers.split("\n").filter((l) => l.startsWith("error")).length;
const mean = ms.reduce((s, v) => s + v, 0) / Math.max(ms.length, 1);
ms.sort((a, b) => a - b);
const q = (p) => ms[Math.min(Math.floor(ms.length * p), ms.length - 1)];
const f = (v) => v.toFixed(2);
console.log(
  `${where}: ${ms.length} answers (${errors} errors), ms per answer: p50 ${f(q(0.5))} p95 ${f(q(0.95))} ` +
    `p99 ${f(q(0.99))} max ${f(ms[ms.length - 1])} mean ${f(mean)}`,
);
