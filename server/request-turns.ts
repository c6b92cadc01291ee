import type { FastifyInstance } from "fastify";

/**
 * Requests start in turns of the event loop, so a busy server keeps accepting connections.
 *
 * Node 20's libuv accepts one new connection per turn of the event loop (libuv pull request 3696),
 * and a turn runs every request whose data has arrived. The starvation below is still there on
 * Node 24 (libuv 1.52), and with ETS_WORKERS too: the cluster's primary accepts, but each worker
 * takes the connections handed to it in its own turns. With 200 busy keep-alive connections a
 * turn lasted 200 requests (0.7 s for the list search on SQLite, whose queries run synchronously),
 * so a client that connected late waited in the kernel's accept queue for one turn per client
 * ahead of it: searches answered after almost 10 s, or timed out, while the requests already
 * accepted took 30 ms at most (docs/benchmarks.md, "Load"). Measured again on Node 24 with 1 and
 * 2 workers (`npm run bench -- load --turns both`): without the turns the list search still timed
 * out (max 10 s), with them none did.
 *
 * Here a request starts at once while the current turn has spent less than `sliceMs` starting
 * requests and none is waiting; otherwise it waits in arrival order, and the waiting requests
 * start one per turn. Each turn then stays about one request long, the listening socket is
 * polled between two of them, and every client, old or new, is served in its turn.
 */
export interface RequestTurns {
  /**
   * Call as the request arrives, before doing work for it. Returns undefined when it may start
   * now, or a promise that resolves at its turn.
   */
  admit(): Promise<void> | undefined;
  /** Requests waiting for their turn. */
  waiting(): number;
}

export interface RequestTurnsOptions {
  /** How long a turn may spend starting requests that arrive in it before the next ones wait. */
  sliceMs: number;
  /** Milliseconds, monotonic; tests pass their own. */
  now?: () => number;
}

/** The slice: a few list searches (1 to 3 ms each); a status read takes a fraction of one. */
export const REQUEST_SLICE_MS = 5;

export function createRequestTurns(options: RequestTurnsOptions): RequestTurns {
  const now = options.now ?? (() => performance.now());
  const queue: (() => void)[] = [];
  // When the first request of the current turn started; null until one starts in it.
  let turnStartedAt: number | null = null;
  let endOfTurnScheduled = false;

  // setImmediate runs after this turn's I/O callbacks (the poll phase, where the listening socket
  // and the connections are read): the end of the turn.
  const scheduleEndOfTurn = () => {
    if (endOfTurnScheduled) return;
    endOfTurnScheduled = true;
    setImmediate(endOfTurn);
  };

  function endOfTurn(): void {
    endOfTurnScheduled = false;
    turnStartedAt = null;
    const next = queue.shift();
    if (next === undefined) return;
    // The request runs right after this callback; with SQLite it runs to its answer there. The
    // next one waits for the next turn, after that turn's poll phase.
    turnStartedAt = now();
    next();
    scheduleEndOfTurn();
  }

  return {
    admit() {
      const at = now();
      if (turnStartedAt === null) {
        turnStartedAt = at;
        scheduleEndOfTurn();
      }
      if (queue.length === 0 && at - turnStartedAt < options.sliceMs) return undefined;
      scheduleEndOfTurn();
      return new Promise<void>((resolve) => queue.push(resolve));
    },
    waiting: () => queue.length,
  };
}

/**
 * Makes every request of `app` wait for its turn before the first other hook runs (the session
 * lookup included). Register it before every other onRequest hook.
 */
export function takeRequestsInTurns(
  app: FastifyInstance,
  turns: RequestTurns = createRequestTurns({ sliceMs: REQUEST_SLICE_MS }),
): void {
  // A callback hook, not an async one: most requests start at once, and then no promise is made.
  app.addHook("onRequest", (_request, _reply, done) => {
    const turn = turns.admit();
    if (turn === undefined) done();
    else void turn.then(() => done());
  });
}
