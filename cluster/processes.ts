import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";

/**
 * Child processes of the cluster: started here, remembered by PID and stopped by PID, never by a
 * process name, so nothing else on the machine is touched. Each one's output goes to a file the
 * caller chooses (tests read its tail when something goes wrong) or to a line callback (the demo).
 */

export interface Child {
  /** What it is, for messages: "app server 2", "nginx". */
  name: string;
  pid: number;
  process: ChildProcess;
  /** Resolves with the exit code or signal when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether it is still running (no exit seen yet). */
  running(): boolean;
  /** The last lines it wrote, for error messages. */
  tail(lines?: number): string;
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Where stdout and stderr are appended. */
  logFile: string;
  /** Also called with each line, e.g. to print "[server 2] ..." in the demo. */
  onLine?: (line: string) => void;
}

// Every child still running when this process exits is sent SIGKILL by PID, so a test run that
// dies (a failed hook, Ctrl-C on vitest) leaves no server listening behind it.
const running = new Set<Child>();
process.once("exit", () => {
  for (const child of running) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

export function startChild(options: StartOptions): Child {
  const log = fs.openSync(options.logFile, "a");
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own: Ctrl-C in the terminal reaches only the parent, which then
    // stops its children in order (nginx first, so no request reaches a closing server).
    detached: true,
  };
  const child = spawn(options.command, options.args, spawnOptions);
  if (child.pid === undefined) {
    fs.closeSync(log);
    throw new Error(`${options.name} could not be started (${options.command})`);
  }
  const recent: string[] = [];
  const remember = (chunk: Buffer) => {
    fs.writeSync(log, chunk);
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      recent.push(line);
      if (recent.length > 200) recent.shift();
      options.onLine?.(line);
    }
  };
  child.stdout?.on("data", remember);
  child.stderr?.on("data", remember);

  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      alive = false;
      running.delete(handle);
      resolve({ code, signal });
    });
  });
  // The log is closed once both pipes are drained, after the exit.
  child.once("close", () => fs.closeSync(log));
  const handle: Child = {
    name: options.name,
    pid: child.pid,
    process: child,
    exited,
    running: () => alive,
    tail: (lines = 30) => recent.slice(-lines).join("\n"),
  };
  running.add(handle);
  return handle;
}

/**
 * Sends each signal in turn to the child's PID, waiting up to `graceMs` after each for it to exit;
 * a process still running after the last gets SIGKILL. Resolves at once for a child already gone.
 */
export async function stopChild(
  child: Child,
  signals: NodeJS.Signals | NodeJS.Signals[] = "SIGTERM",
  graceMs = 15_000,
): Promise<void> {
  for (const signal of [...(Array.isArray(signals) ? signals : [signals]), "SIGKILL" as const]) {
    if (!child.running()) return;
    try {
      process.kill(child.pid, signal);
    } catch {
      return;
    }
    const timer = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), graceMs));
    if ((await Promise.race([child.exited, timer])) !== "late") return;
  }
}

/** A port free on loopback now. Another process may take it before it is used: callers retry. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until `url` answers 200, failing early with the child's last lines when it exits first,
 * and after `timeoutMs` otherwise.
 */
export async function waitForOk(url: string, child: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  for (;;) {
    if (!child.running()) {
      throw new Error(
        `${child.name} exited before ${url} answered. Its last lines:\n${child.tail()}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} did not answer ${url} with 200 within ${timeoutMs / 1000} s (${last}). Its last lines:\n${child.tail()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
