import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ROW_ID } from "../../common/api.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { answerProblems, type AnswerRules } from "./answers.js";
import {
  cut,
  describeRequest,
  readOperations,
  requestArbitrary,
  toInject,
  type GeneratedRequest,
  type OpenApiDocument,
  type Operation,
} from "./requests.js";
import { CURRENT_VERSION, FUZZ_SWORD_URL, buildWorld, type FuzzWorld } from "./world.js";

/**
 * Generated requests for every route of the OpenAPI document (server/fuzz/README.md). The seed is
 * fixed so a failure repeats: the failing request is printed, and changing FUZZ_SEED explores
 * other requests.
 */
const FUZZ_SEED = 12_072_025;
/** Requests per route with the request limits raised; there are about 55 routes. */
const RUNS_PER_ROUTE = 270;
/** Requests per route with the default limits, where 429 is a fair answer. */
const RUNS_PER_ROUTE_DEFAULT_LIMITS = 20;
const MIN_REQUESTS = 10_000;
/** No answer needs more: the largest page of the list is well under it. */
const MAX_ANSWER_BYTES = 512 * 1024;

/**
 * A 500's cause (the server's own log line, with its stack) is printed beside the failure. The
 * repository is configured so deposits can be queued; the app has no deposit worker (startRun), so
 * nothing is sent to it.
 */
const LOGS = { LOG_LEVEL: "error", REPOSITORY_SWORD_URL: FUZZ_SWORD_URL };

const RAISED_LIMITS = {
  ...LOGS,
  RATE_LIMIT_SIGN_IN: "9999999",
  RATE_LIMIT_SIGN_UP: "9999999",
  RATE_LIMIT_CODE_REQUEST: "9999999",
  RATE_LIMIT_ACCOUNT_CODES: "9999999",
  RATE_LIMIT_CONTACT: "9999999",
  RATE_LIMIT_ACCOUNT_FAILURES: "9999999",
  RATE_LIMIT_UPLOADS: "9999999",
  RATE_LIMIT_EXAMINER_LINKS: "9999999",
  RATE_LIMIT_SSO: "9999999",
  RATE_LIMIT_API_TOKEN: "9999999",
};

/** Requests after which the callers' accounts and sessions may need restoring. */
const ENDS_SESSIONS = /\/(logout|user_sign_in|change_password|deactivate|reactivate)$/;
/** Requests after which the links the world keeps working (world.ts) may need restoring. */
const STOPS_LINKS = /^\/api\/admin\/examinations\/\{id\}\/revoke$/;

interface Run {
  t: TestApp;
  world: FuzzWorld;
  operations: Operation[];
  /** Per route ("POST /api/contact"), how many answers had each status. */
  statuses: Map<string, Map<number, number>>;
  /** Per route, the largest answer's size in bytes. */
  largest: Map<string, number>;
}

async function startRun(env: Record<string, string>): Promise<Run> {
  const t = await createTestApp(env, { depositWorker: false });
  const world = await buildWorld(t);
  const document = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
  const operations = readOperations(document.json<OpenApiDocument>());
  return { t, world, operations, statuses: new Map(), largest: new Map() };
}

let sent = 0;

/** Sends one generated request; every problem with its answer, with the request, in a line. */
async function send(
  run: Run,
  request: GeneratedRequest,
  rules: AnswerRules,
): Promise<string | null> {
  const inject = toInject(await withCurrentVersion(run, request), run.world.sessions);
  sent += 1;
  let answer: Awaited<ReturnType<typeof run.t.app.inject>>;
  try {
    answer = await run.t.app.inject(inject);
  } catch (error) {
    // A streamed answer that failed after its headers went out: the client sees the connection cut.
    return `the answer was cut off (${error instanceof Error ? error.message : String(error)})\n  request: ${describeRequest(request)}`;
  }
  if (ENDS_SESSIONS.test(request.operation.path)) await run.world.restore();
  if (STOPS_LINKS.test(request.operation.path)) await run.world.restoreLinks();
  const route = `${request.operation.method} ${request.operation.path}`;
  const counts = run.statuses.get(route) ?? new Map<number, number>();
  counts.set(answer.statusCode, (counts.get(answer.statusCode) ?? 0) + 1);
  run.statuses.set(route, counts);
  run.largest.set(route, Math.max(run.largest.get(route) ?? 0, answer.rawPayload.length));
  const problems = answerProblems(
    { method: request.method, path: request.operation.path },
    answer,
    rules,
  );
  if (problems.length === 0) return null;
  return `${problems.join("; ")}\n  request: ${describeRequest(request)}\n  answer: ${answer.statusCode} ${cut(answer.body, 600)}`;
}

