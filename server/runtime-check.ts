/**
 * Stops the server with one clear line on a Node.js older than package.json's engines, before any
 * other module loads: server.ts imports this first, and ES modules run in import order.
 * better-sqlite3 13 is built for Node-API 10 (Node.js 22.14 on the 22 line); on 22.12 it crashed
 * the process with a segmentation fault as it loaded (docs/decisions/015-node-runtime.md).
 */
import fs from "node:fs";
import { resolveFromRoot } from "./paths.js";

/** package.json's engines.node, ">=x.y.z", as [x, y, z]. */
export function requiredNode(): [number, number, number] {
  const pkg = JSON.parse(fs.readFileSync(resolveFromRoot("package.json"), "utf8")) as {
    engines?: { node?: string };
  };
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines?.node ?? "");
  if (!match) throw new Error('package.json: engines.node must read ">=x.y.z"');
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Why `version` cannot run the server, or null when it can. */
export function runtimeProblem(version: string, required = requiredNode()): string | null {
  const have = version.replace(/^v/, "").split(".").map(Number);
  for (const [i, part] of required.entries()) {
    if ((have[i] ?? 0) > part) return null;
    if ((have[i] ?? 0) < part) {
      return (
        `ETS Tracking needs Node.js ${required.join(".")} or newer; this is ${version}. ` +
        `Install the current LTS (Node.js 24), or start it with \`npm start\`, which brings one.`
      );
    }
  }
  return null;
}

const problem = runtimeProblem(process.version);
if (problem !== null) {
  console.error(problem);
  process.exit(1);
}
