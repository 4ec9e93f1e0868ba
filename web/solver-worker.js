// The game's Web Worker: the engine's own wasm module (web/solver, arachne_solver.wasm) answers
// one request at a time, [id, request text, rest] -> [id, answer text], off the page's thread:
// a Spider search or a Pro Spider 10 seat's decision. When the module cannot load or its work
// fails, the answer is [id, null, why] and the game ends this worker. The game also ends a
// worker whose work it no longer wants (terminate) and reuses the others.
//
// Pacing: the page tells the worker how long to pause (`rest`, in ms) after each slice of
// SLICE_MS of work, with a request or later as {rest}, when its frames slow down because the
// two share a core (src/core/pace.rs decides; MAX_REST_MS here only guards against nonsense).
// At the solver's checkpoints the module asks `due` (a plain call) and, when a pause is due,
// calls `pause`. Where the browser has JavaScript Promise Integration (WebAssembly.Suspending),
// that suspends the search for the rest, or at least every LISTEN_MS for no time, so that the
// page's messages get read. The clock the module reads (`now`) leaves the pauses out, up to two
// thirds of the time since the request came: a time budget buys as much work as unpaused while
// the rest is at most 2 x SLICE_MS, a third of the real time counts beyond that, and a search
// ends within about three times its budget. Without JSPI the search runs unpaused.
const SLICE_MS = 5;
const LISTEN_MS = 50;
const MAX_REST_MS = 100;

let rest = 0;
let sliceStart = 0;
// The request under way: when it came, and the time paused since.
let began = 0;
let paused = 0;
const jspi = typeof WebAssembly.Suspending === "function" && typeof WebAssembly.promising === "function";

// A macrotask without a timer's delay (nested timers wait at least 4 ms).
const channel = new MessageChannel();
const woken = [];
channel.port1.onmessage = () => woken.shift()?.();
const wait = (ms) => new Promise((ok) => {
  if (ms > 0) {
    setTimeout(ok, ms);
  } else {
    woken.push(ok);
    channel.port2.postMessage(0);
  }
});

const due = () => (jspi && performance.now() - sliceStart >= (rest > 0 ? SLICE_MS : LISTEN_MS) ? 1 : 0);
const pause = () => {
  const t = performance.now();
  return wait(rest).then(() => {
    sliceStart = performance.now();
    paused += sliceStart - t;
  });
};
const now = () => {
  const wall = performance.now() - began;
  return began + Math.max(wall - paused, wall / 3);
};

const imports = {
  arachne: {
    now,
    due,
    pause: jspi ? new WebAssembly.Suspending(pause) : () => {},
  },
};
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ready = fetch(new URL("arachne_solver.wasm", import.meta.url))
  .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`arachne_solver.wasm: HTTP ${r.status}`))))
  .then((bytes) => WebAssembly.instantiate(bytes, imports))
  .then(({ instance }) => {
    const x = instance.exports;
    const call = jspi ? WebAssembly.promising(x.arachne_answer) : x.arachne_answer;
    return async (request) => {
      const bytes = encoder.encode(request);
      const ptr = x.arachne_alloc(bytes.length) >>> 0;
      new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
      began = sliceStart = performance.now();
      paused = 0;
      const out = (await call(ptr, bytes.length)) >>> 0;
      const len = new DataView(x.memory.buffer).getUint32(out, true);
      return decoder.decode(new Uint8Array(x.memory.buffer, out + 4, len));
    };
  });

const setRest = (ms) => {
  if (typeof ms === "number" && ms >= 0) rest = Math.min(ms, MAX_REST_MS);
};
// A module that cannot load is told with each request's answer (below), so its failure is
// no unhandled error of the page's.
ready.catch(() => {});
let queue = Promise.resolve();
let module = ready;
self.onmessage = (event) => {
  const data = event.data;
  if (!Array.isArray(data)) {
    setRest(data?.rest);
    return;
  }
  const [id, request, pace] = data;
  setRest(pace);
  queue = queue.then(async () => {
    try {
      const answer = await module;
      self.postMessage([id, await answer(request)]);
    } catch (e) {
      // A trap leaves the module's state unknown: no later request runs on it (the game ends
      // a worker that failed anyway).
      module = Promise.reject(e);
      module.catch(() => {});
      self.postMessage([id, null, String(e?.message ?? e)]);
    }
  });
};
