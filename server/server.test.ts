import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveFromRoot } from "./paths.js";

// The real entry point, run as a process in an empty folder, so "nothing is written" can be seen.
function start(env: Record<string, string>) {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "ets-start-"));
  const result = spawnSync(
    process.execPath,
    [
      resolveFromRoot("node_modules", "tsx", "dist", "cli.mjs"),
      resolveFromRoot("server", "server.ts"),
    ],
    {
      cwd,
      env,
      encoding: "utf8",
      timeout: 30_000,
    },
  );
  const written = fs.readdirSync(cwd);
  fs.rmSync(cwd, { recursive: true, force: true });
  return { ...result, written };
}

describe("server start with bad configuration", () => {
  it.each([
    ["PORT", { PORT: "abc" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
  ])("stops with a one-line error naming %s and writes nothing", (variable, env) => {
    const result = start(env);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(result.written).toEqual([]);
  });
});
