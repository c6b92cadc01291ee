import os from "node:os";
import { sql } from "kysely";
import type { DatabaseConfig } from "../config.js";
import { connectPostgresClient, nowIso, type Db } from "./database.js";

/**
 * Start-up duties (migrations, the first administrator, the sample data) run by one server at a
 * time, however many start together: several servers on one PostgreSQL, or the ETS_WORKERS
 * processes of one machine on one SQLite file. Without it, servers started at once on an empty
 * database each found no administrator and no submissions, and all but one failed on the
 * duplicates (docs/decisions/008-several-servers.md, "Start-up").
 *
 * - PostgreSQL: a session advisory lock, on a connection of its own (a pool would hand the
 *   connection holding it to other queries, and a lock must be released on the connection that
 *   took it). pg_advisory_lock waits in the database; a server that dies lets go with its
 *   connection.
 * - SQLite: a lock row in `start_up_lock`, taken in an immediate transaction. The table is made
 *   here, not by a migration, because the migrations run under the lock. A server waits while
 *   the row is another live process's: on this machine (SQLite's WAL needs one machine) by its
 *   process id, elsewhere, or should a process id be reused, until the row's time runs out. The
 *   holder renews it while its duties run.
 */
export async function withStartupLock<T>(
  database: DatabaseConfig,
  db: Db,
  duties: () => Promise<T>,
  options: StartupLockOptions = {},
): Promise<T> {
  if (database.kind === "postgres") return withAdvisoryLock(database.url, duties, options);
  return withLockRow(db, duties, options);
}

export interface StartupLockOptions {
  /** Called once when the lock is held by another server and this one waits for it. */
  onWait?: () => void;
  /** SQLite: how long to wait between two looks at the lock row (ms). */
  pollMs?: number;
}

/** The advisory lock's key: any fixed number other users of the database do not pick. */
const ADVISORY_KEY = "ets-tracking start-up duties";

async function withAdvisoryLock<T>(
  url: string,
  duties: () => Promise<T>,
  options: StartupLockOptions,
): Promise<T> {
  const client = await connectPostgresClient(url);
  try {
    const { rows } = await client.query<{ taken: boolean }>(
      "select pg_try_advisory_lock(hashtext($1)) as taken",
      [ADVISORY_KEY],
    );
    if (rows[0]?.taken !== true) {
      options.onWait?.();
      await client.query("select pg_advisory_lock(hashtext($1))", [ADVISORY_KEY]);
    }
    // Released with the connection, below: ending the session lets go of its locks.
    return await duties();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** How long the lock row holds without a renewal; renewed every RENEW_MS while the duties run. */
const LOCK_ROW_MS = 10 * 60 * 1000;
const RENEW_MS = 30 * 1000;

interface LockRow {
  holder: string;
  host: string;
  pid: number;
  expires_at: string;
}

async function withLockRow<T>(
  db: Db,
  duties: () => Promise<T>,
  options: StartupLockOptions,
): Promise<T> {
  await sql`create table if not exists start_up_lock (
    id integer primary key check (id = 1),
    holder text not null,
    host text not null,
    pid integer not null,
    expires_at text not null
  )`.execute(db);
  const holder = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  let waited = false;
  while (!(await takeLockRow(db, holder))) {
    if (!waited) options.onWait?.();
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
  const renewal = setInterval(() => {
    void sql`update start_up_lock set expires_at = ${expiry()} where holder = ${holder}`
      .execute(db)
      .catch(() => undefined);
  }, RENEW_MS);
  try {
    return await duties();
  } finally {
    clearInterval(renewal);
    await sql`delete from start_up_lock where holder = ${holder}`.execute(db);
  }
}

const expiry = () => nowIso(new Date(Date.now() + LOCK_ROW_MS));

/** Takes the lock row when it is free, or its holder is gone; false while another holds it. */
async function takeLockRow(db: Db, holder: string): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      const { rows } = await sql<LockRow>`
        select holder, host, pid, expires_at from start_up_lock where id = 1`.execute(trx);
      const current = rows[0];
      if (current && current.expires_at > nowIso() && isAlive(current)) return false;
      await sql`insert into start_up_lock (id, holder, host, pid, expires_at)
        values (1, ${holder}, ${os.hostname()}, ${process.pid}, ${expiry()})
        on conflict (id) do update set holder = excluded.holder, host = excluded.host,
          pid = excluded.pid, expires_at = excluded.expires_at`.execute(trx);
      return true;
    });
  } catch (error) {
    // The holder's duties hold SQLite's write lock longer than busy_timeout: look again later.
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") return false;
    throw error;
  }
}

/** Whether the lock row's process still runs; one on another machine is taken to. */
function isAlive(row: LockRow): boolean {
  if (row.host !== os.hostname()) return true;
  try {
    process.kill(row.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
