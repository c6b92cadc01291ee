// Generated submissions for the benchmarks (scripts/bench.ts, scripts/bench-load.ts): names
// recombined from the sample list's, so a three-letter term such as "ama" hits thousands of rows in
// 100,000, as it would on a real campus. Seeded: every run loads the same rows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { emptyDocuments, type SubmissionFields } from "../common/submission.js";
import {
  DOCUMENTS,
  EXAMINER_STATES,
  SGS_STAGES,
  type ExaminerState,
  type SgsStage,
} from "../common/workflow.js";
import {
  createSubmissionSearchPostingsTriggers,
  dialectOf,
  dropSubmissionSearchPostingsTriggers,
  rebuildSubmissionSearchPostings,
} from "../server/db/dialect.js";
import type { SessionUser } from "../server/auth/session.js";
import { nowIso, type Db } from "../server/db/database.js";
import { loadSampleData, sampleContextForFolder } from "../server/sample-data.js";
import { CSV_BOM, csvLine } from "../server/submissions/csv.js";
import { applyImport, previewImport } from "../server/submissions/import.js";
import { fieldsToColumns } from "../server/submissions/repository.js";
import { EXPORT_COLUMNS, exportRow } from "../server/submissions/spreadsheet.js";
import { generateSampleSubmissions } from "./sample-data-generator.js";

export interface GeneratedSubmission {
  fields: SubmissionFields;
  createdAt: string;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("empty list");
  return item;
}

/**
 * `count` submissions, seeded. Index numbers in `reserved` (the sample data's, when the rows are
 * imported on top of it) are never generated, so every generated row is a new submission.
 */
export function generateSubmissions(
  count: number,
  now: Date,
  reserved: ReadonlySet<string> = new Set(),
): GeneratedSubmission[] {
  const random = mulberry32(0xbe7c4);
  const sample = generateSampleSubmissions();
  const firstNames = [...new Set(sample.map((r) => r.StudentName.split(" ")[0] ?? "Ama"))];
  const surnames = [...new Set(sample.map((r) => r.StudentName.split(" ").at(-1) ?? "Mensah"))];
  const programmes = [...new Set(sample.map((r) => r.Programme))];
  const taken = new Set<string>();
  const spanMs = 3 * 365 * 24 * 3600 * 1000;
  const out: GeneratedSubmission[] = [];
  for (let i = 0; i < count; i += 1) {
    let indexNumber: string;
    do {
      indexNumber =
        String(10 + Math.floor(random() * 11)) +
        String(Math.floor(random() * 1e6)).padStart(6, "0");
    } while (taken.has(indexNumber) || reserved.has(indexNumber));
    taken.add(indexNumber);
    const stage: SgsStage | null = random() < 0.2 ? null : pick(random, SGS_STAGES);
    const examiner = (): ExaminerState | null =>
      stage === "sent_to_examiners" && random() < 0.9 ? pick(random, EXAMINER_STATES) : null;
    const documents = emptyDocuments();
    for (const item of DOCUMENTS) {
      if (stage !== null || random() < 0.6) documents[item] = { submitted: true, receivedOn: null };
    }
    const middle = random() < 0.2 ? ` ${pick(random, firstNames)}` : "";
    out.push({
      fields: {
        studentName: `${pick(random, firstNames)}${middle} ${pick(random, surnames)}`,
        indexNumber,
        programme: pick(random, programmes),
        contact: `024 ${String(Math.floor(random() * 1e7)).padStart(7, "0")}`,
        studentEmail: null,
        documents,
        sgsStage: stage,
        internalExaminer: examiner(),
        externalExaminer: examiner(),
        thesisStatus: null,
        effectiveDate: null,
      },
      createdAt: new Date(now.getTime() - Math.floor(random() * spanMs)).toISOString(),
    });
  }
  return out;
}

/**
 * Loads the rows as a bulk load would: the table's secondary indexes (and, on SQLite, the search
 * index's insert trigger; on both, the term postings' triggers) are dropped, the rows go in with large multi-row statements, then every
 * index is built again from its own definition (read back from the database, so the result is the
 * migrations' indexes, with the same contents the app's insert path would have written), the term
 * postings filled from the table as migration 010 does, and the statistics refreshed. Each submission keeps its own creation time (updated_at = created_at, as
 * the app's insert writes). At 1,000,000 rows this takes about a minute on PostgreSQL where row
 * by row index upkeep took about 30 s per 100,000.
 */
