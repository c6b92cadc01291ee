import { readState } from "./state.js";

/**
 * Runs after the main global setup. Its health check passes as soon as anything answers on the
 * port; when another run's server already held the port, ours exits (EADDRINUSE) while the other
 * one answers, and every test would then talk to a server with a different database and SMTP peer.
 * So check, a moment later, that the server this run started is still running.
 */
export default async function checkOwnServer(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1500));
  const { serverPid, baseUrl } = readState();
  try {
    process.kill(serverPid, 0);
  } catch {
    throw new Error(
      `The server this run started (pid ${serverPid}) is not running, yet ${baseUrl} answers: another browser-test run holds the port. Wait for it to finish and run again.`,
    );
  }
}
