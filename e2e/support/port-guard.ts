import net from "node:net";
import { E2E_PORT } from "./global-setup.js";

/**
 * Runs before the main global setup. Two browser-test runs on one machine (two checkouts, or a
 * run started while another is still going) would share port 3900 and the state file: the second
 * server fails to listen, its health check is answered by the first run's server, and its tests
 * then read mail from the wrong SMTP peer. So a run waits here until the port is free, and
 * refuses to start if it stays taken.
 */
const WAIT_MS = 5 * 60 * 1000;

export default async function waitForFreePort(): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  let told = false;
  while (await inUse(E2E_PORT)) {
    if (Date.now() > deadline) {
      throw new Error(
        `Port ${E2E_PORT} is still in use after ${WAIT_MS / 60000} minutes: another browser-test run (or a server) holds it. Stop it and run again.`,
      );
    }
    if (!told) {
      console.warn(
        `Port ${E2E_PORT} is in use (another browser-test run?); waiting for it to be free...`,
      );
      told = true;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function inUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
