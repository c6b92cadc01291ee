import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** What global setup started, shared with the test workers through a file. */
export interface E2EState {
  baseUrl: string;
  mailDir: string;
  serverPid: number;
  smtpPort: number;
  admin: { email: string; password: string };
  contactEmail: string;
  /**
   * The server's SQLite file. Only the publication journey writes to it, to move an embargo's
   * end into the past (the server's clock cannot be moved from outside).
   */
  databasePath: string;
}

export const STATE_FILE = path.join(os.tmpdir(), "ets-e2e", "state.json");

export function readState(): E2EState {
  return JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as E2EState;
}

export function writeState(state: E2EState): void {
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
}
