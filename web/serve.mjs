// The browser tests' web server: dist/ on 127.0.0.1 at a free port, as a static host serves it.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
};

/// Serves `root` (an absolute path). Paths in `missing` are answered with 404, as a broken host
/// would; `head`, when given, is put at the start of index.html's head (a browser whose driver
/// cannot watch the console records it from there). Returns the server and its address.
export async function serve(root, { missing = new Set(), head = "" } = {}) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (missing.has(path)) {
      res.writeHead(404, { "cache-control": "no-store" }).end();
      return;
    }
    const index = path === "/";
    const file = join(root, index ? "index.html" : path);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let body = await readFile(file);
      if (index && head) body = body.toString("utf8").replace("<head>", `<head>\n${head}`);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
