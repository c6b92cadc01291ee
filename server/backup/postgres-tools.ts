import { spawn, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BackupError } from "./backup-error.js";

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore, psql) do the copying: they know every
 * object type and version difference, which a hand-written dump would not.
 */

/** Debian keeps each major version's programs here; /usr/bin holds wrappers that pick one. */
export const DEBIAN_POSTGRESQL_ROOT = "/usr/lib/postgresql";

/**
 * The program to run (pg_dump, pg_restore, psql): its name when it is on PATH, else the newest
 * Debian install (a newer pg_dump reads older servers, never the reverse).
 */
export async function findPostgresTool(
  name: string,
  debianRoot: string = DEBIAN_POSTGRESQL_ROOT,
): Promise<string> {
  if ((await runTool(name, ["--version"]).catch(() => null))?.code === 0) return name;
  const majors = safeReaddir(debianRoot)
    .filter((entry) => /^\d+$/.test(entry))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const candidate = path.join(debianRoot, major, "bin", name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new BackupError(
    `${name} was not found on PATH or under ${debianRoot}/*/bin. Install PostgreSQL's client programs (Debian: apt-get install -y postgresql-client, the same major version as the server or newer) and run this again.`,
  );
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to the end; rejects only when it cannot be started (ENOENT and the like). */
export function runTool(
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A program's complaint, trimmed to what a person reads: its first few lines. */
export function firstLines(text: string, count = 3): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return lines.slice(0, count).join(" ") || "(no message)";
}

/**
 * How the programs reach the database. The password never goes on their command line, where
 * other users of the machine can read it (ps): it goes into a private passfile that libpq reads,
 * removed by release().
 */
export interface LibpqConnection {
  /** A connection URI without the password, for --dbname. */
  uri: string;
  release(): void;
}

export function libpqConnection(databaseUrl: string): LibpqConnection {
  const url = new URL(databaseUrl);
  if (url.password === "") return { uri: databaseUrl, release: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-pgpass-"));
  const passfile = path.join(dir, "pgpass");
  // pgpass format: host:port:database:user:password, with ":" and "\" escaped by "\".
  const password = decodeURIComponent(url.password).replace(/[\\:]/g, (c) => `\\${c}`);
  fs.writeFileSync(passfile, `*:*:*:*:${password}\n`, { mode: 0o600 });
  url.password = "";
  url.searchParams.set("passfile", passfile);
  return {
    uri: url.toString(),
    release: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A database URL safe to print: the password replaced by ***. */
export function redactDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password === "") return databaseUrl;
    url.password = "***";
    return url.toString();
  } catch {
    return databaseUrl.replace(/\/\/[^@/]*@/, "//***@");
  }
}
