/**
 * Test clients for the fault tests: plain HTTP over loopback (Node's fetch), each request written
 * down with when it was sent, what came back and which app server answered (nginx's X-Upstream),
 * so a test can count what failed around a fault and what happened to each write.
 */

export interface Outcome {
  /** "read" or "write": what the test drives, not the HTTP method. */
  kind: "read" | "write";
  method: string;
  path: string;
  startedAt: number;
  endedAt: number;
  /** The HTTP status, or null when no answer came (the connection failed, or timed out). */
  status: number | null;
  /** The body as text (JSON for the API), or the network error's message. */
  body: string;
  /** Which app server nginx used ("127.0.0.1:port", several when it retried), when through nginx. */
  upstream: string | null;
  /** Sent a second time: its fresh connection was closed before any answer (see `fresh`). */
  resent?: boolean;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: FormData;
  kind?: "read" | "write";
  timeoutMs?: number;
  /**
   * A connection of its own, closed after the answer, instead of one kept alive from an earlier
   * request. A browser resends a request that fails on a reused connection the server had just
   * closed (as nginx does with its idle ones on a reload); this client does not, so a test that
   * reloads nginx under traffic asks for fresh connections. A reload also closes a fresh
   * connection that an old worker had accepted but not yet read, so a GET whose fresh connection
   * closes before any answer is sent once more, as a browser resends an idempotent request
   * (the outcome says `resent`); anything else that fails stays failed.
   */
  fresh?: boolean;
}

/** The connection was closed (or reset) before any answer came. */
function closedBeforeAnswer(error: unknown): boolean {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET";
}

export async function send(
  base: string,
  path: string,
  options: RequestOptions = {},
): Promise<Outcome> {
  const first = await sendOnce(base, path, options);
  if (!first.closedBeforeAnswer || !options.fresh || (options.method ?? "GET") !== "GET") {
    return first.outcome;
  }
  const again = await sendOnce(base, path, options);
  return { ...again.outcome, startedAt: first.outcome.startedAt, resent: true };
}

async function sendOnce(
  base: string,
  path: string,
  options: RequestOptions,
): Promise<{ outcome: Outcome; closedBeforeAnswer: boolean }> {
  const method = options.method ?? "GET";
  const startedAt = Date.now();
  const headers: Record<string, string> = {
    ...options.headers,
    ...(options.fresh ? { connection: "close" } : {}),
  };
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.body) {
    body = options.body;
  }
  const outcome = (answer: Pick<Outcome, "status" | "body" | "upstream">): Outcome => ({
    kind: options.kind ?? (method === "GET" ? "read" : "write"),
    method,
    path,
    startedAt,
    endedAt: Date.now(),
    ...answer,
  });
  let answered = false;
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    answered = true;
    const text = await res.text();
    return {
      outcome: outcome({ status: res.status, body: text, upstream: res.headers.get("x-upstream") }),
      closedBeforeAnswer: false,
    };
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return {
      outcome: outcome({
        status: null,
        body: `${error instanceof Error ? error.message : String(error)}${cause}`,
        upstream: null,
      }),
      closedBeforeAnswer: !answered && closedBeforeAnswer(error),
    };
  }
}

export const succeeded = (o: Outcome) => o.status !== null && o.status >= 200 && o.status < 300;

/** Runs `step` again and again until `until()` says stop; every outcome it returns is kept. */
export async function loop(
  until: () => boolean,
  step: () => Promise<Outcome | Outcome[]>,
  into: Outcome[],
): Promise<void> {
  while (!until()) {
    const result = await step();
    into.push(...(Array.isArray(result) ? result : [result]));
  }
}

/** A short summary for a failing assertion: status and body of the first few outcomes. */
export function summarize(outcomes: Outcome[], limit = 5): string {
  return outcomes
    .slice(0, limit)
    .map((o) => `${o.method} ${o.path} -> ${o.status ?? "no answer"} ${o.body.slice(0, 200)}`)
    .join("\n");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
