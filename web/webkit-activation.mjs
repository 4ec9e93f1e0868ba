// Whether WebKit (Safari's engine; here WebKitGTK's MiniBrowser through its WebDriver, under
// xvfb-run) lets a page copy and open a file chooser a frame after the click that asked for it.
// The game handles a click in its next frame (requestAnimationFrame), after the DOM event, so
// its Copy and Open file buttons need the click's "user activation" to last that long. A page of
// its own (no game): a click, then the same calls in the click's handler, in the next animation
// frame and 30 ms later. Prints what each call gave (`exec`: document.execCommand("copy"),
// `api`: navigator.clipboard.writeText, `active`: navigator.userActivation.isActive,
// `inputclick`: the file input's click event fired).
// Usage: xvfb-run -a node web/webkit-activation.mjs
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "./serve.mjs";

const page = `<!doctype html><html><body style="margin:0">
<div id="d" style="width:100vw;height:100vh;background:#ccc"></div>
<script>
window.__r = {};
const attempt = (tag) => {
  const box = document.createElement("textarea");
  box.value = "x";
  document.body.appendChild(box);
  box.select();
  let ok;
  try { ok = document.execCommand("copy"); } catch (e) { ok = "throw " + e; }
  box.remove();
  __r[tag + "_exec"] = ok;
  __r[tag + "_active"] = navigator.userActivation ? navigator.userActivation.isActive : "none";
  if (navigator.clipboard?.writeText) {
    navigator.clipboard.writeText("y").then(() => (__r[tag + "_api"] = "ok"), (e) => (__r[tag + "_api"] = "refused: " + e));
  } else {
    __r[tag + "_api"] = "absent";
  }
  const input = document.createElement("input");
  input.type = "file";
  document.body.appendChild(input);
  input.addEventListener("click", () => (__r[tag + "_inputclick"] = true));
  input.click();
  input.remove();
};
d.addEventListener("pointerup", () => {
  attempt("handler");
  requestAnimationFrame(() => attempt("frame"));
  setTimeout(() => attempt("later_30ms"), 30);
});
</script></body></html>`;

const root = await mkdtemp(join(tmpdir(), "arachne-activation-"));
await writeFile(join(root, "index.html"), page);
const { server, url } = await serve(root, {});
const port = await new Promise((ok) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const p = probe.address().port;
    probe.close(() => ok(p));
  });
});
const driver = spawn("WebKitWebDriver", [`--port=${port}`], { stdio: "ignore" });
const base = `http://127.0.0.1:${port}`;
const call = async (method, path, body) => {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value)}`);
  return json.value;
};
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
let session = null;
try {
  for (let i = 0; ; i++) {
    try {
      await call("GET", "/status");
      break;
    } catch (e) {
      if (i > 100) throw e;
      await sleep(100);
    }
  }
  const browserBinary =
    process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
  const created = await call("POST", "/session", {
    capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: browserBinary, args: ["--automation"] } } },
  });
  session = created.sessionId;
  const s = (path) => `/session/${session}${path}`;
  await call("POST", s("/url"), { url });
  await sleep(1000);
  await call("POST", s("/actions"), {
    actions: [{
      type: "pointer",
      id: "mouse",
      parameters: { pointerType: "mouse" },
      actions: [
        { type: "pointerMove", x: 200, y: 200, duration: 0 },
        { type: "pointerDown", button: 0 },
        { type: "pause", duration: 50 },
        { type: "pointerUp", button: 0 },
      ],
    }],
  });
  await sleep(1500);
  const r = await call("POST", s("/execute/sync"), { script: "return window.__r", args: [] });
  console.log(JSON.stringify({ browser: `${created.capabilities.browserName} ${created.capabilities.browserVersion}`, ...r }));
} finally {
  if (session) await call("DELETE", `/session/${session}`).catch(() => {});
  driver.kill();
  server.close();
}
