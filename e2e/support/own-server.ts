import type { ChildProcess } from "node:child_process";
import net from "node:net";

/**
 * For the spec files that start a server of their own (the same build, other settings) beside the
 * suite's shared one: a free loopback port, and waiting until the server answers.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer ${url} within 30 s`);
}

/** Stops a server this spec started, by its PID, and waits for it to exit. */
export async function stopServer(server: ChildProcess | null): Promise<void> {
  if (server?.pid === undefined || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  process.kill(server.pid, "SIGTERM");
  await exited;
}