export async function loadSubmissions(
  db: Db,
  rows: GeneratedSubmission[],
  onPhase: (phase: string, seconds: number) => void = () => {},
): Promise<void> {
  const values = rows.map((r) => ({
    ...fieldsToColumns(r.fields),
    created_at: r.createdAt,
    updated_at: r.createdAt,
  }));
  let last = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    onPhase(name, (now - last) / 1000);
    last = now;
  };
  if (dialectOf(db) === "postgres") await loadPostgres(db, values, phase);
  else await loadSqlite(db, values, phase);
}

type Row = ReturnType<typeof fieldsToColumns> & { created_at: string; updated_at: string };

async function loadSqlite(db: Db, values: Row[], phase: (name: string) => void): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master
    where tbl_name = 'submissions' and type = 'index' and sql is not null`.execute(db);
  const { rows: triggers } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master
    where tbl_name = 'submissions' and type = 'trigger' and name = 'submissions_search_insert'`.execute(
    db,
  );
  await db.transaction().execute(async (trx) => {
    for (const object of triggers) await sql`drop trigger ${sql.id(object.name)}`.execute(trx);
    await dropSubmissionSearchPostingsTriggers(trx);
    for (const object of indexes) await sql`drop index ${sql.id(object.name)}`.execute(trx);
    // 1,000 rows of 27 columns stay under SQLite's 32,766 parameters.
    for (let start = 0; start < values.length; start += 1000) {
      await trx
        .insertInto("submissions")
        .values(values.slice(start, start + 1000))
        .execute();
    }
    phase("rows");
    for (const object of indexes) await sql.raw(object.sql).execute(trx);
    phase("indexes");
    // The search index read again from the table: the same contents the trigger would have made.
    await sql`insert into submissions_search(submissions_search) values ('rebuild')`.execute(trx);
    for (const object of triggers) await sql.raw(object.sql).execute(trx);
    phase("search index");
    // The term postings in one ordered insert rather than a trigger per row.
    await rebuildSubmissionSearchPostings(trx);
    await createSubmissionSearchPostingsTriggers(trx);
    phase("search postings");
  });
  // Fresh statistics, as `PRAGMA optimize` keeps them (it samples with this same limit).
  await sql`pragma analysis_limit = 1000`.execute(db);
  await sql`analyze`.execute(db);
  phase("analyze");
  // The write-ahead log folded into the file before measuring, as SQLite's own checkpoints keep it
  // in service.
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
  phase("checkpoint");
}

async function loadPostgres(db: Db, values: Row[], phase: (name: string) => void): Promise<void> {
  // Indexes that back a constraint (the primary key, the unique index number) stay: they cannot be
  // dropped alone, and the unique one checks the data as the app would.
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.tablename = 'submissions' and i.schemaname = current_schema()
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
  const columns = Object.keys(values[0] ?? {});
  const list = sql.join(columns.map((c) => sql.id(c)));
  await db.transaction().execute(async (trx) => {
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
    await dropSubmissionSearchPostingsTriggers(trx);
    // One JSON parameter per 5,000 rows, unpacked by the server: no parameter limit, few round trips.
    for (let start = 0; start < values.length; start += 5000) {
      const batch = JSON.stringify(values.slice(start, start + 5000));
      await sql`insert into submissions (${list})
        select ${list} from json_populate_recordset(null::submissions, ${batch}::json)`.execute(
        trx,
      );
    }
    phase("rows");
    await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
    for (const index of indexes) await sql.raw(index.definition).execute(trx);
    phase("indexes");
    // The term postings filled in one statement, their key built by one sort.
    await rebuildSubmissionSearchPostings(trx);
    await createSubmissionSearchPostingsTriggers(trx);
    phase("search postings");
  });
  // Fresh statistics and a visibility map, as autovacuum would leave them after a bulk load.
  await sql`vacuum analyze submissions`.execute(db);
  await sql`vacuum analyze submission_search_grams`.execute(db);
  phase("vacuum analyze");
  // The load's gigabytes of dirty pages written now, not by the background checkpointer during the
  // first minutes of measuring: a server in service has them on disk long since. At 1M the status
  // read of both the app and the yardstick lost about a fifth to this (docs/benchmarks.md).
  await sql`checkpoint`.execute(db);
  phase("checkpoint");
}

/** Rows per imported file: the most one import takes (SHEET_LIMITS.maxRows). */
export const IMPORT_FILE_ROWS = 50_000;

/** The file's bytes in pieces, as an upload arrives. */
async function* pieces(file: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < file.length; at += 64 * 1024) yield file.subarray(at, at + 64 * 1024);
}

