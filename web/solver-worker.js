// The game's Web Worker: the engine's own wasm module (web/solver, arachne_solver.js) answers
// one request per message, [id, request text] -> [id, answer text], off the page's thread: a
// Spider search or a Pro Spider 10 seat's decision. When the module cannot load or its work
// fails, the answer is [id, null, why] and the game ends this worker. The game also ends a
// worker whose work it no longer wants (terminate) and reuses the others.
import init, { answer } from "./arachne_solver.js";

const ready = init();
self.onmessage = async (event) => {
  const [id, request] = event.data;
  try {
    await ready;
    self.postMessage([id, answer(request)]);
  } catch (e) {
    self.postMessage([id, null, String(e?.message ?? e)]);
  }
};
