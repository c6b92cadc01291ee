import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;

/**
 * How requests are logged (docs/decisions/012-request-logging.md).
 *
 * Fastify writes two lines per request ("incoming request", "request completed"), each through
 * the request's own child logger, which pino builds for every request, running the redaction
 * paths over its bindings, even when the level writes neither line (about 3.5 % of a status read
 * under load). Here a request gets one line, after its answer, and its child logger is only
 * built when something writes through it (a warning, an error, a handler's own line).
 */

/** One access line per request: method, path, status, time, request id and client address. */
export class AccessLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // Said once, when the request is done (requestCompleted), with its outcome. At debug the start
    // is said too, for requests whose client goes away before an answer (those get no end line).
    if (this.isLogDisabled(request) || !enabled(request.log, "debug")) return;
    request.log.debug({ method: request.method, path: pathOf(request.url) }, "incoming request");
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    // The root logger with the request id as a field: no child logger is built for the line.
    const log = request.server.log;
    // The line is not even built when its level is not written (the bench runs at warn).
    if (!enabled(log, error ? "error" : "info")) return;
    const line = accessLine(request, reply);
    if (error) log.error({ ...line, err: error }, "request errored");
    else log.info(line, "request completed");
  }
}

/**
 * The access line's fields. The path only: a query string can carry a secret (the single sign-on
 * callback's `code`) or a person's name (a search), and headers (tokens, cookies) are never
 * written.
 */
export function accessLine(request: FastifyRequest, reply: FastifyReply) {
  return {
    reqId: request.id,
    method: request.method,
    path: pathOf(request.url),
    statusCode: reply.statusCode,
    responseTime: Math.round(reply.elapsedTime * 10) / 10,
    remoteAddress: request.ip,
  };
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal";

/** pino's numbers for its levels; a level it does not know here is treated as "write it". */
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/**
 * Fastify's childLoggerFactory: a request's logger that builds pino's child (with the request
 * id) on the first line that the level lets through, and never for a request that writes none.
 * The lines written are the child's own, the same as before.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options);
}

/** Whether a line at this level would be written by this logger. */
function enabled(log: FastifyBaseLogger, level: Level): boolean {
  return (LEVEL_VALUES[level] ?? 0) >= (LEVEL_VALUES[log.level] ?? 0);
}

/**
 * A request's logger, made on every request: one object whose methods live on its prototype,
 * rather than a closure per level, so a request that writes nothing costs one small allocation.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  #write(level: Level, args: unknown[]): void {
    if (!enabled(this, level)) return;
    const logger = this.#real();
    Reflect.apply(logger[level], logger, args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(value: string) {
    this.#real().level = value;
  }

  trace(...args: unknown[]): void {
    this.#write("trace", args);
  }

  debug(...args: unknown[]): void {
    this.#write("debug", args);
  }

  info(...args: unknown[]): void {
    this.#write("info", args);
  }

  warn(...args: unknown[]): void {
    this.#write("warn", args);
  }

  error(...args: unknown[]): void {
    this.#write("error", args);
  }

  fatal(...args: unknown[]): void {
    this.#write("fatal", args);
  }

  silent(): void {}

  child(more: Bindings, moreOptions?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(more, moreOptions);
  }
}
