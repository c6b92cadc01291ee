import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

/**
 * A real SMTP server for tests: it accepts what the product sends over the wire and keeps each
 * message, decoded enough to read its headers and text. It can be stopped and started again on
 * the same port to play an outage.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
  receivedAt: Date;
}

export interface SmtpPeer {
  port: number;
  url: string;
  messages: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
}

export async function startSmtpPeer(
  options: { port?: number; onMail?: (mail: ReceivedMail) => void } = {},
): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  let port = options.port ?? 0;

  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: decodeHeader(header(raw, "subject")),
            text: bodyText(raw),
            raw,
            receivedAt: new Date(),
          };
          messages.push(mail);
          options.onMail?.(mail);
          callback();
        });
      },
    });

  const peer: SmtpPeer = {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    messages,
    async start() {
      if (server) return;
      const s = create();
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(port, "127.0.0.1", () => resolve());
      });
      port = (s.server.address() as AddressInfo).port;
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error("No matching mail arrived at the SMTP peer in time");
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  await peer.start();
  return peer;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const match = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded);
  return match?.[1]?.trim() ?? "";
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === "b"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

/** The text/plain part (or the only body), with its transfer encoding undone. */
function bodyText(raw: string): string {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head.replace(/\r?\n[ \t]+/g, " "))?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`);
    const plain = parts.find((p) => /content-type:\s*text\/plain/i.test(p)) ?? parts[1] ?? "";
    return bodyText(plain.replace(/^\r?\n/, ""));
  }
  const encoding = header(raw, "content-transfer-encoding").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64")
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`)
    // Keep literal percent signs from being read as escapes.
    .replace(/%(?![0-9A-F]{2})/gi, "%25");
  try {
    return decodeURIComponent(bytes);
  } catch {
    return text;
  }
}
