// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the built web app,
// at the highest quality: it is paid once per build, not per request. The server sends the copy
// the browser accepts (@fastify/static's preCompressed). Run by `npm run build:web` after Vite.
// Usage: node scripts/compress-assets.mjs [folder]   (default dist/web)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = path.resolve(process.argv[2] ?? "dist/web");
// Below this, the bytes saved are fewer than those of the extra headers and the lookup.
const MIN_BYTES = 1024;
// Text formats only: images, fonts and archives (png, woff2, zip, pdf) are compressed already.
const COMPRESSIBLE = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".map",
  ".json",
  ".webmanifest",
  ".svg",
  ".txt",
  ".xml",
  ".ico",
]);

function* filesUnder(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes the copy only when it is smaller than the original; otherwise removes a stale one. */
function writeCopy(file, suffix, original, compressed) {
  const target = file + suffix;
  if (compressed.length < original.length) {
    fs.writeFileSync(target, compressed);
    return compressed.length;
  }
  fs.rmSync(target, { force: true });
  return original.length;
}

if (!fs.existsSync(path.join(root, "index.html"))) {
  console.error(`compress-assets: ${root} holds no index.html; run vite build first.`);
  process.exit(1);
}

let files = 0;
let raw = 0;
let brotli = 0;
let gzip = 0;
for (const file of filesUnder(root)) {
  if (file.endsWith(".br") || file.endsWith(".gz")) continue;
  if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) continue;
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  files += 1;
  raw += body.length;
  brotli += writeCopy(file, ".br", body, br);
  gzip += writeCopy(file, ".gz", body, gz);
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
console.log(
  `compress-assets: ${files} files, ${kB(raw)} raw, ${kB(brotli)} brotli, ${kB(gzip)} gzip`,
);
