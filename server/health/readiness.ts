import { DEFAULT_MIGRATION_TABLE, sql } from "kysely";
import type { Db } from "../db/database.js";
import { migrationProvider } from "../db/migrations/index.js";

/**
 * Whether this server can serve traffic, for a load balancer's readiness check
 * (docs/decisions/008-several-servers.md): its database answers, and every migration this server
 * knows is applied there. Liveness (GET /api/health) is a separate, simpler question.
 */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** A database slower than this is as good as away for a readiness check. */
export const READINESS_ANSWER_MS = 2000;
/** Once every migration was seen applied, the list is read again only after this long. */
export const MIGRATIONS_RECHECK_MS = 10_000;

export interface ReadinessCheckOptions {
  /** Milliseconds now; tests move it past the cache. */
  clock?: () => number;
}

/**
 * A readiness check for one app. Cheap enough to be polled every second or two: one `select 1`
 * while the migrations are known to be applied, one read of the migrator's table otherwise; and
 * one check at a time, which concurrent callers share, so a hung database never piles up queries.
 */
export function createReadinessCheck(
  db: Db,
  options: ReadinessCheckOptions = {},
): () => Promise<Readiness> {
  const clock = options.clock ?? Date.now;
  let migrationsAppliedAt: number | null = null;
  let inFlight: Promise<Readiness> | null = null;

  const check = async (): Promise<Readiness> => {
    const now = clock();
    if (migrationsAppliedAt !== null && now - migrationsAppliedAt < MIGRATIONS_RECHECK_MS) {
      const answer = await probe(db);
      return answer === "ok" ? { ready: true } : answer;
    }
    migrationsAppliedAt = null;
    let applied: Set<string>;
    try {
      applied = await appliedMigrations(db);
    } catch (error) {
      if (error instanceof NoAnswer) return SLOW;
      // No migration table yet, or no database: `select 1` tells which.
      const answer = await probe(db);
      return answer === "ok"
        ? { ready: false, reason: "The database has no migrations applied yet." }
        : answer;
    }
    const known = Object.keys(await migrationProvider.getMigrations()).sort();
    const pending = known.filter((name) => !applied.has(name));
    if (pending.length > 0) {
      return {
        ready: false,
        reason: `The database is waiting for migrations: ${pending.join(", ")}.`,
      };
    }
    migrationsAppliedAt = now;
    return { ready: true };
  };

  return () => {
    inFlight ??= check().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

const UNREACHABLE: Readiness = { ready: false, reason: "The database cannot be reached." };
const SLOW: Readiness = {
  ready: false,
  reason: `The database did not answer within ${READINESS_ANSWER_MS / 1000} seconds.`,
};

class NoAnswer extends Error {}

async function probe(db: Db): Promise<"ok" | Readiness> {
  try {
    await withinDeadline(sql`select 1`.execute(db));
    return "ok";
  } catch (error) {
    return error instanceof NoAnswer ? SLOW : UNREACHABLE;
  }
}

async function appliedMigrations(db: Db): Promise<Set<string>> {
  const { rows } = await withinDeadline(
    sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db),
  );
  return new Set(rows.map((row) => row.name));
}

/** The query's answer, or NoAnswer after READINESS_ANSWER_MS (the query itself runs on). */
async function withinDeadline<T>(query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer()), READINESS_ANSWER_MS);
  });
  try {
    return await Promise.race([query, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
