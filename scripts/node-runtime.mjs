// Prints the folder of a Node.js that this product supports, for scripts/with-node.sh to put first
// on PATH. The running Node when it is new enough (package.json's engines); otherwise the pinned
// LTS below, unpacked once into .runtime/ from the npm registry's node-<platform>-<arch> package
// (the binary and the headers), saying so in one line. Plain JavaScript that runs on an old Node.
//
//   node scripts/node-runtime.mjs              the folder to use
//   node scripts/node-runtime.mjs --version V  the folder of Node.js V (CI's oldest supported run)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The Node.js brought when the machine's is too old: the current LTS, tested in CI. */
export const PINNED_NODE = "24.21.0";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** "x.y.z" → [x, y, z] */
function parse(version) {
  const parts = version.replace(/^v/, "").split(".").map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

export function atLeast(version, minimum) {
  const a = parse(version);
  const b = parse(minimum);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** package.json's engines.node, written as ">=x.y.z". */
export function minimumNode() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines?.node ?? "");
  if (!match) throw new Error('package.json: engines.node must read ">=x.y.z"');
  return match[1];
}

function packageName() {
  const platform = process.platform === "win32" ? "win" : process.platform;
  return `node-${platform}-${process.arch}`;
}

/** Unpacks Node.js `version` into .runtime/ (once) and returns its bin folder. */
function bring(version, why) {
  const name = `node-v${version}-${process.platform}-${process.arch}`;
  const target = path.join(root, ".runtime", name);
  const bin = path.join(target, process.platform === "win32" ? "" : "bin");
  if (fs.existsSync(path.join(bin, process.platform === "win32" ? "node.exe" : "node"))) return bin;
  console.error(`${why}: bringing Node.js ${version} from the npm registry into .runtime/ (once).`);
  fs.mkdirSync(path.join(root, ".runtime"), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, ".runtime", ".download-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const packed = spawnSync(
      npm,
      ["pack", `${packageName()}@${version}`, "--silent", "--pack-destination", work],
      { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    const tarball = packed.stdout?.trim().split("\n").pop();
    if (packed.status !== 0 || !tarball)
      throw new Error(`npm pack ${packageName()}@${version} failed`);
    const unpacked = spawnSync("tar", ["-xzf", path.join(work, tarball), "-C", work], {
      stdio: "inherit",
    });
    if (unpacked.status !== 0) throw new Error(`could not unpack ${tarball}`);
    try {
      fs.renameSync(path.join(work, "package"), target);
    } catch (error) {
      // Another command brought the same version meanwhile: use theirs.
      if (!fs.existsSync(bin)) throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

export function nodeFolder(requested) {
  if (requested) {
    if (process.versions.node === requested) return path.dirname(process.execPath);
    return bring(requested, `Node.js ${requested} was asked for`);
  }
  const minimum = minimumNode();
  if (atLeast(process.versions.node, minimum)) return path.dirname(process.execPath);
  return bring(PINNED_NODE, `Node.js ${process.versions.node} is older than ${minimum}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--version");
  try {
    process.stdout.write(nodeFolder(at > 0 ? process.argv[at + 1] : undefined) + "\n");
  } catch (error) {
    console.error(
      `Could not bring Node.js: ${error instanceof Error ? error.message : String(error)}. ` +
        `Install Node.js ${PINNED_NODE} and run the command again.`,
    );
    process.exit(1);
  }
}
