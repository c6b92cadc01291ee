import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import { createDatabase, nowIso } from "../db/database.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import {
  countRequest,
  databaseRateLimitStore,
  LIMITS_UNAVAILABLE_MESSAGE,
  sweepRateLimitCounters,
} from "./rate-limit-store.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const start = new Date("2026-06-01T12:00:00.000Z");
const later = (ms: number) => new Date(start.getTime() + ms);

async function counter(key: string) {
  return database.db
    .selectFrom("rate_limit_counters")
    .select(["count", "resets_at"])
    .where("key", "=", key)
    .executeTakeFirst();
}

describe("counting requests in the database", () => {
  it("starts a window at the first request and counts on within it", async () => {
    const { db } = database;
    expect(await countRequest(db, "window:a", 60_000, start)).toEqual({
      count: 1,
      resetsAt: "2026-06-01T12:01:00.000Z",
    });
    expect(await countRequest(db, "window:a", 60_000, later(10_000))).toEqual({
      count: 2,
      resetsAt: "2026-06-01T12:01:00.000Z",
    });
    expect(await countRequest(db, "window:a", 60_000, later(59_999))).toEqual({
      count: 3,
      resetsAt: "2026-06-01T12:01:00.000Z",
    });
  });

  it("starts a new window once the old one has ended", async () => {
    const { db } = database;
    await countRequest(db, "window:b", 60_000, start);
    await countRequest(db, "window:b", 60_000, later(1_000));
    expect(await countRequest(db, "window:b", 60_000, later(60_000))).toEqual({
      count: 1,
      resetsAt: "2026-06-01T12:02:00.000Z",
    });
    expect(await countRequest(db, "window:b", 60_000, later(61_000))).toEqual({
      count: 2,
      resetsAt: "2026-06-01T12:02:00.000Z",
    });
  });

  it("keeps each key's count apart", async () => {
    const { db } = database;
    await countRequest(db, "apart:1", 60_000, start);
    await countRequest(db, "apart:1", 60_000, start);
    expect((await countRequest(db, "apart:2", 60_000, start)).count).toBe(1);
    expect((await counter("apart:1"))?.count).toBe(2);
  });

  it("counts every one of 30 simultaneous requests, each with its own number", async () => {
    const { db } = database;
    const hits = await Promise.all(
      Array.from({ length: 30 }, () => countRequest(db, "crowd", 60_000, start)),
    );
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(new Set(hits.map((hit) => hit.resetsAt))).toEqual(new Set(["2026-06-01T12:01:00.000Z"]));
    expect((await counter("crowd"))?.count).toBe(30);
  });

  it("sweeps the counters whose window has passed and keeps the others", async () => {
    const { db } = database;
    await db.deleteFrom("rate_limit_counters").execute();
    await countRequest(db, "sweep:ended", 60_000, start);
    await countRequest(db, "sweep:ends-now", 60_000, later(30_000));
    await countRequest(db, "sweep:running", 60_000, later(60_000));
    expect(await sweepRateLimitCounters(db, later(90_000))).toBe(2);
    const left = await db.selectFrom("rate_limit_counters").select(["key", "count"]).execute();
    expect(left).toEqual([{ key: "sweep:running", count: 1 }]);
    expect(await sweepRateLimitCounters(db, later(90_000))).toBe(0);
  });
});

describe("the store behind @fastify/rate-limit", () => {
  let clock = start;
  let app: FastifyInstance;
  const logged: string[] = [];

  beforeAll(async () => {
    app = Fastify({
      logger: { level: "error", stream: { write: (line: string) => logged.push(line) } },
    });
    await app.register(rateLimit, {
      global: false,
      store: databaseRateLimitStore(database.db, { log: app.log, now: () => clock }),
    });
    const limited = { config: { rateLimit: { max: 2, timeWindow: 60_000 } } };
    app.post("/one", limited, async () => ({ ok: true }));
    app.post("/two", limited, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (url: string, ip: string) => app.inject({ method: "POST", url, remoteAddress: ip });

  it("keeps each route's counters under its own name, so two limits never share a count", async () => {
    expect((await post("/one", "192.0.2.1")).statusCode).toBe(200);
    expect((await post("/one", "192.0.2.1")).statusCode).toBe(200);
    const refused = await post("/one", "192.0.2.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("60");
    // The same address on the other route has its own budget.
    expect((await post("/two", "192.0.2.1")).statusCode).toBe(200);
    const keys = await database.db
      .selectFrom("rate_limit_counters")
      .select(["key", "count"])
      .where("key", "like", "POST /%")
      .orderBy("key")
      .execute();
    expect(keys).toEqual([
      { key: "POST /one:192.0.2.1", count: 3 },
      { key: "POST /two:192.0.2.1", count: 1 },
    ]);
  });

  it("tells the client how long is left in the window, by the store's clock", async () => {
    clock = later(45_000);
    const refused = await post("/one", "192.0.2.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("15");
    clock = later(60_000);
    expect((await post("/one", "192.0.2.1")).statusCode).toBe(200);
  });

  it("refuses with 503 and logs the cause when the counter cannot be written, rather than letting the request through", async () => {
    await installWriteTrap(database.db, "rate_limit_counters", "key", "POST /one:192.0.2.66");
    const refused = await post("/one", "192.0.2.66");
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ message: LIMITS_UNAVAILABLE_MESSAGE });
    expect(refused.body).not.toContain("write trap");
    const line = logged.find((l) => l.includes("request limit: the counter could not be updated"));
    expect(line).toContain("write trap");
    expect(line).toContain('"limit":"POST /one"');
    // Other addresses are counted as before.
    expect((await post("/one", "192.0.2.67")).statusCode).toBe(200);
  });

  it("needs a name for a limit made outside a route", () => {
    expect(() => app.createRateLimit({ max: 1, timeWindow: 1_000 })).toThrow(
      "A request limit outside a route needs a limitName",
    );
  });

  it("writes times in the storage convention (ISO-8601 UTC)", async () => {
    const row = await counter("POST /two:192.0.2.1");
    expect(row?.resets_at).toBe(nowIso(later(60_000)));
  });
});

describe("the store when the database cannot be reached", () => {
  it("refuses with 503 and logs a warning, not an error: the outage is not a fault here", async () => {
    const port = await closedPort();
    const unreachable = createDatabase({
      kind: "postgres",
      url: `postgres://postgres@127.0.0.1:${port}/ets`,
    });
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: "warn", stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      await app.register(rateLimit, {
        global: false,
        store: databaseRateLimitStore(unreachable, { log: app.log }),
      });
      app.post("/limited", { config: { rateLimit: { max: 5, timeWindow: 60_000 } } }, async () => ({
        ok: true,
      }));
      const refused = await app.inject({ method: "POST", url: "/limited" });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ message: LIMITS_UNAVAILABLE_MESSAGE });
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: "request limit: the counter could not be updated; refusing the request",
        }),
      );
    } finally {
      await app.close();
      await unreachable.destroy();
    }
  });
});

/** A loopback port with nothing listening on it (bound, then released). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
