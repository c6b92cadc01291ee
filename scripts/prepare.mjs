// What `npm start` and `npm test` make sure of before they run anything, on a fresh clone of a new
// machine: the dependencies installed, the build current, and the Debian programs the tests start.
// Plain JavaScript without dependencies: it runs before `npm ci`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export function runNpm(args) {
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

/** `npm ci` when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const installed = path.join(root, "node_modules", ".package-lock.json");
  if (
    !fs.existsSync(installed) ||
    newestMtime("package-lock.json") > newestMtime("node_modules/.package-lock.json")
  ) {
    console.log("Installing dependencies (npm ci)...");
    runNpm(["ci", "--no-audit", "--no-fund"]);
  }
}

/** `npm run build` when the web app or the server is not built, or older than its sources. */
export function ensureBuilt() {
  const builtAt = Math.min(
    newestMtime("dist/web/index.html"),
    newestMtime("dist/server/server.js"),
  );
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
    runNpm(["run", "build"]);
  }
}

/**
 * Debian's programs that the tests start themselves: `program` is where Debian's package puts it.
 * `why` finishes the sentence "needed by ...".
 */
export const DEBIAN_PARTS = {
  nginx: { program: "/usr/sbin/nginx", package: "nginx", why: "the several-servers tests" },
  clamd: {
    program: "/usr/sbin/clamd",
    package: "clamav-daemon",
    why: "the upload tests' virus scanner",
  },
  chromium: { program: "/usr/bin/chromium", package: "chromium", why: "the browser tests" },
};

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs the missing parts with apt-get (one line saying so) when this runs as root on a machine
 * with apt-get, as Playwright's `install --with-deps` does; otherwise stops at once with one line
 * naming the command to run. `options` lets tests replace the machine.
 */
export function ensureDebianParts(parts, options = {}) {
  const exists = options.exists ?? isExecutable;
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  const aptGet = options.aptGet ?? ["/usr/bin/apt-get", "/bin/apt-get"].find(exists);
  const run =
    options.run ??
    ((command, args) =>
      spawnSync(command, args, {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      }).status);
  const fail =
    options.fail ??
    ((line) => {
      console.error(line);
      process.exit(1);
    });
  const missing = parts.map((name) => DEBIAN_PARTS[name]).filter((part) => !exists(part.program));
  if (missing.length === 0) return;
  const packages = missing.map((part) => part.package);
  const command = `apt-get install -y ${packages.join(" ")}`;
  const needed = missing.map((part) => `${part.package} (${part.why})`).join(", ");
  if (!isRoot || !aptGet) {
    fail(`The tests need Debian's ${needed}: run \`sudo ${command}\` and try again.`);
    return;
  }
  console.log(`Installing Debian's ${needed}: ${command}`);
  if (
    run(aptGet, ["update", "-qq"]) !== 0 ||
    run(aptGet, ["install", "-y", "-qq", ...packages]) !== 0
  ) {
    fail(`Could not install ${packages.join(" ")}: run \`${command}\` and try again.`);
    return;
  }
  const still = missing.filter((part) => !exists(part.program));
  if (still.length > 0) {
    fail(`${still.map((part) => part.program).join(", ")} still missing after \`${command}\`.`);
  }
}
