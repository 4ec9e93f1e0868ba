// Draws the page's icons (web/icon-192.png, web/icon-512.png: the browser tab's icon, a phone's
// home screen, the web app manifest) and writes them as PNG with no dependency but Node's zlib:
// a face card with a spade over a card's back, on the table's green. The PNGs are kept in the
// repository; run `node web/icon.mjs` again after changing the drawing.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const GREEN = [0x1c, 0x6b, 0x3c];
const FACE = [0xf4, 0xf1, 0xe8];
const BACK = [0x24, 0x56, 0xa8];
const EDGE = [0x0f, 0x4a, 0x28];
const INK = [0x1a, 0x1a, 0x1a];

// Inside a rectangle centred at (cx, cy), half sizes (hw, hh), corners of radius r, turned by
// `turn` radians about its centre.
function inRoundRect(x, y, cx, cy, hw, hh, r, turn = 0) {
  const c = Math.cos(-turn);
  const s = Math.sin(-turn);
  const dx = Math.abs((x - cx) * c - (y - cy) * s) - (hw - r);
  const dy = Math.abs((x - cx) * s + (y - cy) * c) - (hh - r);
  return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) <= r;
}

// A spade of height about 2h centred at (cx, cy): a heart turned point up, and a flared stem.
function inSpade(x, y, cx, cy, h) {
  const u = (x - cx) / h;
  const v = -(y - cy) / h; // up is positive
  // The heart curve (x² + y² - 1)³ - x² y³ <= 0 has its point at the bottom; flipped, the top.
  const hx = u * 1.15;
  const hy = -(v - 0.1) * 1.15;
  const heart = (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy ** 3 <= 0;
  // The stem: a triangle from the heart's middle down to a foot.
  const t = (-0.3 - v) / 1.15; // 0 at the heart's middle, 1 at the foot
  const stem = t >= -0.3 && t <= 1 && Math.abs(u) <= 0.07 + 0.38 * Math.max(t, 0) ** 2.5;
  return heart || stem;
}

function colourAt(x, y) {
  // The whole icon is a rounded square of the table's green (a maskable icon's corners may be
  // cut by the phone: what matters lies inside the middle 80%).
  if (!inRoundRect(x, y, 0.5, 0.5, 0.5, 0.5, 0.18)) return null;
  const back = { cx: 0.42, cy: 0.47, turn: -0.2 };
  const face = { cx: 0.56, cy: 0.53, turn: 0.12 };
  if (inRoundRect(x, y, face.cx, face.cy, 0.205, 0.285, 0.035, face.turn)) {
    if (!inRoundRect(x, y, face.cx, face.cy, 0.19, 0.27, 0.025, face.turn)) return EDGE;
    // The spade stands upright in the card's own frame.
    const c = Math.cos(-face.turn);
    const s = Math.sin(-face.turn);
    const lx = face.cx + (x - face.cx) * c - (y - face.cy) * s;
    const ly = face.cy + (x - face.cx) * s + (y - face.cy) * c;
    return inSpade(lx, ly, face.cx, face.cy - 0.02, 0.105) ? INK : FACE;
  }
  if (inRoundRect(x, y, back.cx, back.cy, 0.205, 0.285, 0.035, back.turn)) {
    if (!inRoundRect(x, y, back.cx, back.cy, 0.185, 0.265, 0.025, back.turn)) return FACE;
    return BACK;
  }
  return GREEN;
}

function draw(size) {
  const n = 4; // samples per side in each pixel
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = colourAt((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (!c) continue;
          sum[0] += c[0];
          sum[1] += c[1];
          sum[2] += c[2];
          sum[3] += 255;
        }
      }
      const covered = sum[3] / 255;
      const at = (py * size + px) * 4;
      if (covered > 0) {
        rgba[at] = Math.round(sum[0] / covered);
        rgba[at + 1] = Math.round(sum[1] / covered);
        rgba[at + 2] = Math.round(sum[2] / covered);
      }
      rgba[at + 3] = Math.round(sum[3] / (n * n));
    }
  }
  return png(size, size, rgba);
}

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, sum]);
}

// An 8-bit RGBA PNG, each row with filter 0.
function png(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const rows = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const here = dirname(fileURLToPath(import.meta.url));
for (const size of [192, 512]) {
  writeFileSync(join(here, `icon-${size}.png`), draw(size));
}
