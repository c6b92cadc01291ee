import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import * as prettier from "prettier";
import { createTestApp } from "../testing/test-app.js";

/**
 * The API contract as files in the repository (docs/decisions/021-api-contract.md): the document
 * the server serves at /api/openapi.json, and the TypeScript types openapi-typescript makes from
 * it, which the web app's client (web/lib/api-client.ts, our typed fetch) is typed with. Both are
 * made from the routes, never edited by hand: `npm run api:generate` writes them, the build runs
 * it, and scripts/api-contract.test.ts fails when the committed copies differ from a fresh run.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const CONTRACT_FILES = {
  document: "docs/openapi.json",
  types: "web/lib/api-types.ts",
} as const;

/** The address the committed document names as its server (the development default). */
const PUBLIC_URL = "http://localhost:3000";

const TYPES_HEADER = `/**
 * The API's types, generated from /api/openapi.json by \`npm run api:generate\`
 * (scripts/api-contract.ts, openapi-typescript). Do not edit: change the route's schema and
 * generate again. scripts/api-contract.test.ts fails when this file is not what the routes make.
 */
`;

export interface ContractFiles {
  document: string;
  types: string;
}

/** The served document, and the types made from it, each formatted as the repository keeps it. */
export async function generateContract(): Promise<ContractFiles> {
  // A database of its own (SQLite in a temporary folder): the document comes from the routes.
  const t = await createTestApp({ PUBLIC_URL });
  let document: unknown;
  try {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    if (res.statusCode !== 200) throw new Error(`/api/openapi.json answered ${res.statusCode}`);
    document = res.json();
  } finally {
    await t.close();
  }
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    // `paths["/api/x"]["get"]` without `| undefined` on every method: what the typed client expects.
    alphabetize: false,
  });
  const types = `${TYPES_HEADER}\n${astToString(ast)}`;
  return {
    document: await format(JSON.stringify(document), CONTRACT_FILES.document),
    types: await format(types, CONTRACT_FILES.types),
  };
}

async function format(source: string, file: string): Promise<string> {
  const filepath = path.join(root, file);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(source, { ...options, filepath });
}

/** The copies in the working tree, or null where a file is missing. */
export function contractOnDisk(): { document: string | null; types: string | null } {
  const read = (file: string) => {
    const full = path.join(root, file);
    return fs.existsSync(full) ? fs.readFileSync(full, "utf8") : null;
  };
  return { document: read(CONTRACT_FILES.document), types: read(CONTRACT_FILES.types) };
}

/**
 * The copies in the last commit (the build rewrites the working tree's, so a stale commit is seen
 * only there), or undefined outside a git checkout; null where a file is not committed.
 */
export function contractInHead(): { document: string | null; types: string | null } | undefined {
  const show = (file: string): string | null | undefined => {
    const result = spawnSync("git", ["show", `HEAD:${file}`], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.error) return undefined;
    if (result.status === 0) return result.stdout;
    // Not a git checkout at all: nothing to compare with.
    const inside = spawnSync("git", ["rev-parse", "--verify", "HEAD"], { cwd: root });
    return inside.status === 0 ? null : undefined;
  };
  const document = show(CONTRACT_FILES.document);
  const types = show(CONTRACT_FILES.types);
  if (document === undefined || types === undefined) return undefined;
  return { document, types };
}

/** Writes the files that changed; says which. */
export async function writeContract(): Promise<string[]> {
  const fresh = await generateContract();
  const committed = contractOnDisk();
  const written: string[] = [];
  for (const key of ["document", "types"] as const) {
    if (committed[key] === fresh[key]) continue;
    fs.writeFileSync(path.join(root, CONTRACT_FILES[key]), fresh[key]);
    written.push(CONTRACT_FILES[key]);
  }
  return written;
}
