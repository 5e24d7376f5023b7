/**
 * Writes the PWA icons into `app/public/` as solid PNGs with a lighter inner square (the
 * maskable one keeps its mark inside the 80 % safe zone). No image library: PNG chunks
 * are assembled by hand and compressed with node:zlib. Run:
 * `deno run --allow-write=app/public app/tools/make_icons.ts`.
 *
 * @module
 */
import { deflateSync } from "node:zlib";

const BACKGROUND = [0x1e, 0x29, 0x3b];
const MARK = [0x7d, 0xd3, 0xfc];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function png(size: number, markFraction: number): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const raw = new Uint8Array(size * (size * 3 + 1));
  const lo = Math.round(size * (1 - markFraction) / 2);
  const hi = size - lo;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    for (let x = 0; x < size; x++) {
      const inside = x >= lo && x < hi && y >= lo && y < hi;
      raw.set(inside ? MARK : BACKGROUND, row + 1 + x * 3);
    }
  }
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const parts = [
    new Uint8Array(signature),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const publicDir = new URL("../public/", import.meta.url);
await Deno.writeFile(new URL("icon-192.png", publicDir), png(192, 0.5));
await Deno.writeFile(new URL("icon-512.png", publicDir), png(512, 0.5));
await Deno.writeFile(new URL("icon-maskable-512.png", publicDir), png(512, 0.4));