/** An edit carrying CURRENT_VERSION gets the submission's version, so it is not stale. */
async function withCurrentVersion(run: Run, request: GeneratedRequest): Promise<GeneratedRequest> {
  const body = request.body;
  const id = /^\/api\/admin\/submissions\/(\d+)$/.exec(request.url)?.[1];
  if (
    request.method !== "PATCH" ||
    id === undefined ||
    body.kind !== "json" ||
    typeof body.value !== "object" ||
    body.value === null ||
    (body.value as { version?: unknown }).version !== CURRENT_VERSION
  ) {
    return request;
  }
  const row =
    Number(id) <= MAX_ROW_ID
      ? await run.t.db
          .selectFrom("submissions")
          .select("version")
          .where("id", "=", Number(id))
          .executeTakeFirst()
      : undefined;
  return { ...request, body: { ...body, value: { ...body.value, version: row?.version ?? 1 } } };
}

/**
 * Runs every route's property and keeps going after a failure: each route's first few distinct
 * problems are reported together, with the run's number so the seed repeats it. No shrinking:
 * each step would be more requests against a database that has moved on.
 */
async function fuzzEveryRoute(
  run: Run,
  runsPerRoute: number,
  rules: AnswerRules,
): Promise<string[]> {
  const failures: string[] = [];
  for (const operation of run.operations) {
    await run.world.prepareRoute(operation.path);
    const seen = new Set<string>();
    let index = 0;
    const property = fc.asyncProperty(
      requestArbitrary(operation, run.world.context),
      async (request) => {
        index += 1;
        const problem = await send(run, request, rules);
        const kind = problem?.split("\n")[0];
        if (problem === null || kind === undefined || seen.has(kind) || seen.size >= 3) return;
        seen.add(kind);
        failures.push(
          `${operation.method} ${operation.path}, run ${index} of seed ${FUZZ_SEED}: ${problem}`,
        );
      },
    );
    await fc.assert(property, { seed: FUZZ_SEED, numRuns: runsPerRoute });
  }
  return failures;
}

/**
 * Each route's answers by status and its largest answer, a line per route: where the generated
 * requests got to.
 */
function statusTable(run: Run): string {
  return [...run.statuses]
    .map(([route, counts]) => {
      const byStatus = [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      const largest = Math.ceil((run.largest.get(route) ?? 0) / 1024);
      return `${route.padEnd(56)} ${byStatus.join(" ")}  (largest ${largest} KB)`;
    })
    .join("\n");
}

describe("generated hostile requests", () => {
  let raised: Run;

  beforeAll(async () => {
    console.info(
      `Generated requests use the seed ${FUZZ_SEED} (FUZZ_SEED in server/fuzz/routes.test.ts).`,
    );
    raised = await startRun(RAISED_LIMITS);
  });
  afterAll(async () => {
    await raised?.t.close();
  });

  it("reads every route from the OpenAPI document, the multipart ones included", () => {
    const routes = raised.operations.map((o) => `${o.method} ${o.path}`);
    expect(routes.length).toBeGreaterThanOrEqual(35);
    expect(routes).toContain("POST /api/admin/import/apply");
    expect(routes).toContain("POST /api/submissions/{indexNumber}/documents/{item}");
    expect(routes).toContain("PATCH /api/admin/submissions/{id}");
  });

  it("answers every route, as every kind of caller, without a 500, a stack trace or a stray shape", async () => {
    const failures = await fuzzEveryRoute(raised, RUNS_PER_ROUTE, {
      maxBytes: MAX_ANSWER_BYTES,
      allowRateLimited: false,
    });
    console.info(statusTable(raised));
    expect(failures).toEqual([]);
  }, 240_000);

  it("answers with the default request limits too, where 429 is a fair answer", async () => {
    const strict = await startRun(LOGS);
    try {
      const failures = await fuzzEveryRoute(strict, RUNS_PER_ROUTE_DEFAULT_LIMITS, {
        maxBytes: MAX_ANSWER_BYTES,
        allowRateLimited: true,
      });
      expect(failures).toEqual([]);
      // The slice met the limits it is there for.
      const limited = [...strict.statuses.values()].filter((counts) => counts.has(429));
      expect(limited.length).toBeGreaterThan(0);
    } finally {
      await strict.t.close();
    }
  }, 120_000);

  it(`sent at least ${MIN_REQUESTS} requests, most routes answering some of them with success`, () => {
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    // Requests that all bounce off validation would prove little about the handlers behind it.
    const succeeded = [...raised.statuses.values()].filter((counts) =>
      [...counts.keys()].some((status) => status >= 200 && status < 300),
    );
    console.info(
      `Sent ${sent} requests; ${succeeded.length} of ${raised.operations.length} routes answered some with success.`,
    );
    expect(succeeded.length).toBeGreaterThanOrEqual(Math.ceil(raised.operations.length * 0.9));
  });
});
