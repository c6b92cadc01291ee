import { describe, expect, it } from "vitest";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { createDatabase, migrateToLatest } from "../db/database.js";
import { migrationProvider } from "../db/migrations/index.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../../testing/test-app.js";
import { MIGRATIONS_RECHECK_MS, READINESS_ANSWER_MS, createReadinessCheck } from "./readiness.js";

const NO_WEB = path.join(os.tmpdir(), "ets-no-web");

/** The last migration, and the one before it, as this server knows them. */
async function lastTwoMigrations(): Promise<[string, string]> {
  const names = Object.keys(await migrationProvider.getMigrations()).sort();
  const [before, last] = names.slice(-2);
  if (!before || !last) throw new Error("The readiness tests need at least two migrations");
  return [before, last];
}

async function migrateTo(database: TestDatabase, name: string): Promise<void> {
  const { error } = await new Migrator({
    db: database.db,
    provider: migrationProvider,
  }).migrateTo(name);
  if (error) throw error;
}

async function ready(app: FastifyInstance) {
  const res = await app.inject({ method: "GET", url: "/api/health/ready" });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>(), raw: res.body };
}

function withoutStackTrace(raw: string) {
  expect(raw).not.toMatch(/\bat .+\(|\.ts:\d+|Error:|ECONNREFUSED|stack/);
}

describe("GET /api/health/ready", () => {
  it("answers ready when the database answers and has every migration", async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), {
      db: database.db,
      webRoot: NO_WEB,
    });
    try {
      expect(await ready(app)).toMatchObject({ status: 200, body: { status: "ready" } });
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it("answers 503 naming the migration the database is waiting for, and ready once it is applied", async () => {
    const [before, last] = await lastTwoMigrations();
    const database = await createTestDatabase();
    await migrateTo(database, before);
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), {
      db: database.db,
      webRoot: NO_WEB,
    });
    try {
      const waiting = await ready(app);
      expect(waiting.status).toBe(503);
      expect(waiting.body).toEqual({
        status: "unavailable",
        reason: `The database is waiting for migrations: ${last}.`,
      });
      // Liveness is another question: the process and its database answer.
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);

      await migrateToLatest(database.db);
      expect(await ready(app)).toMatchObject({ status: 200, body: { status: "ready" } });
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it("answers 503 with a plain reason when the database has no migrations at all", async () => {
    const database = await createTestDatabase();
    // A database someone created the tables in by hand, or restored without the migrator's table.
    await database.db.schema.dropTable("kysely_migration").execute();
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), {
      db: database.db,
      webRoot: NO_WEB,
    });
    try {
      expect(await ready(app)).toMatchObject({
        status: 503,
        body: { status: "unavailable", reason: "The database has no migrations applied yet." },
      });
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it("answers 503 without a stack trace when PostgreSQL cannot be reached", async () => {
    // Port 1 on loopback: nothing listens, the connection is refused.
    const config = testConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/ets" });
    const db = createDatabase(config.database);
    const app = await buildApp(config, { db, webRoot: NO_WEB });
    try {
      const res = await ready(app);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "unavailable",
        reason: "The database cannot be reached.",
      });
      withoutStackTrace(res.raw);
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it("answers 503 within its deadline when the database accepts connections but never answers", async () => {
    // A host that takes the connection and then says nothing, as a hung or overloaded one does.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const config = testConfig({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/ets` });
    const db = createDatabase(config.database);
    const app = await buildApp(config, { db, webRoot: NO_WEB });
    try {
      const res = await ready(app);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "unavailable",
        reason: `The database did not answer within ${READINESS_ANSWER_MS / 1000} seconds.`,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await app.close();
      await db.destroy();
    }
  });

  it("answers 503 without a stack trace once its PostgreSQL database is dropped", async () => {
    const database = await createTestDatabase();
    if (database.kind !== "postgres") {
      await database.drop();
      return expect(database.kind).toBe("sqlite");
    }
    // The app opens its own pool, as a server does; the test's connection drops the database.
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), { webRoot: NO_WEB });
    try {
      expect((await ready(app)).status).toBe(200);
      await database.drop();
      const res = await ready(app);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "unavailable",
        reason: "The database cannot be reached.",
      });
      withoutStackTrace(res.raw);
    } finally {
      await app.close();
    }
  });
});

describe("the readiness check", () => {
  it("reads the migration list again only some seconds after it found every migration applied", async () => {
    const [before, last] = await lastTwoMigrations();
    const database = await createTestDatabase();
    try {
      let now = 1_000_000;
      const check = createReadinessCheck(database.db, { clock: () => now });
      expect(await check()).toEqual({ ready: true });

      await migrateTo(database, before);
      // Within the cache only the connection is checked.
      now += MIGRATIONS_RECHECK_MS - 1;
      expect(await check()).toEqual({ ready: true });
      now += 1;
      expect(await check()).toEqual({
        ready: false,
        reason: `The database is waiting for migrations: ${last}.`,
      });
      // Not ready is never cached: the next check reads the list again.
      await migrateToLatest(database.db);
      expect(await check()).toEqual({ ready: true });
    } finally {
      await database.drop();
    }
  });
});
