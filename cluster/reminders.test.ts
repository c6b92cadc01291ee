import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { emptyDocuments } from "../common/submission.js";
import { nowIso, type Executor } from "../server/db/database.js";
import {
  sendDueReminders,
  type ReminderContext,
  type ReminderRunReport,
} from "../server/examiners/reminder-service.js";
import { EXAMINER_REMINDERS_JOB } from "../server/examiners/reminders.js";
import { insertSubmission } from "../server/submissions/repository.js";
import { startSmtpPeer, type SmtpPeer } from "../testing/smtp-peer.js";
import { startCluster, type AppServer, type Cluster } from "./cluster.js";
import { testPostgresUrl } from "./postgres.js";
import { sleep } from "./traffic.js";

/**
 * The examiner reminders with two app servers on one PostgreSQL database, each running the
 * scheduler every second (ETS_REMINDER_INTERVAL_SECONDS=1) and its mail worker, against a real
 * SMTP server: every reminder due today reaches the examiner exactly once and leaves one
 * examiner_reminders row per examination and offset, while the servers run for many scheduler
 * periods, while this process runs the same job alongside them without the lease (as a server
 * whose lease had expired mid-run would), and after the server holding the lease stops and the
 * other takes over. Reminder days are the default, -7,0,7,14.
 */

const DAY_MS = 24 * 3600 * 1000;
/** Longer than several scheduler periods (1 s) and the mail workers' poll (2 s). */
const SETTLE_MS = 5_000;

let peer: SmtpPeer;
let cluster: Cluster;
let seeded = 0;

/** YYYY-MM-DD, `days` from today (UTC). */
const dayFromToday = (days: number) => nowIso(new Date(Date.now() + days * DAY_MS)).slice(0, 10);

interface Seed {
  /** Days from today to the due date. */
  dueInDays: number;
  state?: "sent" | "received" | "report_submitted";
  revoked?: boolean;
}

/**
 * A submission and its examination as "Send to examiners" leaves it: the link (its token's hash
 * only) mailed 40 days ago, working for 120 days. Gives back the examiner's address.
 */
