import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { resolveFromRoot } from "./paths.js";
import { enqueueMail } from "./mail/outbox.js";
import { createUser, makeSubmission } from "../testing/factories.js";
import { uniquePdf } from "../testing/documents.js";
import { startSmtpPeer } from "../testing/smtp-peer.js";
import { createTestDatabase, type TestDatabase } from "../testing/test-app.js";
import { multipartBody } from "../testing/uploads.js";

/**
 * The real entry point as ONE process: node with tsx's loader, so a signal reaches the server
 * itself. tsx's command line runs it as a child and relays signals; when the child does not
 * acknowledge one within 30 ms (a loaded machine: CI's PostgreSQL run beside the browser tests),
 * tsx kills it with SIGKILL and exits 143, which is not the server's shutdown.
 */
const SERVER_COMMAND = [
  "--import",
  pathToFileURL(resolveFromRoot("node_modules", "tsx", "dist", "loader.mjs")).href,
  resolveFromRoot("server", "server.ts"),
];

// The real entry point, run as a process in an empty folder, so "nothing is written" can be seen.
function start(env: Record<string, string>) {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "ets-start-"));
  const result = spawnSync(process.execPath, SERVER_COMMAND, {
    cwd,
    env,
    encoding: "utf8",
    timeout: 30_000,
  });
  const written = fs.readdirSync(cwd);
  fs.rmSync(cwd, { recursive: true, force: true });
  return { ...result, written };
}

