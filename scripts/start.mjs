// `npm start` on a fresh clone: install dependencies when missing, build when the sources are
// newer than the build, then run the server in this same process (one PID to stop).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(args) {
  const result = spawnSync(npm, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestMtime(target) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(full)) {
    if (entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const installed = path.join(root, "node_modules", ".package-lock.json");
if (
  !fs.existsSync(installed) ||
  newestMtime("package-lock.json") > newestMtime("node_modules/.package-lock.json")
) {
  console.log("Installing dependencies (npm ci)...");
  run(["ci", "--no-audit", "--no-fund"]);
}

const serverEntry = path.join(root, "dist", "server", "server.js");
const builtAt = Math.min(newestMtime("dist/web/index.html"), newestMtime("dist/server/server.js"));
const sourcesAt = Math.max(
  ...[
    "common",
    "server",
    "web",
    "index.html",
    "vite.config.ts",
    "tsconfig.json",
    "tsconfig.build.json",
    "package-lock.json",
  ].map(newestMtime),
);
if (builtAt === 0 || sourcesAt > builtAt) {
  console.log("Building the web app and the server...");
  run(["run", "build"]);
}

await import(pathToFileURL(serverEntry).href);