async function seedExamination(db: Executor, seed: Seed): Promise<string> {
  seeded += 1;
  const at = nowIso();
  const invitedAt = nowIso(new Date(Date.now() - 40 * DAY_MS));
  const submission = await insertSubmission(
    db,
    {
      studentName: `Cluster Student ${seeded}`,
      indexNumber: `77${String(seeded).padStart(6, "0")}`,
      programme: "MPhil Economics",
      contact: null,
      studentEmail: null,
      documents: emptyDocuments(),
      sgsStage: "sent_to_examiners",
      internalExaminer: "awaiting",
      externalExaminer: null,
      thesisStatus: null,
      effectiveDate: null,
    },
    at,
  );
  const email = `cluster-examiner-${seeded}@uni.test`;
  const examiner = await db
    .insertInto("examiners")
    .values({
      name: `Prof. Cluster ${seeded}`,
      email,
      institution: "University of Cape Coast",
      kind: "internal",
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("examinations")
    .values({
      submission_id: submission.id,
      examiner_id: examiner.id,
      role: "internal",
      state: seed.state ?? "sent",
      nominated_by: null,
      nominated_at: invitedAt,
      link_created_at: invitedAt,
      link_expires_at: nowIso(new Date(Date.now() + 80 * DAY_MS)),
      link_revoked_at: seed.revoked ? at : null,
      sent_at: invitedAt,
      due_on: dayFromToday(seed.dueInDays),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return email;
}

/** The reminder offsets recorded for the examiner's examination, ascending. */
async function offsetsFor(email: string): Promise<(number | null)[]> {
  const rows = await cluster.db
    .selectFrom("examiner_reminders as r")
    .innerJoin("examinations as e", "e.id", "r.examination_id")
    .innerJoin("examiners as x", "x.id", "e.examiner_id")
    .select("r.offset_days")
    .where("x.email", "=", email)
    .orderBy("r.offset_days")
    .execute();
  return rows.map((r) => r.offset_days);
}

const remindersReceivedBy = (email: string) =>
  peer.messages.filter((m) => m.to.includes(email) && m.subject.startsWith("Reminder: "));

async function waitForReminders(emails: string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (emails.every((email) => remindersReceivedBy(email).length > 0)) return;
    await sleep(200);
  }
}

/** The app server whose process holds the scheduler's lease, from job_leases' host:pid:random. */
async function leaseHolder(): Promise<AppServer | null> {
  const lease = await cluster.db
    .selectFrom("job_leases")
    .select("holder")
    .where("name", "=", EXAMINER_REMINDERS_JOB)
    .executeTakeFirst();
  const pid = Number(lease?.holder.split(":")[1]);
  return cluster.servers.find((s) => s.child.pid === pid) ?? null;
}

// The first examinations, in the database before either server starts.
const first: Record<string, string> = {};

beforeAll(async () => {
  peer = await startSmtpPeer();
  cluster = await startCluster({
    servers: 2,
    postgresUrl: testPostgresUrl(),
    smtpUrl: peer.url,
    env: { ETS_REMINDER_INTERVAL_SECONDS: "1" },
    prepare: async (db) => {
      first.weekAhead = await seedExamination(db, { dueInDays: 7 });
      first.dueToday = await seedExamination(db, { dueInDays: 0, state: "received" });
      first.weekLate = await seedExamination(db, { dueInDays: -7 });
      // Three weeks late and never reminded (the servers were down): only the last reminder goes.
      first.longLate = await seedExamination(db, { dueInDays: -21 });
      first.reportIn = await seedExamination(db, { dueInDays: -7, state: "report_submitted" });
      first.notYet = await seedExamination(db, { dueInDays: 10 });
      first.revoked = await seedExamination(db, { dueInDays: 0, revoked: true });
    },
  });
});
afterAll(async () => {
  await cluster?.stop();
  await peer?.stop();
});

describe("examiner reminders with two servers on one database", () => {
  it("sends each reminder due today exactly once while both servers run the scheduler every second", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const due = [first.weekAhead!, first.dueToday!, first.weekLate!, first.longLate!];
    await waitForReminders(due);
    await sleep(SETTLE_MS);

    for (const email of due) expect(remindersReceivedBy(email), email).toHaveLength(1);
    for (const email of [first.reportIn!, first.notYet!, first.revoked!]) {
      expect(remindersReceivedBy(email), email).toHaveLength(0);
      expect(await offsetsFor(email)).toEqual([]);
    }
    expect(await offsetsFor(first.weekAhead!)).toEqual([-7]);
    expect(await offsetsFor(first.dueToday!)).toEqual([0]);
    expect(await offsetsFor(first.weekLate!)).toEqual([7]);
    expect(await offsetsFor(first.longLate!)).toEqual([14]);
    expect(remindersReceivedBy(first.weekAhead!)[0]!.text).toContain(
      `is due on ${dayFromToday(7)}, in 7 days.`,
    );
    // One server held the lease all along.
    expect(await leaseHolder()).not.toBeNull();
  });

  it("sends each once when a third runner without the lease races the servers", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const ctx: ReminderContext = {
      db: cluster.db,
      config: {
        contactEmail: null,
        publicUrl: "http://127.0.0.1",
        examiners: {
          linkDays: 120,
          reportDueDays: 42,
          reminderDays: [-7, 0, 7, 14],
          reminderIntervalMs: 1000,
        },
      },
    };
    // Written two at a time while the servers run, every half second: whichever comes first, a
    // server's scheduler period (every second) or this process's two runs at once, sends them.
    const fresh: string[] = [];
    const runs: Promise<ReminderRunReport>[] = [];
    for (let round = 0; round < 4; round++) {
      for (const dueInDays of round % 2 === 0 ? [7, 0] : [-7, -14]) {
        fresh.push(await seedExamination(cluster.db, { dueInDays }));
      }
      await sleep(round * 150);
      runs.push(sendDueReminders(ctx), sendDueReminders(ctx));
      await sleep(500 - round * 150);
    }
    const reports = await Promise.all(runs);
    expect(reports.every((r) => r.failed === 0)).toBe(true);
    const byThisProcess = reports.reduce((sum, r) => sum + r.sent, 0);
    await waitForReminders(fresh);
    await sleep(SETTLE_MS);

    for (const email of fresh) {
      expect(remindersReceivedBy(email), email).toHaveLength(1);
      expect((await offsetsFor(email)).length, email).toBe(1);
    }
    console.log(
      `reminders raced by two servers and this process: ${fresh.length} due, ${byThisProcess} sent from here, each received once`,
    );
    // Nothing new for the first examinations either.
    for (const email of [first.weekAhead!, first.dueToday!, first.weekLate!, first.longLate!]) {
      expect(remindersReceivedBy(email), email).toHaveLength(1);
    }
  });

  it("goes on from the other server once the one holding the lease stops, still once each", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    const holder = await leaseHolder();
    expect(holder).not.toBeNull();
    // SIGTERM: the server finishes its run and gives the lease up; the other takes it next tick.
    await cluster.kill(holder!, "SIGTERM");
    const other = cluster.servers.find((s) => s !== holder)!;
    const late = await seedExamination(cluster.db, { dueInDays: 0 });
    await waitForReminders([late]);
    await sleep(SETTLE_MS);

    expect(remindersReceivedBy(late)).toHaveLength(1);
    expect(await offsetsFor(late)).toEqual([0]);
    expect(await leaseHolder()).toBe(other);
    const rows = await cluster.db
      .selectFrom("examiner_reminders")
      .select([(eb) => eb.fn.countAll<number>().as("count")])
      .executeTakeFirstOrThrow();
    // 4 first, 8 fresh, 1 late: one row each, and one mail each at the SMTP server.
    expect(Number(rows.count)).toBe(13);
    expect(peer.messages.filter((m) => m.subject.startsWith("Reminder: "))).toHaveLength(13);
  });
});
