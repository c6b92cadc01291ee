// The server's imports, as docs/architecture.md ("The server's order") states them: the lint rule
// refuses an import that goes up or sideways between the server's folders and lets one that goes
// down through, and no two server modules import each other in a circle.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const eslint = new ESLint({ cwd: root });

/** The folders of each row of the documented order, lowest row first. */
function documentedRows(): string[][] {
  const doc = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const start = doc.indexOf("### The server's order");
  const section = doc.slice(start, doc.indexOf("\n## ", start));
  const rows = [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((match) => ({
    row: Number(match[1]),
    folders: [...(match[2] ?? "").matchAll(/`([a-z-]+)\/`/g)].map((folder) => folder[1] ?? ""),
  }));
  return rows.sort((a, b) => a.row - b.row).map((row) => row.folders);
}

const rows = documentedRows();
const rowOf = new Map(rows.flatMap((folders, row) => folders.map((f) => [f, row] as const)));
const folders = [...rowOf.keys()];

/**
 * The imports ESLint refuses with no-restricted-imports in a module at `file` (relative to the
 * repository, need not exist) holding one import of each specifier, as `kind` imports.
 */
async function refused(
  file: string,
  specifiers: string[],
  kind: "value" | "type" = "value",
): Promise<string[]> {
  const code = specifiers
    .map((specifier, i) =>
      kind === "type"
        ? `import type { Probe${i} } from "${specifier}";`
        : `import { probe${i} } from "${specifier}";`,
    )
    .join("\n");
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => specifiers[message.line - 1] ?? "")
    .sort();
}

describe("the server's folders", () => {
  it("are each in a row of the documented order, but the test helpers", () => {
    const onDisk = fs
      .readdirSync(path.join(root, "server"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((name) => name !== "fuzz")
      .sort();
    expect(rows.length).toBeGreaterThan(3);
    expect([...folders].sort()).toEqual(onDisk);
  });

  it.each(["value", "type"] as const)(
    "import only the folders in the rows below their own (%s imports)",
    async (kind) => {
      for (const folder of folders) {
        const others = folders.filter((other) => other !== folder);
        const upOrSideways = others.filter(
          (other) => (rowOf.get(other) ?? 0) >= (rowOf.get(folder) ?? 0),
        );
        const found = await refused(
          `server/${folder}/layers-probe.ts`,
          others.map((other) => `../${other}/probe.js`),
          kind,
        );
        expect({ folder, found }).toEqual({
          folder,
          found: upOrSideways.map((other) => `../${other}/probe.js`).sort(),
        });
      }
    },
  );

  it("never import the app's modules or the test helpers, from any depth", async () => {
    const specifiers = [
      "../app.js",
      "../housekeeping.js",
      "../sample-data.js",
      "../../testing/test-app.js",
      "../fuzz/world.js",
    ];
    expect(await refused("server/db/layers-probe.ts", specifiers)).toEqual([...specifiers].sort());
    const deeper = ["../../app.js", "../../../testing/test-app.js", "../../documents/probe.js"];
    expect(await refused("server/accounts/sso/layers-probe.ts", deeper)).toEqual(
      [...deeper].sort(),
    );
    // Down, and within its own folder, a nested module imports freely.
    expect(
      await refused("server/accounts/sso/layers-probe.ts", [
        "../../auth/session.js",
        "../repository.js",
        "../../errors.js",
      ]),
    ).toEqual([]);
  });

  it("sit above server/'s base modules, which import none of them but files/", async () => {
    const upward = ["./app.js", "./db/database.js", "./auth/session.js", "../testing/test-app.js"];
    expect(
      await refused("server/layers-probe.ts", [...upward, "./files/storage.js", "./errors.js"]),
    ).toEqual([...upward].sort());
    // The app's modules sit on top and import any folder, but not the test helpers.
    expect(await refused("server/housekeeping.ts", ["./documents/sweep.js"])).toEqual([]);
    expect(
      await refused("server/housekeeping.ts", ["../testing/test-app.js", "./fuzz/world.js"]),
    ).toEqual(["../testing/test-app.js", "./fuzz/world.js"]);
  });

  it("leave tests and the test helpers free to import any of them", async () => {
    const anything = ["../documents/probe.js", "../app.js", "../../testing/test-app.js"];
    expect(await refused("server/db/layers-probe.test.ts", anything)).toEqual([]);
    expect(
      await refused("testing/layers-probe.ts", [
        "../server/documents/probe.js",
        "../server/app.js",
      ]),
    ).toEqual([]);
    expect(await refused("server/fuzz/layers-probe.ts", anything)).toEqual([]);
  });
});

const IMPORT =
  /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gs;

/** server/'s modules but tests, each with the server modules it imports (relative imports). */
function serverImports(): Map<string, string[]> {
  const modules: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (/\.ts$/.test(entry.name) && !entry.name.endsWith(".test.ts")) modules.push(relative);
    }
  };
  walk("server");
  const known = new Set(modules);
  return new Map(
    modules.map((file) => {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      const targets = [...text.matchAll(IMPORT)]
        .map((match) => match[1] ?? match[2] ?? "")
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) =>
          path.normalize(path.join(path.dirname(file), specifier)).replace(/\.js$/, ".ts"),
        )
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
}

/** Every circle of imports, each as the modules on it, found by a depth-first walk. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(trail.slice(trail.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("the server's modules", () => {
  it("import each other in no circle", () => {
    const graph = serverImports();
    expect(graph.get("server/app.ts")?.length ?? 0).toBeGreaterThan(10);
    expect(circles(graph)).toEqual([]);
  });
});