/** A CSV of these submissions with the export's columns, as a registrar's spreadsheet is saved. */
function importCsv(rows: readonly GeneratedSubmission[], at: string): Buffer {
  const lines: string[] = [CSV_BOM + csvLine(EXPORT_COLUMNS)];
  for (const row of rows) {
    const cells = exportRow({
      ...row.fields,
      id: 0,
      version: 1,
      thesisTitle: null,
      thesisAbstract: null,
      createdAt: at,
      updatedAt: at,
    });
    // No idNo: the database numbers new records (the importer ignores the column anyway).
    cells[0] = null;
    lines.push(csvLine(cells));
  }
  return Buffer.from(lines.join(""), "utf8");
}

/**
 * Grows the database as a registrar does: the sample data a new server loads on its first start,
 * then the rows in CSV files of IMPORT_FILE_ROWS, each previewed and then applied through the
 * import's own functions (previewImport, applyImport: what POST /api/admin/import/preview and
 * /apply run), one after the other. Nothing else: no index rebuilt, no statistics refreshed by the
 * benchmark, no vacuum (autovacuum is off on these machines). The rows' index numbers must not be
 * the sample data's (generateSubmissions' `reserved`), so that each is a new submission.
 */
export async function growThroughImport(
  db: Db,
  rows: readonly GeneratedSubmission[],
  onPhase: (phase: string, seconds: number) => void = () => {},
  now: Date = new Date(),
): Promise<void> {
  let last = performance.now();
  const phase = (name: string) => {
    const at = performance.now();
    onPhase(name, (at - last) / 1000);
    last = at;
  };
  // The sample students' PDFs go to a folder of their own: the searches never read them.
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "ets-bench-sample-files-"));
  await loadSampleData(db, sampleContextForFolder(files), now);
  phase("sample data");
  await importFiles(db, rows, onPhase);
}

/**
 * Imports more rows on top of data that growThroughImport built (through the same files, previews
 * and applies), as the registrar's next import; their index numbers must be new.
 */
export async function importMore(
  db: Db,
  rows: readonly GeneratedSubmission[],
  onPhase: (phase: string, seconds: number) => void = () => {},
): Promise<void> {
  await importFiles(db, rows, (phase, seconds) => onPhase(`then: ${phase}`, seconds));
}

/** The registrar's account (created once), and the rows imported file by file as it. */
async function importFiles(
  db: Db,
  rows: readonly GeneratedSubmission[],
  onPhase: (phase: string, seconds: number) => void,
): Promise<void> {
  const at = nowIso();
  const email = "bench-registrar@school.test";
  const existing = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirst();
  const { id } =
    existing ??
    (await db
      .insertInto("users")
      .values({
        email,
        index_number: null,
        name: "Bench Registrar",
        role: "admin",
        password_hash: null,
        active: 1,
        failed_sign_ins: 0,
        locked_until: null,
        last_sign_in_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow());
  const admin: SessionUser = {
    id,
    email,
    name: "Bench Registrar",
    role: "admin",
    indexNumber: null,
    sessionId: 0,
    signInMethod: "password",
    signedInAt: at,
  };
  const ctx = { db, config: { publicUrl: "http://127.0.0.1" } };
  let previewSeconds = 0;
  let applySeconds = 0;
  for (let start = 0; start < rows.length; start += IMPORT_FILE_ROWS) {
    const slice = rows.slice(start, start + IMPORT_FILE_ROWS);
    const file = importCsv(slice, nowIso());
    const started = performance.now();
    const preview = await previewImport(db, pieces(file));
    if (preview.errors.length > 0 || preview.inserts !== slice.length) {
      throw new Error(
        `The preview of rows ${start + 1}–${start + slice.length} did not plan ${slice.length} new records: ${JSON.stringify(preview).slice(0, 500)}`,
      );
    }
    const previewed = performance.now();
    const result = await applyImport(ctx, admin, pieces(file));
    if (result.inserted !== slice.length) {
      throw new Error(`The apply inserted ${result.inserted} of ${slice.length} records.`);
    }
    previewSeconds += (previewed - started) / 1000;
    applySeconds += (performance.now() - previewed) / 1000;
    console.log(
      `    file ${start / IMPORT_FILE_ROWS + 1} of ${Math.ceil(rows.length / IMPORT_FILE_ROWS)}: preview ${((previewed - started) / 1000).toFixed(1)} s, apply ${((performance.now() - previewed) / 1000).toFixed(1)} s`,
    );
  }
  onPhase("previews", previewSeconds);
  onPhase("applies", applySeconds);
}
