import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project root, found by walking up to package.json, so paths work the same from the
 * TypeScript sources and from the compiled build in dist/.
 */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("Cannot find the project root (package.json)");
    dir = parent;
  }
  return dir;
}

export const projectRoot = findRoot();

export function resolveFromRoot(...segments: string[]): string {
  return path.join(projectRoot, ...segments);
}
