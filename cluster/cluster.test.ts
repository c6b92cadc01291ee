import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { resolveFromRoot } from "../server/paths.js";
import { NotBuiltError, builtServerEntry, startCluster } from "./cluster.js";
import { NGINX, testNginxConfig } from "./nginx.js";
import { testPostgresUrl } from "./postgres.js";
import { send, sleep } from "./traffic.js";

/**
 * The cluster itself: what `npm run cluster` and the fault tests stand on. It starts, forwards what
 * the servers need to know about the client, and stops leaving nothing running or stored behind.
 */

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function databaseExists(name: string): Promise<boolean> {
  const url = new URL(testPostgresUrl());
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

async function waitForExit(pid: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid) && Date.now() < deadline) await sleep(50);
  return !isRunning(pid);
}

describe("a cluster", () => {
  it("serves through nginx with the client's address and stops every process by PID, dropping its database", async () => {
    const cluster = await startCluster({ servers: 2, postgresUrl: testPostgresUrl() });
    const pids = [cluster.nginx.pid, ...cluster.servers.map((s) => s.child.pid)];
    const { name } = cluster.database;
    const dir = cluster.dir;
    try {
      const health = await send(cluster.url, "/api/health");
      expect(health.status).toBe(200);

      // A sign-in that claims another address: the servers record the one nginx saw.
      const attempt = await send(cluster.url, "/api/user_sign_in", {
        method: "POST",
        headers: { "x-forwarded-for": "203.0.113.7" },
        json: { email: "nobody@school.test", password: "not the password" },
      });
      expect(attempt.status).toBe(401);
      const audit = await cluster.db
        .selectFrom("audit_log")
        .select(["ip"])
        .where("event", "=", "sign_in.failed")
        .execute();
      expect(audit.map((row) => row.ip)).toEqual(["127.0.0.1"]);

      // The upstream header shows which server answered: both take turns.
      const answered = new Set<string | null>();
      for (let i = 0; i < 6; i++) answered.add((await send(cluster.url, "/api/health")).upstream);
      expect(answered).toEqual(new Set(cluster.servers.map((s) => `127.0.0.1:${s.port}`)));
      expect(await databaseExists(name)).toBe(true);
    } finally {
      await cluster.stop();
    }
    expect(pids.filter(isRunning)).toEqual([]);
    expect(await databaseExists(name)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe("npm run cluster", () => {
  // The script as `npm run cluster` runs it: node with tsx's loader, one process, so a signal
  // reaches the script itself. (Under tsx's command line it is a child, which tsx kills with
  // SIGKILL when it does not acknowledge a relayed signal within 30 ms, as on a loaded machine; its
  // servers would be left running.)
  const run = (args: string[]) =>
    spawn(
      process.execPath,
      ["--import", "tsx", resolveFromRoot("scripts", "cluster.ts"), ...args],
      { cwd: resolveFromRoot(), stdio: ["ignore", "pipe", "pipe"] },
    );

  async function started(child: ReturnType<typeof run>): Promise<string> {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const deadline = Date.now() + 90_000;
    while (!output.includes("Press Ctrl-C to stop.")) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`npm run cluster did not start:\n${output}`);
      }
      await sleep(100);
    }
    return output;
  }

  it("prints the address and every PID, and on SIGTERM stops them all and drops the database", async () => {
    const child = run(["--servers", "2", "--no-sample-data"]);
    const output = await started(child);
    const url = /running at (http:\/\/127\.0\.0\.1:\d+) \(nginx, PID (\d+)\)/.exec(output);
    const serverPids = [
      ...output.matchAll(/app server \d: http:\/\/127\.0\.0\.1:\d+ {2}PID (\d+)/g),
    ].map((m) => Number(m[1]));
    const database = /database: (ets_cluster_\w+) \(dropped when stopping\)/.exec(output)?.[1];
    expect(url, output).not.toBeNull();
    expect(serverPids, output).toHaveLength(2);
    expect(database, output).toBeDefined();
    expect((await send(url![1]!, "/api/health")).status).toBe(200);

    child.kill("SIGTERM");
    expect(await waitForExit(child.pid!)).toBe(true);
    expect(child.exitCode).toBe(0);
    expect([Number(url![2]), ...serverPids].filter(isRunning)).toEqual([]);
    expect(await databaseExists(database!)).toBe(false);
  });

  it("keeps the database with --keep", async () => {
    const child = run(["--servers", "1", "--no-sample-data", "--keep"]);
    const output = await started(child);
    const database = /database: (ets_cluster_\w+) \(kept when stopping\)/.exec(output)?.[1];
    expect(database, output).toBeDefined();
    child.kill("SIGINT");
    expect(await waitForExit(child.pid!)).toBe(true);
    try {
      expect(await databaseExists(database!)).toBe(true);
    } finally {
      const url = new URL(testPostgresUrl());
      url.pathname = "/postgres";
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      await client.query(`drop database if exists ${database!} with (force)`);
      await client.end();
    }
  });

  it("refuses a bad option with the usage", async () => {
    const child = run(["--servers", "zero"]);
    let output = "";
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(output).toContain("--servers must be a whole number from 1 to 16 (got zero)");
    expect(output).toContain("Usage: npm run cluster");
  });
});

describe("the built server check", () => {
  it("refuses a missing build or one older than its sources, naming npm run build", () => {
    const dir = tempDir("ets-build-check-");
    const entry = path.join(dir, "dist", "server.js");
    const sources = path.join(dir, "server");
    fs.mkdirSync(path.join(dir, "dist"));
    fs.mkdirSync(sources);
    fs.writeFileSync(path.join(sources, "app.ts"), "");
    expect(() => builtServerEntry(entry, [sources])).toThrow(NotBuiltError);
    expect(() => builtServerEntry(entry, [sources])).toThrow(
      /is missing\): run `npm run build` first/,
    );

    fs.writeFileSync(entry, "");
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(entry, past, past);
    expect(() => builtServerEntry(entry, [sources])).toThrow(
      /older than .*app\.ts: run `npm run build` first/,
    );

    // Tests are not built: a newer test file is no reason to rebuild.
    fs.utimesSync(
      path.join(sources, "app.ts"),
      new Date(past.getTime() - 1000),
      new Date(past.getTime() - 1000),
    );
    fs.writeFileSync(path.join(sources, "app.test.ts"), "");
    expect(builtServerEntry(entry, [sources])).toBe(entry);
  });
});

describe("deploy/nginx.conf", () => {
  it("is a configuration nginx accepts once its certificate placeholders are real files", async () => {
    const dir = tempDir("ets-nginx-sample-");
    const cert = path.join(dir, "cert.pem");
    const key = path.join(dir, "key.pem");
    const openssl = spawnSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=ets.example.edu",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { encoding: "utf8" },
    );
    expect(openssl.status, openssl.stderr).toBe(0);
    const sample = fs
      .readFileSync(resolveFromRoot("deploy", "nginx.conf"), "utf8")
      .replace("/etc/ssl/certs/ets.example.edu.pem", cert)
      .replace("/etc/ssl/private/ets.example.edu.key", key);
    fs.writeFileSync(path.join(dir, "ets-tracking.conf"), sample);
    // The sample is a site (sites-available), included in the http block as Debian's nginx.conf does.
    const main = path.join(dir, "nginx.conf");
    fs.writeFileSync(
      main,
      `error_log ${path.join(dir, "error.log")};\npid ${path.join(dir, "nginx.pid")};\nevents {}\nhttp {\n  include ${path.join(dir, "ets-tracking.conf")};\n}\n`,
    );
    expect(fs.existsSync(NGINX)).toBe(true);
    await expect(testNginxConfig(main, dir)).resolves.toBeUndefined();
  });
});
