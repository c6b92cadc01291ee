import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Selectable } from "kysely";
import { DEPOSIT_PAGE_SIZE, type DepositState, type DepositView } from "../../common/deposits.js";
import type { SwordConfig } from "../config.js";
import { nowIso, type Db, type Executor } from "../db/database.js";
import type { DepositsTable } from "../db/schema.js";
import { AppError, conflict, notFound } from "../errors.js";
import type { FileStorage } from "../files/storage.js";
import { PROCESS_HOLDER } from "../jobs/lease.js";
import { runPeriodically } from "../jobs/periodic.js";
import { findSubmissionByIndexNumber } from "../submissions/repository.js";
import type { FormatLinks } from "./formats/links.js";
import { buildPackage, removePackage } from "./deposit-package.js";
import { SwordClient } from "./deposit-sword.js";
import { readPublishedRecord, setPublicationHandle } from "./repository.js";

/**
 * The SWORD deposit queue (docs/decisions/026-library-exports-and-deposit.md).
 *
 * An administrator's request queues a row; the worker claims due rows one at a time (a
 * conditional UPDATE that only one server's statement can win, with an expiry so a dead server's
 * claim passes on) and deposits in two steps: the package goes to the collection In-Progress
 * (the repository keeps it as an unfinished item), its Edit-IRI is stored, then the item is
 * completed (In-Progress: false). A retry with an Edit-IRI on the row only completes that item,
 * which is idempotent; a package whose answer was lost leaves an unfinished item the repository
 * never publishes. So an item is published at most once, and a deposit acknowledged is never sent
 * again. Each write after a request checks the claim is still this worker's.
 */

export const DEPOSIT_MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 60 * 1000;
const RETRY_CAP_MS = 6 * 3600 * 1000;
/** Longer than a package upload may take (deposit-sword.ts's time-out) and its completion. */
const CLAIM_MS = 15 * 60 * 1000;
const BATCH_SIZE = 10;

/** Wait before attempt n+1 after n failed attempts: 1, 2, 4 ... minutes, at most 6 hours. */
export function depositRetryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), RETRY_CAP_MS);
}

type DepositRow = Selectable<DepositsTable>;

export async function submissionIdOf(db: Executor, indexNumber: string): Promise<number> {
  const submission = await findSubmissionByIndexNumber(db, indexNumber);
  if (!submission) throw notFound("There is no submission with this index number.");
  return submission.id;
}

/** The slug the repository is given: the same on every attempt, naming the thesis. */
export function depositSlug(submissionId: number): string {
  return `ets-thesis-${submissionId}`;
}

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * Queues the deposit of a published thesis. A deposit queued, under way or done stays as it is
 * (asking twice deposits once); a failed one is queued again with its attempts reset.
 */
