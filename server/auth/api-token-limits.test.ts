import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { tokenRequestCounter } from "./api-token-limits.js";
import { countRequest } from "./rate-limit-store.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const shared = async (tokenId: number) =>
  (
    await database.db
      .selectFrom("rate_limit_counters")
      .select("count")
      .where("key", "=", `api-token:${tokenId}`)
      .executeTakeFirst()
  )?.count ?? 0;

describe("the per-token counter", () => {
  it("adds requests to the shared counter in batches of a twentieth of the limit", async () => {
    let now = Date.parse("2026-06-01T12:00:00.000Z");
    const count = tokenRequestCounter(database.db, { max: 100, windowMs: 60_000 }, () => now);
    await count(1); // the first request reads the shared count
    expect(await shared(1)).toBe(1);
    for (let i = 0; i < 4; i += 1) await count(1);
    expect(await shared(1)).toBe(1);
    await count(1); // the fifth since: one batch
    expect(await shared(1)).toBe(6);
    now += 1500; // a second later, the next request adds what is pending
    await count(1);
    expect(await shared(1)).toBe(7);
  });

  it("refuses once the shared count and this server's own pass the limit, other servers' included", async () => {
    const now = Date.parse("2026-06-01T13:00:00.000Z");
    const count = tokenRequestCounter(database.db, { max: 40, windowMs: 60_000 }, () => now);
    // Another server spent 38 of the 40 already.
    await countRequest(database.db, "api-token:2", 60_000, new Date(now), 38);
    expect((await count(2)).over).toBe(false); // 39
    expect((await count(2)).over).toBe(false); // 40
    const third = await count(2); // 41
    expect(third.over).toBe(true);
    expect(third.waitMs).toBe(60_000);
  });

  it("counts every request when the limit is under twenty", async () => {
    const now = Date.parse("2026-06-01T14:00:00.000Z");
    const count = tokenRequestCounter(database.db, { max: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 4; i += 1) await count(3);
    expect(await shared(3)).toBe(4);
  });
});
