import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { EICAR } from "./pdf-fixtures.js";

/**
 * A real clamd for tests: Debian's clamav-daemon, on a signature database written here (one body
 * signature for the EICAR test string, anywhere in a file), so nothing is downloaded. Each call
 * starts its own daemon on a free port in a temporary directory.
 */

const CLAMD = "/usr/sbin/clamd";
const INSTALL_HINT = "apt-get install -y clamav-daemon";
const START_TIMEOUT_MS = 60_000;

/** The signature's name as clamd reports it: signatures from outside ClamAV are "UNOFFICIAL". */
export const EICAR_SIGNATURE = "Ets-Eicar-Test";

export interface ClamdOptions {
  /**
   * clamd's StreamMaxLength (e.g. "200M", "1M"): the largest INSTREAM it accepts. 200M by default
   * so a 100 MB thesis scans; a small value plays an operator who left clamd's default in place.
   */
  streamMaxLength?: string;
}

export async function startClamd(
  options: ClamdOptions = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  try {
    fs.accessSync(CLAMD, fs.constants.X_OK);
  } catch {
    throw new Error(`clamd is not installed (${CLAMD} is missing): ${INSTALL_HINT}`);
  }
  try {
    return await startOnce(options);
  } catch (error) {
    // Another process may take the free port between our probe and clamd's bind: try once more.
    if (error instanceof ClamdExitedError) return startOnce(options);
    throw error;
  }
}

class ClamdExitedError extends Error {}

async function startOnce(options: ClamdOptions) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-clamd-"));
  const limit = options.streamMaxLength ?? "200M";
  let child: ChildProcess | null = null;
  try {
    const port = await freePort();
    fs.mkdirSync(path.join(dir, "db"));
    fs.writeFileSync(
      path.join(dir, "db", "test.ndb"),
      `${EICAR_SIGNATURE}:0:*:${Buffer.from(EICAR, "latin1").toString("hex")}\n`,
    );
    const configFile = path.join(dir, "clamd.conf");
    fs.writeFileSync(
      configFile,
      [
        "Foreground yes",
        `DatabaseDirectory ${path.join(dir, "db")}`,
        `TCPSocket ${port}`,
        "TCPAddr 127.0.0.1",
        `LogFile ${path.join(dir, "clamd.log")}`,
        `PidFile ${path.join(dir, "clamd.pid")}`,
        `StreamMaxLength ${limit}`,
        `MaxFileSize ${limit}`,
        `MaxScanSize ${limit}`,
        "",
      ].join("\n"),
    );
    const started = spawn(CLAMD, [`--config-file=${configFile}`], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    child = started;
    let stderr = "";
    started.stderr?.setEncoding("utf8").on("data", (text: string) => {
      stderr = (stderr + text).slice(-4000);
    });
    const exited = new Promise<never>((_, reject) => {
      const fail = (why: string) =>
        reject(
          new ClamdExitedError(`clamd ${why} before it answered PING: ${lastLines(dir, stderr)}`),
        );
      started.once("error", (error) => fail(`could not start (${error.message})`));
      started.once("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
    });
    exited.catch(() => {});
    await Promise.race([waitForPong(port), exited]);

    const url = `tcp://127.0.0.1:${port}`;
    return {
      url,
      stop: async () => {
        await kill(started);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child) await kill(child);
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function lastLines(dir: string, stderr: string): string {
  let log = "";
  try {
    log = fs.readFileSync(path.join(dir, "clamd.log"), "utf8");
  } catch {
    // clamd may fail before it opens its log; stderr then says why.
  }
  const lines = `${log}\n${stderr}`.split("\n").filter((line) => line.trim() !== "");
  return lines.slice(-5).join(" | ") || "no output";
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** clamd loads its database before it listens, so PONG means it is ready to scan. */
async function waitForPong(port: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if ((await ping(port)) === "PONG") return;
    if (Date.now() > deadline) {
      throw new Error(
        `clamd did not answer PING on port ${port} within ${START_TIMEOUT_MS / 1000} s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function ping(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    let reply = "";
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000, () => socket.destroy());
    socket.on("connect", () => socket.write("zPING\0"));
    socket.on("data", (data) => {
      reply += data.toString("latin1");
      if (reply.includes("\0")) socket.end();
    });
    socket.on("error", () => {});
    socket.on("close", () =>
      resolve(reply.includes("\0") ? reply.slice(0, reply.indexOf("\0")) : null),
    );
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, "SIGKILL");
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}
