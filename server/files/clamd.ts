import fs from "node:fs";
import net from "node:net";

/**
 * Virus scanning through clamd's INSTREAM command (clamd(8), "INSTREAM"): the file is sent over
 * TCP in length-prefixed chunks, so clamd never needs access to our disk. Any doubt (clamd down,
 * slow, or answering an error) is a ScannerUnavailableError: an upload is refused, never accepted
 * unscanned.
 */

export type ScanResult = { clean: true } | { clean: false; signature: string };

/** clamd could not be reached, timed out, or answered an error (e.g. "INSTREAM size limit exceeded"): the upload must be refused, never accepted unscanned. */
export class ScannerUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScannerUnavailableError";
  }
}

export interface VirusScanner {
  /** Streams the file to clamd with INSTREAM (zINSTREAM\0, 4-byte big-endian length-prefixed chunks, zero-length terminator) and reads the reply. */
  scan(localPath: string): Promise<ScanResult>;
  /** PING/PONG, for readiness. */
  ping(): Promise<void>;
}

const DEFAULT_PORT = 3310;
const DEFAULT_TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** Well under clamd's own limits on one chunk; big enough that the 4-byte headers cost nothing. */
const CHUNK_BYTES = 64 * 1024;
/** A reply is one short line; anything longer is not clamd. */
const MAX_REPLY_BYTES = 4096;

/** url is CLAMD_URL, tcp://host:port. Throws Error with a one-line message for a bad URL. */
export function parseClamdUrl(url: string): { host: string; port: number } {
  const shape = "must look like tcp://host:3310";
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error(`CLAMD_URL ${shape}`);
  }
  if (parsed.protocol !== "tcp:") throw new Error(`CLAMD_URL ${shape} (the scheme must be tcp://)`);
  if (
    parsed.username ||
    parsed.password ||
    parsed.search ||
    parsed.hash ||
    !["", "/"].includes(parsed.pathname)
  ) {
    throw new Error(`CLAMD_URL ${shape}, with no user, path or query`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) throw new Error(`CLAMD_URL ${shape} (the host is missing)`);
  // WHATWG URLs reject ports above 65535 when parsing; 0 still needs refusing here.
  const port = parsed.port === "" ? DEFAULT_PORT : Number(parsed.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`CLAMD_URL ${shape} (the port must be from 1 to 65535)`);
  }
  return { host, port };
}

export function createClamdScanner(
  url: string,
  options: { timeoutMs?: number } = {},
): VirusScanner {
  const { host, port } = parseClamdUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = `clamd at ${host}:${port}`;

  return {
    async scan(localPath) {
      // Opened before connecting: a missing file is our error, not the scanner's.
      const file = await fs.promises.open(localPath, "r");
      try {
        const reply = await converse(
          host,
          port,
          timeoutMs,
          where,
          SIZE_LIMIT_HINT,
          async (socket) => {
            socket.write("zINSTREAM\0");
            for await (const chunk of file.createReadStream({
              highWaterMark: CHUNK_BYTES,
              autoClose: false,
            })) {
              // clamd answered early (a size limit) or we gave up: the rest need not be read.
              if (socket.destroyed) return;
              const data = chunk as Buffer;
              const length = Buffer.alloc(4);
              length.writeUInt32BE(data.length);
              socket.write(length);
              // Wait for the socket to take each chunk, so a 100 MB file never queues in memory.
              if (!socket.write(data)) await drained(socket);
            }
            socket.write(Buffer.alloc(4));
          },
        );
        return readScanReply(reply, where);
      } finally {
        await file.close();
      }
    },

    async ping() {
      const reply = await converse(
        host,
        port,
        Math.min(timeoutMs, CONNECT_TIMEOUT_MS),
        where,
        "",
        (socket) => {
          socket.write("zPING\0");
        },
      );
      if (reply !== "PONG")
        throw new ScannerUnavailableError(`${where} answered PING with "${reply}"`);
    },
  };
}

const SIZE_LIMIT_HINT =
  "raise StreamMaxLength (and MaxFileSize, MaxScanSize) in clamd.conf above the largest upload allowed";

function readScanReply(reply: string, where: string): ScanResult {
  if (reply === "stream: OK") return { clean: true };
  const found = /^stream: (.+) FOUND$/.exec(reply);
  if (found) return { clean: false, signature: found[1]! };
  if (/size limit exceeded/i.test(reply)) {
    throw new ScannerUnavailableError(
      `${where} refused the file as too large ("${reply}"): ${SIZE_LIMIT_HINT}`,
    );
  }
  throw new ScannerUnavailableError(`${where} could not scan the file: "${reply}"`);
}

function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off("drain", done);
      socket.off("close", done);
      resolve();
    };
    socket.on("drain", done);
    socket.on("close", done);
  });
}

/**
 * One command on one connection: send, then read the NUL-terminated reply. clamd may answer
 * before we finish sending (a size limit) and close; its reply wins over our write failing.
 * Only clamd's side becomes a ScannerUnavailableError; failing to read our file is thrown as is.
 * `dropHint` says what a connection dropped without an answer may mean: clamd shuts it at once
 * over a file past its limit, and the reset can overtake its "size limit exceeded" reply.
 */
function converse(
  host: string,
  port: number,
  timeoutMs: number,
  where: string,
  dropHint: string,
  send: (socket: net.Socket) => Promise<void> | void,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let reply = Buffer.alloc(0);
    let settled = false;
    let socketError: Error | null = null;
    let connected = false;
    const socket = net.connect({ host, port });

    const finish = (outcome: string | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(overallTimer);
      socket.destroy();
      if (typeof outcome === "string") resolve(outcome);
      else reject(outcome);
    };
    const terminated = () => {
      const end = reply.indexOf(0);
      return end === -1 ? null : reply.subarray(0, end).toString("utf8").trim();
    };

    const connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, timeoutMs);
    const connectTimer = setTimeout(
      () =>
        finish(
          new ScannerUnavailableError(
            `${where} did not accept a connection within ${connectTimeoutMs / 1000} s`,
          ),
        ),
      connectTimeoutMs,
    );
    const overallTimer = setTimeout(
      () =>
        finish(new ScannerUnavailableError(`${where} did not answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );

    socket.on("connect", () => {
      clearTimeout(connectTimer);
      connected = true;
      Promise.resolve()
        .then(() => send(socket))
        // Socket failures arrive as events; what throws here is reading our own file.
        .catch((error: unknown) =>
          finish(error instanceof Error ? error : new Error(String(error))),
        );
    });
    socket.on("data", (data: Buffer) => {
      reply = Buffer.concat([reply, data]);
      const line = terminated();
      if (line !== null) finish(line);
      else if (reply.length > MAX_REPLY_BYTES)
        finish(new ScannerUnavailableError(`${where} sent an unreadable reply`));
    });
    // Usually clamd closed the connection on us: its reply, if any, explains why, at "close".
    socket.on("error", (error) => {
      socketError ??= error;
    });
    socket.on("close", () => {
      const line = terminated() ?? (reply.length > 0 ? reply.toString("utf8").trim() : null);
      if (line) return finish(line);
      const cause = socketError ? ` (${socketError.message})` : "";
      const message = connected
        ? `${where} closed the connection without an answer${cause}${dropHint ? `; if the file is larger than clamd's StreamMaxLength, ${dropHint}` : ""}`
        : `${where} could not be reached${cause}`;
      finish(new ScannerUnavailableError(message, { cause: socketError }));
    });
  });
}
