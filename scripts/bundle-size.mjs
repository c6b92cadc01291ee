// Measures what the first page load ships: the scripts, module preloads and stylesheets that
// dist/web/index.html references, raw and gzip-compressed. Run after `npm run build`.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const webRoot = path.resolve("dist/web");
const html = fs.readFileSync(path.join(webRoot, "index.html"), "utf8");
const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let raw = 0;
let gzip = 0;
for (const asset of [...new Set(assets)]) {
  const body = fs.readFileSync(path.join(webRoot, asset));
  const zipped = zlib.gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gzip += zipped;
  console.log(`${asset}: ${(body.length / 1024).toFixed(1)} kB, ${(zipped / 1024).toFixed(1)} kB gzip`);
}
console.log(`initial load: ${(raw / 1024).toFixed(1)} kB, ${(gzip / 1024).toFixed(1)} kB gzip`);
