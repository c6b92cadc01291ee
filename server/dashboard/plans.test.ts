import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../db/schema.js";
import { makeSubmission } from "../../testing/factories.js";
import { createTestDatabase, testPool, type TestDatabase } from "../../testing/test-app.js";
import { countWaitingReports, findOverdueExaminations } from "./repository.js";

/**
 * The overdue examinations' page must come from migration 011's partial index on the open
 * examinations by (due_on, id): its first rows, not every overdue row sorted (seconds at a
 * million). A partial index serves only a query whose condition the database can match to the
 * index's own, so a rewording of either would silently fall back to the sort; the plan shows it
 * whatever the machine's load. Likewise the totals of the typed overdue reports must count only
 * the recent waits, a range of examiner_waits' (role, linked, since) index, not the overdue
 * backlog (about 85,000 entries per role at 1M) nor the whole table.
 */

let database: TestDatabase;
/** A second handle on the same database whose log keeps the SQL the repository sends. */
let logged: Kysely<Database>;
const sent: CompiledQuery[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const log = (event: LogEvent) => {
    if (event.level === "query") sent.push(event.query);
  };
  logged =
    database.kind === "postgres"
      ? new Kysely<Database>({
          dialect: new PostgresDialect({ pool: testPool(database.url) }),
          log,
        })
      : new Kysely<Database>({
          dialect: new SqliteDialect({
            database: new SQLite(database.url.slice("sqlite:".length)),
          }),
          log,
        });
});
afterAll(async () => {
  await logged.destroy();
  await database.drop();
});

it("reads the overdue examinations' page from the open examinations' index, in its order", async () => {
  const { db } = database;
  const at = "2025-07-01T09:00:00.000Z";
  const examiner = await db
    .insertInto("examiners")
    .values({
      name: "Dr. Plan",
      email: "plan@uni.test",
      institution: "KNUST",
      kind: "internal",
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const states = ["nominated", "sent", "received", "report_submitted", "replaced"] as const;
  const rows = [];
  for (let i = 0; i < 200; i += 1) {
    const submission = await makeSubmission(db, { sgsStage: "sent_to_examiners" });
    const state = states[i % states.length] ?? "sent";
    rows.push({
      submission_id: submission.id,
      examiner_id: examiner.id,
      role: "internal" as const,
      state,
      nominated_by: null,
      nominated_at: at,
      due_on: state === "nominated" ? null : `2025-0${1 + (i % 9)}-${String(10 + (i % 18))}`,
      created_at: at,
      updated_at: at,
    });
  }
  await db.insertInto("examinations").values(rows).execute();
  await sql`analyze`.execute(db);

  const found = await findOverdueExaminations(logged, "2025-09-15", 10);
  // Open (sent or received) and due before the day: two states in five, due in January to August.
  expect(found.total).toBe(
    rows.filter(
      (r) => (r.state === "sent" || r.state === "received") && (r.due_on ?? "") < "2025-09-15",
    ).length,
  );
  expect(found.items.map((item) => item.dueOn)).toEqual(
    [...found.items.map((item) => item.dueOn)].sort(),
  );
  const page = sent.find((query) => /\blimit\b/i.test(query.sql));
  expect(page).toBeDefined();
  const text = page?.sql ?? "";
  const parameters = [...(page?.parameters ?? [])];

  if (database.kind === "postgres") {
    // With the table this small a scan of it is cheapest; forbidding scans shows whether the
    // partial index can serve the query at all (it cannot when the conditions do not match).
    const plan = await logged.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      return trx.executeQuery<{ "QUERY PLAN": string }>(
        CompiledQuery.raw(`explain ${text}`, parameters),
      );
    });
    const lines = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(lines).toMatch(/Index Scan using examinations_open_due on examinations/);
  } else {
    const plan = await logged.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, parameters),
    );
    const lines = plan.rows.map((row) => row.detail);
    expect(lines).toContain("SEARCH e USING INDEX examinations_open_due (due_on<?)");
    // Read in the index's order: the page is sorted by nothing but the index.
    expect(lines.join("\n")).not.toMatch(/TEMP B-TREE/);
  }
});

it("counts only the recent waits for the typed overdue totals, on a range of the waits' index", async () => {
  const { db } = database;
  for (let i = 0; i < 60; i += 1) {
    await makeSubmission(
      db,
      {
        internalExaminer: i % 3 === 0 ? "received" : "awaiting",
        externalExaminer: i % 2 === 0 ? "awaiting" : null,
      },
      `2025-0${1 + (i % 9)}-15T09:00:00.000Z`,
    );
  }
  await sql`analyze`.execute(db);
  sent.length = 0;
  const before = "2025-06-01T00:00:00.000Z";
  const total = await countWaitingReports(logged, "internal", before);
  const { n } = await db
    .selectFrom("examiner_waits")
    .where("role", "=", "internal")
    .where("linked", "=", 0)
    .where("since", "<", before)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  expect(total).toBe(Number(n));
  expect(total).toBeGreaterThan(0);
  const query = sent.find((q) => q.sql.includes("examiner_wait_totals"));
  expect(query).toBeDefined();
  const text = query?.sql ?? "";
  const parameters = [...(query?.parameters ?? [])];

  if (database.kind === "postgres") {
    // As above: with tables this small a scan is cheapest, so scans are forbidden to show the
    // index can serve the range.
    const plan = await logged.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      return trx.executeQuery<{ "QUERY PLAN": string }>(
        CompiledQuery.raw(`explain ${text}`, parameters),
      );
    });
    const lines = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(lines).toMatch(/Index Only Scan using examiner_waits_since on examiner_waits/);
    // The range is bounded below by the limit: only the recent waits are read.
    expect(lines).toMatch(/Index Cond: \(\(role = .+\) AND \(linked = .+\) AND \(since >= .+\)\)/);
    expect(lines).toMatch(/Index Scan using examiner_wait_totals_role on examiner_wait_totals/);
  } else {
    const plan = await logged.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, parameters),
    );
    const lines = plan.rows.map((row) => row.detail);
    expect(lines).toContain(
      "SEARCH examiner_waits USING COVERING INDEX examiner_waits_since (role=? AND linked=? AND since>?)",
    );
    expect(lines.join("\n")).not.toMatch(/SCAN examiner_waits/);
    expect(lines.join("\n")).toMatch(
      /SEARCH examiner_wait_totals USING INDEX sqlite_autoindex_examiner_wait_totals_1 \(role=\?\)/,
    );
  }
});
