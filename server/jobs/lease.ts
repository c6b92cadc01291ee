import { randomBytes } from "node:crypto";
import os from "node:os";
import { nowIso, type Db } from "../db/database.js";

/**
 * A named lease in the shared database (job_leases): whoever holds it may run the job of that
 * name, so a periodic job runs on one server at a time however many share the database. A lease
 * that is not renewed expires, and then any server may take it: that is how another server takes
 * over when the holder dies. Times are the servers' clocks, so their skew must stay well below a
 * lease's lifetime (docs/decisions/008-several-servers.md).
 */

/**
 * This process's name as a lease holder: the host and process id for the operator reading
 * job_leases, and random bytes so a restarted process (which may reuse a pid) is a new holder.
 */
export const PROCESS_HOLDER = `${os.hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;

/**
 * Takes the lease `name` for `holder` until now + ttlMs when it is free, expired or already the
 * holder's (which renews it). One statement, atomic on both engines: the insert claims a free
 * lease, and on conflict the update only happens while the row is expired or already ours. A row
 * comes back only when the insert or the update happened, that is when the lease is ours.
 */
export async function acquireLease(
  db: Db,
  name: string,
  holder: string,
  ttlMs: number,
  now: Date = new Date(),
): Promise<boolean> {
  const taken = await db
    .insertInto("job_leases")
    .values({ name, holder, expires_at: nowIso(new Date(now.getTime() + ttlMs)) })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet((eb) => ({
          holder: eb.ref("excluded.holder"),
          expires_at: eb.ref("excluded.expires_at"),
        }))
        .where((eb) =>
          eb.or([
            eb("job_leases.expires_at", "<=", nowIso(now)),
            eb("job_leases.holder", "=", holder),
          ]),
        ),
    )
    .returning("holder")
    .executeTakeFirst();
  return taken?.holder === holder;
}

/** Gives the lease up at once, if `holder` holds it, so another server need not wait for it to expire. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom("job_leases").where("name", "=", name).where("holder", "=", holder).execute();
}