export async function requestDeposit(
  db: Db,
  submissionId: number,
  requestedBy: number | null,
  now: Date = new Date(),
): Promise<void> {
  const record = await readPublishedRecord(db, submissionId, nowIso(now));
  if (!record) {
    throw conflict("This thesis is not published yet: only a published thesis can be deposited.");
  }
  if (record.withdrawn) {
    throw conflict("This thesis was withdrawn: it cannot be deposited.");
  }
  const at = nowIso(now);
  await db
    .insertInto("deposits")
    .values({
      submission_id: submissionId,
      state: "queued",
      attempts: 0,
      next_attempt_at: at,
      slug: depositSlug(submissionId),
      requested_by: requestedBy,
      requested_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc
        .column("submission_id")
        .doUpdateSet({
          state: "queued",
          attempts: 0,
          next_attempt_at: at,
          last_error: null,
          requested_by: requestedBy,
          requested_at: at,
          updated_at: at,
        })
        .where("deposits.state", "=", "failed"),
    )
    .execute();
}

export async function findDeposit(db: Executor, submissionId: number): Promise<DepositView | null> {
  const row = await depositRows(db).where("d.submission_id", "=", submissionId).executeTakeFirst();
  return row ? presentDeposit(row) : null;
}

/** Deposits newest first by id, a page at a time (keyset on id), optionally in one state. */
export async function listDeposits(
  db: Executor,
  options: { state?: DepositState; after?: number },
): Promise<{ rows: (DepositView & { id: number })[]; next: number | null }> {
  let query = depositRows(db);
  if (options.state) query = query.where("d.state", "=", options.state);
  if (options.after) query = query.where("d.id", "<", options.after);
  const rows = await query
    .orderBy("d.id", "desc")
    .limit(DEPOSIT_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, DEPOSIT_PAGE_SIZE);
  return {
    rows: page.map((row) => ({ id: Number(row.id), ...presentDeposit(row) })),
    next: rows.length > DEPOSIT_PAGE_SIZE ? Number(page.at(-1)!.id) : null,
  };
}

function depositRows(db: Executor) {
  return db
    .selectFrom("deposits as d")
    .innerJoin("submissions as s", "s.id", "d.submission_id")
    .select([
      "d.id",
      "d.state",
      "d.attempts",
      "d.next_attempt_at",
      "d.last_error",
      "d.handle",
      "d.requested_at",
      "d.deposited_at",
      "s.index_number",
      "s.student_name",
    ]);
}

function presentDeposit(row: {
  state: DepositState;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  handle: string | null;
  requested_at: string;
  deposited_at: string | null;
  index_number: string;
  student_name: string;
}): DepositView {
  return {
    indexNumber: row.index_number,
    studentName: row.student_name,
    state: row.state,
    attempts: Number(row.attempts),
    nextAttemptAt: row.state === "queued" ? row.next_attempt_at : null,
    lastError: row.last_error,
    handle: row.handle,
    requestedAt: row.requested_at,
    depositedAt: row.deposited_at,
  };
}

// ---------------------------------------------------------------------------------------------
// The worker

export interface DepositDeps {
  db: Db;
  storage: FileStorage;
  links: FormatLinks;
  sword: SwordConfig;
  log: FastifyBaseLogger;
  /** Who this worker is in claimed_by; one per process unless a test gives its own. */
  holder?: string;
}

export interface DepositReport {
  deposited: number;
  retried: number;
  failed: number;
}

/** One pass over the due deposits (the periodic job runs it; tests call it with their clock). */
export async function processDueDeposits(
  deps: DepositDeps,
  now: Date = new Date(),
): Promise<DepositReport> {
  const report: DepositReport = { deposited: 0, retried: 0, failed: 0 };
  const holder = deps.holder ?? PROCESS_HOLDER;
  const client = new SwordClient(deps.sword);
  let collection: string | null = null;
  for (let done = 0; done < BATCH_SIZE; done += 1) {
    const row = await claimNextDeposit(deps.db, holder, now);
    if (!row) break;
    try {
      collection ??= row.edit_iri ? null : await client.collection();
      const handle = await deposit(deps, client, row, holder, collection);
      if (handle !== null) report.deposited += 1;
    } catch (error) {
      const message = describe(error);
      const attempts = Number(row.attempts) + 1;
      const giveUp = attempts >= DEPOSIT_MAX_ATTEMPTS || error instanceof PermanentDepositError;
      await deps.db
        .updateTable("deposits")
        .set({
          state: giveUp ? "failed" : "queued",
          attempts,
          last_error: message,
          next_attempt_at: nowIso(new Date(now.getTime() + depositRetryDelayMs(attempts))),
          claimed_by: null,
          claim_expires_at: null,
          updated_at: nowIso(),
        })
        .where("id", "=", row.id)
        .where("claimed_by", "=", holder)
        .execute();
      if (giveUp) report.failed += 1;
      else report.retried += 1;
      deps.log.warn(
        { submissionId: row.submission_id, attempts, giveUp, error: message },
        giveUp ? "deposit failed for good" : "deposit failed; will retry",
      );
    }
  }
  return report;
}

/** Thrown for what no retry can mend (the thesis is no longer published). */
class PermanentDepositError extends Error {}

/** The claim was lost to another worker (ours expired): stop without writing anything. */
class ClaimLostError extends Error {}

/**
 * Claims the next due row: queued and due, or depositing with an expired claim (its worker died).
 * The conditional UPDATE repeats the conditions, so of two workers that picked the same row only
 * one statement changes it; the other moves on to the next candidate.
 */
export async function claimNextDeposit(
  db: Db,
  holder: string,
  now: Date,
): Promise<DepositRow | null> {
  const at = nowIso(now);
  const candidates = await db
    .selectFrom("deposits")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "queued"), eb("next_attempt_at", "<=", at)]),
        eb.and([eb("state", "=", "depositing"), eb("claim_expires_at", "<=", at)]),
      ]),
    )
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(BATCH_SIZE)
    .execute();
  for (const candidate of candidates) {
    const claimed = await db
      .updateTable("deposits")
      .set({
        state: "depositing",
        claimed_by: holder,
        claim_expires_at: nowIso(new Date(now.getTime() + CLAIM_MS)),
        updated_at: at,
      })
      .where("id", "=", candidate.id)
      .where((eb) =>
        eb.or([
          eb.and([eb("state", "=", "queued"), eb("next_attempt_at", "<=", at)]),
          eb.and([eb("state", "=", "depositing"), eb("claim_expires_at", "<=", at)]),
        ]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) {
      return (
        (await db
          .selectFrom("deposits")
          .selectAll()
          .where("id", "=", candidate.id)
          .executeTakeFirst()) ?? null
      );
    }
  }
  return null;
}

