import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../testing/test-app.js";
import { markReplay, saveSsoRequest, sweepSsoRecords, takeSsoRequest } from "./requests.js";

/** Sign-ins under way and used answers, kept in the database for every server (both dialects). */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const request = (key: string) => ({
  key,
  provider: "oidc" as const,
  nonce: `nonce-${key}`,
  codeVerifier: `verifier-${key}`,
  returnTo: "/admin",
});

describe("sso requests", () => {
  it("are taken once: a second take finds nothing", async () => {
    await saveSsoRequest(database.db, request("once"));
    expect(await takeSsoRequest(database.db, "once", "oidc")).toEqual(request("once"));
    expect(await takeSsoRequest(database.db, "once", "oidc")).toBeNull();
  });

  it("are not taken by the other protocol", async () => {
    await saveSsoRequest(database.db, request("other"));
    expect(await takeSsoRequest(database.db, "other", "saml")).toBeNull();
  });

  it("are refused after they expire, and swept", async () => {
    const then = new Date("2030-01-01T00:00:00Z");
    await saveSsoRequest(database.db, request("late"), then);
    await saveSsoRequest(database.db, request("swept"), then);
    const later = new Date(then.getTime() + 10 * 60 * 1000 + 1);
    expect(await takeSsoRequest(database.db, "late", "oidc", later)).toBeNull();
    const swept = await sweepSsoRecords(database.db, later);
    expect(swept.requests).toBeGreaterThanOrEqual(1);
    const left = await database.db
      .selectFrom("sso_requests")
      .select("key")
      .where("key", "=", "swept")
      .execute();
    expect(left).toEqual([]);
  });
});

describe("markReplay", () => {
  it("accepts a key once and refuses it after, until it expires", async () => {
    const now = new Date("2030-02-01T00:00:00Z");
    const expires = new Date(now.getTime() + 60_000);
    expect(await markReplay(database.db, "saml:_id-1", expires, now)).toBe(true);
    expect(await markReplay(database.db, "saml:_id-1", expires, now)).toBe(false);
    expect(await markReplay(database.db, "saml:_id-2", expires, now)).toBe(true);
    const afterExpiry = new Date(expires.getTime() + 1);
    expect(
      await markReplay(
        database.db,
        "saml:_id-1",
        new Date(afterExpiry.getTime() + 60_000),
        afterExpiry,
      ),
    ).toBe(true);
  });

  it("refuses a replay inside a transaction without spoiling the transaction (PostgreSQL)", async () => {
    const expires = new Date(Date.now() + 60_000);
    await markReplay(database.db, "oidc:in-trx", expires);
    const seen = await database.db.transaction().execute(async (trx) => {
      const first = await markReplay(trx, "oidc:in-trx", expires);
      // A statement after the refused insert still runs.
      const rows = await trx
        .selectFrom("sso_replays")
        .select("key")
        .where("key", "=", "oidc:in-trx")
        .execute();
      return { first, rows: rows.length };
    });
    expect(seen).toEqual({ first: false, rows: 1 });
  });
});