describe("server start with bad configuration", () => {
  it.each([
    ["PORT", { PORT: "abc" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["ETS_SHUTDOWN_DEADLINE_SECONDS", { ETS_SHUTDOWN_DEADLINE_SECONDS: "0" }],
  ])("stops with a one-line error naming %s and writes nothing", (variable, env) => {
    const result = start(env);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(result.written).toEqual([]);
  });
});

describe("server start that fails after the configuration", () => {
  it("says in one line what it was doing, the error and its code", () => {
    // A database file inside a regular file: making its folder fails. The start goes no further.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-start-fail-"));
    const notAFolder = path.join(dir, "not-a-folder");
    fs.writeFileSync(notAFolder, "");
    try {
      const result = start({
        DATABASE_URL: `sqlite:${path.join(notAFolder, "ets.sqlite")}`,
        ETS_WORKERS: "1",
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^ETS Tracking failed to start while opening the database: .+ \(EEXIST\)$/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A port nobody listens on right now, for a server process to take. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process has written, line by line, stdout and stderr together. */
  lines: string[];
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  /** Kills the server at once if it still runs: tsx's process and the server it started. */
  kill(): void;
}

/** The real entry point as a process of its own, listening on a port of its own. */
async function serve(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "ets-serve-"));
  const child = spawn(process.execPath, SERVER_COMMAND, {
    cwd,
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      ETS_SAMPLE_DATA: "off",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STORAGE_URL: `file:${path.join(cwd, "files")}`,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, so kill() stops anything the server started with it.
    detached: true,
  });
  const lines: string[] = [];
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts);
    });
  };
  if (child.stdout) collect(child.stdout);
  if (child.stderr) collect(child.stderr);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  void exited.then(() => fs.rmSync(cwd, { recursive: true, force: true }));
  const waitForLine = async (pattern: RegExp, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) return found;
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`The server never wrote ${pattern}; it wrote:\n${lines.join("\n")}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, "SIGKILL");
    }
  };
  try {
    await waitForLine(/ETS Tracking is running at/);
  } catch (error) {
    kill();
    throw error;
  }
  return { child, port, lines, waitForLine, exited, kill };
}

/** What a connection attempt to the port gives: "connected" or the error's code. */
async function connectTo(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

interface SlowUpload {
  /** Sends the rest of the body. */
  finish(): void;
  /** The answer, or the error that ended the connection without one. */
  answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
}

/** A PDF uploaded as a browser would, except that only its first half is sent until finish(). */
function slowUpload(port: number, token: string, indexNumber: string, pdf: Buffer): SlowUpload {
  // A browser's keep-alive connection: after its answer it would stay open, idle, unless told.
  const agent = new http.Agent({ keepAlive: true });
  const { payload, contentType } = multipartBody([
    { name: "file", fileName: "supervisor-form.pdf", contentType: "application/pdf", content: pdf },
  ]);
  const request = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: `/api/submissions/${indexNumber}/documents/supervisorForm`,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": contentType,
      "content-length": payload.length,
    },
    agent,
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      request.once("response", (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      request.once("error", reject);
    },
  );
  const half = Math.floor(payload.length / 2);
  request.write(payload.subarray(0, half));
  void answer.catch(() => undefined).finally(() => agent.destroy());
  return { finish: () => request.end(payload.subarray(half)), answer };
}

/** A TCP server that accepts connections and never says a word, until told to drop them. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    sockets,
    dropAll,
    stop: async () => {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("The condition did not come true in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("graceful shutdown", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function studentWithSubmission(indexNumber: string) {
    await makeSubmission(database.db, { indexNumber });
    const student = await createUser(database.db, "student", { indexNumber });
    const token = /Bearer (\S+)/.exec(student.bearer.authorization ?? "")?.[1] ?? "";
    return { token };
  }

  async function versionsOf(indexNumber: string) {
    return database.db
      .selectFrom("submission_documents as d")
      .innerJoin("submissions as s", "s.id", "d.submission_id")
      .select(["d.item", "d.version"])
      .where("s.index_number", "=", indexNumber)
      .execute();
  }

  // One process as before, and a primary with two workers: SIGTERM reaches the primary only.
  it.each([
    ["1", "81000001"],
    ["2", "81000003"],
  ])(
    "on SIGTERM refuses new connections at once, answers the upload in flight, lets the mail pass finish, closes and exits 0 (ETS_WORKERS=%s)",
    async (workers, indexNumber) => {
      const { token } = await studentWithSubmission(indexNumber);
      // An SMTP server that takes the connection and says nothing until the test lets it go: the
      // mail worker's pass is still running when the signal comes.
      const smtp = await silentServer();
      const mailId = await enqueueMail(database.db, {
        to: "examiner@school.edu",
        subject: "In flight at shutdown",
        text: "hello",
        template: { name: "test" },
      });
      // At debug the server says when a request arrives (docs/decisions/012-request-logging.md).
      const server = await serve({
        DATABASE_URL: database.url,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        LOG_LEVEL: "debug",
        ETS_WORKERS: workers,
      });
      try {
        await until(() => smtp.sockets.size > 0);
        const upload = slowUpload(server.port, token, indexNumber, uniquePdf());
        // The server has the request (its headers); half of the file is still to come.
        await server.waitForLine(
          new RegExp(
            `"path":"/api/submissions/${indexNumber}/documents/supervisorForm".*"incoming request"`,
          ),
        );

        server.child.kill("SIGTERM");
        await server.waitForLine(/shutting down/);
        // Refused while the upload and the mail pass are still under way: a proxy moves on at once.
        expect(await connectTo(server.port)).toBe("ECONNREFUSED");

        upload.finish();
        const answer = await upload.answer;
        expect(answer.status).toBe(201);
        expect(JSON.parse(answer.body)).toMatchObject({
          data: { item: "supervisorForm", version: 1, fileName: "supervisor-form.pdf" },
        });
        // The answer closes its keep-alive connection, which would otherwise hold the exit.
        expect(answer.headers.connection).toBe("close");

        // The SMTP server drops the connection: the pass records a failed attempt, then all closes.
        smtp.dropAll();
        expect(await server.exited).toBe(0);
        expect(server.lines.join("\n")).not.toMatch(/deadline reached|"level":50/);
        expect(await versionsOf(indexNumber)).toEqual([{ item: "supervisorForm", version: 1 }]);
        expect(
          await database.db
            .selectFrom("outbox")
            .select(["status", "attempts"])
            .where("id", "=", mailId)
            .executeTakeFirst(),
        ).toEqual({ status: "pending", attempts: 1 });
      } finally {
        server.kill();
        await smtp.stop();
      }
    },
  );

  it("cuts a request still running at the deadline, leaves nothing of it, and still exits 0", async () => {
    const indexNumber = "81000002";
    const { token } = await studentWithSubmission(indexNumber);
    const server = await serve({
      DATABASE_URL: database.url,
      ETS_SHUTDOWN_DEADLINE_SECONDS: "1",
      LOG_LEVEL: "debug",
      ETS_WORKERS: "2",
    });
    try {
      const upload = slowUpload(server.port, token, indexNumber, uniquePdf());
      await server.waitForLine(
        /"path":"\/api\/submissions\/81000002\/documents\/supervisorForm".*"incoming request"/,
      );

      server.child.kill("SIGTERM");
      // The rest of the file never comes: the deadline ends the connection without an answer.
      await expect(upload.answer).rejects.toThrow(/socket hang up|ECONNRESET/);
      expect(await server.exited).toBe(0);
      expect(server.lines.join("\n")).toMatch(/shutdown deadline reached/);
      expect(await versionsOf(indexNumber)).toEqual([]);
    } finally {
      server.kill();
    }
  });
});

/** GET on a connection of its own, so the primary hands each to the next worker. */
async function getOnNewConnection(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
    });
    request.once("error", reject);
  });
}

/** The process ids in the server's JSON log lines that match `pattern`. */
function pidsOf(lines: string[], pattern: RegExp): number[] {
  return lines
    .filter((line) => pattern.test(line))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
}

const HEALTH_REQUEST = /"path":"\/api\/health".*"incoming request"/;

describe("ETS_WORKERS", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("runs two worker processes that both serve, share the start-up duties, and run each job and each mail once", async () => {
    const smtp = await startSmtpPeer();
    const mails = 20;
    for (let i = 1; i <= mails; i += 1) {
      await enqueueMail(database.db, {
        to: `student${i}@st.school.edu`,
        subject: `Mail ${i}`,
        text: "hello",
        template: { name: "test" },
      });
    }
    // On an empty database, both workers start at once: the administrator and the sample data
    // must each be created once, by whichever takes the start-up lock first.
    const server = await serve({
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
      LOG_LEVEL: "debug",
      ETS_WORKERS: "2",
      ETS_SAMPLE_DATA: "on",
      ETS_ADMIN_EMAIL: "registrar@school.edu",
      ETS_ADMIN_PASSWORD: "a long enough passphrase",
    });
    try {
      expect(server.lines.join("\n")).toMatch(/running at .*2 worker processes/);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1)
        statuses.push(await getOnNewConnection(server.port, "/api/health"));
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      await until(() => pidsOf(server.lines, HEALTH_REQUEST).length >= 6);
      const servedBy = new Set(pidsOf(server.lines, HEALTH_REQUEST));
      // Two processes answered, neither of them the primary.
      expect(servedBy.size).toBe(2);
      expect(servedBy.has(server.child.pid ?? 0)).toBe(false);

      // Each mail arrives once, though both workers look for due mail every 2 s.
      await until(() => smtp.messages.length >= mails);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(smtp.messages.map((m) => m.subject).sort()).toEqual(
        Array.from({ length: mails }, (_, i) => `Mail ${i + 1}`).sort(),
      );
      // Each periodic job is taken by one worker, which keeps it.
      for (const job of ["housekeeping", "examiner-reminders"]) {
        const takers = pidsOf(
          server.lines,
          new RegExp(`"job":"${job}".*"this server now runs the job"`),
        );
        expect(takers, job).toHaveLength(1);
      }
      expect(pidsOf(server.lines, /"administrator created from ETS_ADMIN_EMAIL"/)).toHaveLength(1);
      expect(pidsOf(server.lines, /"sample data loaded"/)).toHaveLength(1);
      const admins = await database.db
        .selectFrom("users")
        .select("email")
        .where("role", "=", "admin")
        .execute();
      expect(admins).toEqual([{ email: "registrar@school.edu" }]);

      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(server.lines.join("\n")).not.toMatch(/"level":50/);
    } finally {
      server.kill();
      await smtp.stop();
    }
  });

  it("replaces a worker that dies, and the other goes on serving meanwhile", async () => {
    const server = await serve({
      DATABASE_URL: database.url,
      LOG_LEVEL: "debug",
      ETS_WORKERS: "2",
    });
    try {
      for (let i = 0; i < 2; i += 1) await getOnNewConnection(server.port, "/api/health");
      await until(() => new Set(pidsOf(server.lines, HEALTH_REQUEST)).size === 2);
      const [victim] = [...new Set(pidsOf(server.lines, HEALTH_REQUEST))];
      process.kill(victim ?? 0, "SIGKILL");
      await server.waitForLine(/ended with signal SIGKILL; starting another in its place/);
      expect(await getOnNewConnection(server.port, "/api/health")).toBe(200);
      // The new worker serves too: two processes answer again, the dead one not among them.
      const before = server.lines.length;
      await until(() => {
        void getOnNewConnection(server.port, "/api/health").catch(() => undefined);
        const pids = new Set(pidsOf(server.lines.slice(before), HEALTH_REQUEST));
        return pids.size === 2;
      }, 30_000);
      expect(new Set(pidsOf(server.lines.slice(before), HEALTH_REQUEST)).has(victim ?? 0)).toBe(
        false,
      );
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      server.kill();
    }
  });
});
