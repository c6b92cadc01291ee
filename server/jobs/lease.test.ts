import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Db } from "../db/database.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { acquireLease, releaseLease } from "./lease.js";

let database: TestDatabase;
/** A second connection (its own pool on PostgreSQL), as another server has. */
let other: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  other = createDatabase(
    database.kind === "postgres"
      ? { kind: "postgres", url: database.url }
      : { kind: "sqlite", path: database.url.slice("sqlite:".length) },
  );
});
afterAll(async () => {
  await other.destroy();
  await database.drop();
});

const MINUTE = 60_000;
const t0 = new Date("2026-06-01T12:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);

async function leaseRow(name: string) {
  return database.db
    .selectFrom("job_leases")
    .selectAll()
    .where("name", "=", name)
    .executeTakeFirst();
}

describe("job leases", () => {
  it("is taken when free, refused to another holder while it lasts, renewed by its holder", async () => {
    const { db } = database;
    expect(await acquireLease(db, "sweep", "server-a", 5 * MINUTE, at(0))).toBe(true);
    expect(await leaseRow("sweep")).toEqual({
      name: "sweep",
      holder: "server-a",
      expires_at: at(5).toISOString(),
    });

    expect(await acquireLease(other, "sweep", "server-b", 5 * MINUTE, at(4))).toBe(false);
    expect((await leaseRow("sweep"))?.holder).toBe("server-a");

    expect(await acquireLease(db, "sweep", "server-a", 5 * MINUTE, at(4))).toBe(true);
    expect((await leaseRow("sweep"))?.expires_at).toBe(at(9).toISOString());
    // Renewed: at minute 6 the first lease would have ended, this one has not.
    expect(await acquireLease(other, "sweep", "server-b", 5 * MINUTE, at(6))).toBe(false);
  });

  it("passes to another holder once it has expired, and the old holder cannot take it back", async () => {
    const { db } = database;
    expect(await acquireLease(db, "expiry", "server-a", 5 * MINUTE, at(0))).toBe(true);
    expect(await acquireLease(other, "expiry", "server-b", 5 * MINUTE, at(5))).toBe(true);
    expect(await leaseRow("expiry")).toMatchObject({
      holder: "server-b",
      expires_at: at(10).toISOString(),
    });
    expect(await acquireLease(db, "expiry", "server-a", 5 * MINUTE, at(6))).toBe(false);
  });

  it("is released only by its holder, and is free at once after", async () => {
    const { db } = database;
    expect(await acquireLease(db, "release", "server-a", 5 * MINUTE, at(0))).toBe(true);
    await releaseLease(other, "release", "server-b");
    expect((await leaseRow("release"))?.holder).toBe("server-a");
    await releaseLease(db, "release", "server-a");
    expect(await leaseRow("release")).toBeUndefined();
    expect(await acquireLease(other, "release", "server-b", 5 * MINUTE, at(1))).toBe(true);
  });

  it("keeps leases of different names apart", async () => {
    const { db } = database;
    expect(await acquireLease(db, "reminders", "server-a", 5 * MINUTE, at(0))).toBe(true);
    expect(await acquireLease(other, "housekeeping-2", "server-b", 5 * MINUTE, at(0))).toBe(true);
  });

  it("goes to exactly one of many holders racing for it over two connections", async () => {
    const holders = Array.from({ length: 12 }, (_, n) => `racer-${n}`);
    const results = await Promise.all(
      holders.map((holder, n) =>
        acquireLease(n % 2 === 0 ? database.db : other, "race", holder, 5 * MINUTE, at(0)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = holders[results.indexOf(true)];
    expect((await leaseRow("race"))?.holder).toBe(winner);
  });
});
