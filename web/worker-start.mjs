// How long a fresh solver worker takes to its first answer, and how much of that is compiling
// the solver's module (BENCHMARKS.md, "A fresh worker's start"). Each worker compiles the module
// itself; this measures whether handing one compiled module to every worker would be worth it.
// Usage: node web/worker-start.mjs dist
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const { server, url } = await serve(resolve(process.argv[2] ?? "dist"), {});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  // A page of the same origin without the game (the worker's script is a page of its own).
  await page.goto(url + "solver-worker.js");
  const report = await page.evaluate(async () => {
    const bytes = await (await fetch("arachne_solver.wasm")).arrayBuffer();
    const compile_ms = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await WebAssembly.compile(bytes);
      compile_ms.push(Math.round(performance.now() - t));
    }
    // A request the module refuses: the answer comes at once, so this is the worker's start.
    const first_answer_ms = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const w = new Worker("solver-worker.js", { type: "module" });
      await new Promise((ok) => {
        w.onmessage = ok;
        w.postMessage([1, "nonsense", 0]);
      });
      first_answer_ms.push(Math.round(performance.now() - t));
      w.terminate();
    }
    return { solver_wasm_bytes: bytes.byteLength, compile_ms, first_answer_ms };
  });
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
  server.close();
}
