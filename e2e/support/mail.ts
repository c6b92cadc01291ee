import fs from "node:fs";
import path from "node:path";
import { readState } from "./state.js";

export interface E2EMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

export function allMail(): E2EMail[] {
  const { mailDir } = readState();
  return fs
    .readdirSync(mailDir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(mailDir, f), "utf8")) as E2EMail);
}

/** Waits for a mail to `to` that matches, as received by the real SMTP peer. */
export async function waitForMail(
  to: string,
  match: (mail: E2EMail) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<E2EMail> {
  const deadline = Date.now() + timeoutMs;
  const address = to.toLowerCase();
  for (;;) {
    const found = allMail()
      .reverse()
      .find((m) => m.to.includes(address) && match(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} arrived within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function codeFrom(mail: E2EMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No six-digit code in the mail: ${mail.text}`);
  return code;
}