/** Deposits one claimed row; gives back the handle kept, or null when the claim was lost. */
async function deposit(
  deps: DepositDeps,
  client: SwordClient,
  row: DepositRow,
  holder: string,
  collection: string | null,
): Promise<string | null> {
  const { db } = deps;
  const submissionId = Number(row.submission_id);
  let seIri = row.edit_iri;
  let alternate: string | null = null;
  try {
    // Read on every attempt, also before only completing: a thesis withdrawn meanwhile is not
    // completed (its unfinished item stays unpublished in the repository).
    const record = await readPublishedRecord(db, submissionId, nowIso());
    if (!record || record.withdrawn) {
      throw new PermanentDepositError(
        "the thesis is no longer published (withdrawn, or its publication was undone)",
      );
    }
    if (!seIri) {
      if (!collection) throw new Error("no collection to deposit to");
      const pkg = await buildPackage(deps, record);
      let receipt;
      try {
        receipt = await client.deposit(collection, pkg, {
          slug: row.slug,
          inProgress: true,
        });
      } finally {
        removePackage(pkg.path);
      }
      // Kept at once: from here a retry only completes this item, never sends the package again.
      const kept = await db
        .updateTable("deposits")
        .set({ edit_iri: receipt.seIri, updated_at: nowIso() })
        .where("id", "=", row.id)
        .where("claimed_by", "=", holder)
        .executeTakeFirst();
      if (Number(kept.numUpdatedRows) !== 1) throw new ClaimLostError();
      seIri = receipt.seIri;
      alternate = receipt.alternate;
    }
    const completed = await client.complete(seIri);
    // The item's public address: the receipt's alternate link (a handle URL in DSpace); an item
    // still in the repository's review may have none yet, and then its Edit-IRI stands in.
    const handle = completed.alternate ?? alternate ?? completed.editIri;
    const at = nowIso();
    const finished = await db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable("deposits")
        .set({
          state: "deposited",
          handle,
          deposited_at: at,
          last_error: null,
          claimed_by: null,
          claim_expires_at: null,
          updated_at: at,
        })
        .where("id", "=", row.id)
        .where("claimed_by", "=", holder)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return false;
      await setPublicationHandle(trx, submissionId, handle, at);
      return true;
    });
    if (!finished) throw new ClaimLostError();
    deps.log.info({ submissionId, handle }, "thesis deposited");
    return handle;
  } catch (error) {
    if (error instanceof ClaimLostError) {
      deps.log.warn({ submissionId }, "deposit claim passed to another worker; stopped");
      return null;
    }
    throw error;
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

// ---------------------------------------------------------------------------------------------
// The periodic job

/**
 * Works the deposit queue every ETS_DEPOSIT_INTERVAL_SECONDS (30 s) while the app is up, when a repository is configured
 * (REPOSITORY_SWORD_URL) and config.depositWorker is on, on one server at a time (the job's
 * lease); each row's claim keeps it once even if two ever ran together.
 */
export const depositWorker = fp(
  async (app: FastifyInstance) => {
    const sword = app.config.repositorySword;
    if (!sword || !app.config.depositWorker) return;
    runPeriodically(app, {
      name: "sword-deposits",
      everyMs: app.config.depositIntervalMs,
      ttlMs: 2 * CLAIM_MS,
      job: async (now) => {
        await processDueDeposits(
          { db: app.db, storage: app.storage, links: app.config, sword, log: app.log },
          now,
        );
      },
    });
  },
  { name: "ets-deposit-worker" },
);

/** The configured repository, or a 409 naming the setting. */
export function requireRepository(config: { repositorySword: SwordConfig | null }): SwordConfig {
  if (!config.repositorySword) {
    throw new AppError(
      "conflict",
      "No repository is configured: set REPOSITORY_SWORD_URL to the repository's SWORD v2 service document.",
    );
  }
  return config.repositorySword;
}
