// Prints the server project's test files that reach the database module (server/db/database.ts)
// through their imports, one per line: the files whose results can differ between SQLite and
// PostgreSQL. CI runs these a second time on PostgreSQL; the others (parsers, formats, storage,
// configuration) give the same result whatever TEST_DATABASE_URL says, so they run once, on SQLite.
//
// The import graph is read from the sources with a pattern for static and dynamic imports of
// relative paths: enough for this code base, which has no re-exports through package names. A file
// the pattern misreads is counted as reaching the database (it runs twice, never zero times).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATABASE_MODULE = "server/db/database.ts";
const TEST_ROOTS = ["common", "server", "scripts", "testing"];
const IMPORT =
  /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gs;

function sourceFiles(dir) {
  const found = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(relative));
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) found.push(relative);
  }
  return found;
}

/** The file a relative import names, or null for a package (or an import the pattern misread). */
function resolveImport(from, specifier) {
  if (!specifier.startsWith(".")) return null;
  const base = path.normalize(path.join(path.dirname(from), specifier));
  const candidates = [
    base,
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.js$/, ".tsx"),
    `${base}.ts`,
  ];
  return (
    candidates.find(
      (c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile(),
    ) ?? null
  );
}

const importsOf = new Map();
function imports(file) {
  let found = importsOf.get(file);
  if (found === undefined) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    found = [...text.matchAll(IMPORT)]
      .map((match) => resolveImport(file, match[1] ?? match[2]))
      .filter((resolved) => resolved !== null);
    importsOf.set(file, found);
  }
  return found;
}

function reachesDatabase(test) {
  const seen = new Set([test]);
  const pending = [test];
  while (pending.length > 0) {
    const file = pending.pop();
    if (file === DATABASE_MODULE) return true;
    for (const next of imports(file)) {
      if (!seen.has(next)) {
        seen.add(next);
        pending.push(next);
      }
    }
  }
  return false;
}

const tests = TEST_ROOTS.flatMap(sourceFiles)
  .filter((file) => /\.test\.ts$/.test(file))
  .sort();
const selected = tests.filter(reachesDatabase);
if (selected.length === 0) {
  console.error(`No test file reaches ${DATABASE_MODULE}: the import pattern is broken.`);
  process.exit(1);
}
process.stdout.write(`${selected.join("\n")}\n`);
