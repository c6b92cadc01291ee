import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORD_COLUMNS, emptyDocuments } from "../../common/submission.js";
import { submissionExportQuerySchema } from "../../common/submissions-api.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import { nowIso, openBulkReaderCount } from "../db/database.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { csvLine, parseCsv } from "./csv.js";
import { exportForDownload } from "./export.js";
import { insertSubmissions } from "./repository.js";
import { IMPORT_MAX_BYTES } from "./transfer-routes.js";
import {
  createUser,
  makeSubmission,
  submissionFields,
  type TestUser,
} from "../../testing/factories.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
});
afterAll(async () => {
  await t.close();
});

function upload(url: string, content: Buffer | string, filename = "records.csv") {
  const boundary = `----ets${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return t.app.inject({
    method: "POST",
    url,
    headers: { ...admin.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([head, Buffer.from(content), tail]),
  });
}

const HEADER = ["StudentName", "IndexNumber", "Programme", "SGSAdmin", "Thesis", "Contact"];
const csv = (rows: string[][]) => [HEADER, ...rows].map((row) => csvLine(row)).join("");

const countSubmissions = async () =>
  Number(
    (
      await t.db
        .selectFrom("submissions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const byIndex = (indexNumber: string) =>
  t.db
    .selectFrom("submissions")
    .selectAll()
    .where("index_number", "=", indexNumber)
    .executeTakeFirst();

describe("import preview", () => {
  it("says what applying would do and changes nothing", async () => {
    await makeSubmission(t.db, {
      studentName: "Existing Changed",
      indexNumber: "50000001",
      sgsStage: "awaiting_review",
    });
    await makeSubmission(t.db, {
      studentName: "Existing Same",
      indexNumber: "50000002",
      programme: "MA English",
    });
    const before = await countSubmissions();
    const res = await upload(
      "/api/admin/import/preview",
      csv([
        ["New One", "50000010", "MPhil Economics", "", "Submitted", ""],
        ["New Two", "50000011", "MPhil Economics", "Sent to Department", "2025-02-01", "024 1"],
        ["Existing Changed", "50000001", "MPhil Economics", "Sent to Department", "", ""],
        ["Existing Same", "50000002", "MA English", "", "", ""],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ rows: 4, inserts: 2, updates: 1, unchanged: 1, errors: [] });
    expect(await countSubmissions()).toBe(before);
    expect((await byIndex("50000001"))?.sgs_stage).toBe("awaiting_review");
  });

  it("lists row-level problems with the spreadsheet row number and column", async () => {
    const res = await upload(
      "/api/admin/import/preview",
      csv([
        ["Good Row", "50000020", "MPhil Economics", "", "", ""],
        ["Bad Stage", "50000021", "MPhil Economics", "Archived", "", ""],
        ["", "50000022", "MPhil Economics", "", "maybe", ""],
        ["Twin", "50000020", "MPhil Economics", "", "", ""],
      ]),
    );
    expect(res.statusCode).toBe(200);
    const { errors } = res.json();
    expect(errors).toEqual([
      { row: 3, column: "SGSAdmin", reason: expect.stringContaining("must be one of") },
      { row: 4, column: "StudentName", reason: "is required" },
      { row: 4, column: "Thesis", reason: expect.stringContaining("Submitted") },
      { row: 5, column: "IndexNumber", reason: "repeats the index number of row 2" },
    ]);
  });

  it("names unknown and missing header columns in row 1", async () => {
    const res = await upload(
      "/api/admin/import/preview",
      "StudentName,Programme,Favourite Colour\r\nAma,MA English,blue\r\n",
    );
    expect(res.json().errors).toEqual([
      { row: 1, column: "Favourite Colour", reason: "is not a known column" },
      { row: 1, column: "IndexNumber", reason: "column is missing" },
    ]);
  });

  it("reports a broken CSV file instead of guessing", async () => {
    const res = await upload("/api/admin/import/preview", 'StudentName\r\n"never closed\r\n');
    expect(res.json().errors).toEqual([
      { row: 2, column: null, reason: "a quoted cell is never closed" },
    ]);
  });
});

describe("import apply", () => {
  it("inserts new index numbers and updates existing ones, with events and notices", async () => {
    const existing = await makeSubmission(t.db, {
      studentName: "Kept Email",
      indexNumber: "51000001",
      studentEmail: "kept@st.school.test",
      sgsStage: "awaiting_review",
      documents: { ...emptyDocuments(), thesis: { submitted: true, receivedOn: "2025-01-09" } },
    });
    await createUser(t.db, "student", { indexNumber: "51000001", email: "owner@st.school.test" });
    const res = await upload(
      "/api/admin/import/apply",
      csv([
        ["Brand New", "51000002", "MSc Statistics", "", "2025-03-04", "'+233 24 000 0000"],
        ["Kept Email", "51000001", "MPhil Economics", "Sent to Department", "Submitted", "0244"],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 1, updated: 1, unchanged: 0 });

    const created = await byIndex("51000002");
    expect(created).toMatchObject({
      student_name: "Brand New",
      thesis_received_on: "2025-03-04",
      contact: "+233 24 000 0000",
      version: 1,
    });
    const updated = await byIndex("51000001");
    expect(updated).toMatchObject({
      sgs_stage: "sent_to_department",
      contact: "0244",
      student_email: "kept@st.school.test",
      thesis_received_on: "2025-01-09",
      version: 2,
    });
    const events = await t.db
      .selectFrom("submission_events")
      .select(["field", "from_value", "to_value", "kind"])
      .where("submission_id", "=", existing.id)
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      { field: "contact", from_value: null, to_value: "0244", kind: "import" },
      {
        field: "sgsStage",
        from_value: "awaiting_review",
        to_value: "sent_to_department",
        kind: "import",
      },
    ]);
    const mail = await t.db
      .selectFrom("outbox")
      .select("subject")
      .where("to_address", "=", "owner@st.school.test")
      .execute();
    expect(mail).toEqual([{ subject: "ETS Tracking: Sent to Department" }]);
  });

  it("rejects the whole file when one row is broken, changing nothing", async () => {
    await makeSubmission(t.db, { indexNumber: "52000001", programme: "MA English" });
    const before = await countSubmissions();
    const res = await upload(
      "/api/admin/import/apply",
      csv([
        ["Would Insert", "52000002", "MPhil Economics", "", "", ""],
        ["Would Update", "52000001", "MPhil Sociology", "", "", ""],
        ["Broken", "52000003", "MPhil Economics", "Nowhere", "", ""],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: "validation",
      errors: [{ row: 4, column: "SGSAdmin" }],
    });
    expect(await countSubmissions()).toBe(before);
    expect(await byIndex("52000002")).toBeUndefined();
    expect((await byIndex("52000001"))?.programme).toBe("MA English");
  });

  it("leaves the data as it was when a write fails in the middle of the import", async () => {
    await makeSubmission(t.db, { indexNumber: "53000001", programme: "MA English" });
    await installWriteTrap(t.db, "submissions", "student_name", "Trap Row");
    const before = await countSubmissions();
    const res = await upload(
      "/api/admin/import/apply",
      csv([
        ["Inserted First", "53000002", "MPhil Economics", "", "", ""],
        ["Updated Second", "53000001", "MPhil Sociology", "", "", ""],
        ["Trap Row", "53000003", "MPhil Economics", "", "", ""],
      ]),
    );
    expect(res.statusCode).toBe(500);
    expect(await countSubmissions()).toBe(before);
    expect(await byIndex("53000002")).toBeUndefined();
    expect((await byIndex("53000001"))?.programme).toBe("MA English");
  });

  it("reads XLSX workbooks, including date and number cells", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Records");
    sheet.addRow(["StudentName", "IndexNumber", "Programme", "Effective Date", "InternalExaminer"]);
    sheet.addRow([
      "Xlsx Student",
      54000001,
      "MPhil Chemistry",
      new Date(Date.UTC(2025, 4, 6)),
      "received",
    ]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload("/api/admin/import/apply", bytes, "records.xlsx");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    expect(await byIndex("54000001")).toMatchObject({
      student_name: "Xlsx Student",
      effective_date: "2025-05-06",
      internal_examiner: "received",
    });
  });

  it("refuses files over 20 MB with 413 and requests without a file with 400", async () => {
    const big = await upload("/api/admin/import/preview", Buffer.alloc(IMPORT_MAX_BYTES + 10, "a"));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ success: false, code: "payload_too_large" });
    const none = await t.app.inject({
      method: "POST",
      url: "/api/admin/import/apply",
      headers: admin.headers,
      payload: { file: "not an upload" },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: "validation", fields: [{ field: "file" }] });
  });
});

describe("large imports, read as they arrive", () => {
  it("accepts a CSV larger than the old 5 MB limit when its rows are within the row limit", async () => {
    // 40,000 rows of about 135 bytes: 5.4 MB, which the old limit refused with 413.
    const long = "MPhil Development Studies and Public Policy (Research Track)";
    const rows = Array.from({ length: 40_000 }, (_, i) => [
      `Large File Student ${i}`,
      `57${String(i).padStart(6, "0")}`,
      long,
      "",
      "Submitted",
      `024 ${String(i).padStart(7, "0")} / 020 000 0000`,
    ]);
    const file = csv(rows);
    expect(Buffer.byteLength(file)).toBeGreaterThan(5 * 1024 * 1024);
    expect(Buffer.byteLength(file)).toBeLessThan(IMPORT_MAX_BYTES);
    const res = await upload("/api/admin/import/preview", file);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      rows: 40_000,
      inserts: 40_000,
      updates: 0,
      unchanged: 0,
      errors: [],
    });
  });

  it("applies updates and inserts spread over several chunks, each with its events", async () => {
    const at = nowIso();
    const base = {
      programme: "PhD Chunked Import",
      contact: null,
      studentEmail: null,
      documents: emptyDocuments(),
      sgsStage: null,
      internalExaminer: null,
      externalExaminer: null,
      thesisStatus: null,
      effectiveDate: null,
    };
    // 700 existing (every other one updated), 600 new, interleaved across chunk boundaries.
    await insertSubmissions(
      t.db,
      Array.from({ length: 700 }, (_, i) => ({
        ...base,
        studentName: `Chunked ${i}`,
        indexNumber: `58${String(i).padStart(6, "0")}`,
      })),
      at,
    );
    const rows: string[][] = [];
    for (let i = 0; i < 1300; i += 1) {
      const indexNumber = `58${String(i).padStart(6, "0")}`;
      const contact = i < 700 && i % 2 === 1 ? "" : `020 ${i}`;
      rows.push([`Chunked ${i}`, indexNumber, base.programme, "", "", i < 700 ? contact : ""]);
    }
    // The preview looks rows up in smaller chunks than apply writes them: the same counts.
    const preview = await upload("/api/admin/import/preview", csv(rows));
    expect(preview.json()).toEqual({
      rows: 1300,
      inserts: 600,
      updates: 350,
      unchanged: 350,
      errors: [],
    });
    const res = await upload("/api/admin/import/apply", csv(rows));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 600, updated: 350, unchanged: 350 });
    const events = await t.db
      .selectFrom("submission_events as e")
      .innerJoin("submissions as s", "s.id", "e.submission_id")
      .select(["e.field", "s.index_number"])
      .where("s.programme", "=", base.programme)
      .where("e.kind", "=", "import")
      .execute();
    expect(events.filter((e) => e.field === "contact")).toHaveLength(350);
    expect(events.filter((e) => e.field === "submission")).toHaveLength(600);
    expect(await byIndex("58000698")).toMatchObject({ contact: "020 698", version: 2 });
    expect(await byIndex("58000699")).toMatchObject({ contact: null, version: 1 });
    expect(await byIndex("58001299")).toMatchObject({ student_name: "Chunked 1299", version: 1 });
  });
});

describe("export", () => {
  it("streams the filtered list as CSV with the record columns, ready to import again", async () => {
    await makeSubmission(t.db, {
      studentName: "Export, Quoted",
      indexNumber: "55000001",
      programme: "LLM International Law",
      contact: "+233 24 123 4567",
      sgsStage: "nominations_ready",
      documents: { ...emptyDocuments(), thesis: { submitted: true, receivedOn: "2025-02-02" } },
    });
    await makeSubmission(t.db, { indexNumber: "55000002", programme: "LLM International Law" });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/export?format=csv&programme=LLM%20International%20Law&sgsStage=nominations_ready",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="ets-submissions-.*\.csv"$/,
    );
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(["idNo", ...RECORD_COLUMNS]);
    expect(rows).toHaveLength(1);
    const record = Object.fromEntries(header!.map((column, i) => [column, rows[0]![i]]));
    expect(record).toMatchObject({
      StudentName: "Export, Quoted",
      IndexNumber: "55000001",
      Contact: "'+233 24 123 4567",
      Thesis: "2025-02-02",
      SGSAdmin: "Nominations Ready",
    });

    const again = await upload("/api/admin/import/preview", res.rawPayload);
    expect(again.json()).toEqual({ rows: 1, inserts: 0, updates: 0, unchanged: 1, errors: [] });
  });

  it("pages through every matching submission, in id order", async () => {
    const at = nowIso();
    const many = Array.from({ length: 1205 }, (_, i) => ({
      studentName: `Bulk Export ${i}`,
      indexNumber: `56${String(i).padStart(6, "0")}`,
      programme: "PhD Bulk Export",
      contact: null,
      studentEmail: null,
      documents: emptyDocuments(),
      sgsStage: null,
      internalExaminer: null,
      externalExaminer: null,
      thesisStatus: null,
      effectiveDate: null,
    }));
    await insertSubmissions(t.db, many, at);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/export?programme=PhD%20Bulk%20Export",
      headers: admin.bearer,
    });
    const rows = parseCsv(res.body).slice(1);
    expect(rows).toHaveLength(1205);
    const ids = rows.map((row) => Number(row[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(1205);
  });

  it("compresses the CSV export with brotli or gzip to the same bytes, and never the XLSX", async () => {
    const url = "/api/admin/export?programme=PhD%20Bulk%20Export";
    const plain = await t.app.inject({ method: "GET", url, headers: admin.bearer });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await t.app.inject({
      method: "GET",
      url,
      headers: { ...admin.bearer, "accept-encoding": "br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gzip = await t.app.inject({
      method: "GET",
      url,
      headers: { ...admin.bearer, "accept-encoding": "gzip" },
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    // Only the two encodings the rest of the API offers.
    const deflate = await t.app.inject({
      method: "GET",
      url,
      headers: { ...admin.bearer, "accept-encoding": "deflate" },
    });
    expect(deflate.headers["content-encoding"]).toBeUndefined();
    expect(deflate.rawPayload.equals(plain.rawPayload)).toBe(true);
    const xlsx = await t.app.inject({
      method: "GET",
      url: `${url}&format=xlsx`,
      headers: { ...admin.bearer, "accept-encoding": "br, gzip" },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-encoding"]).toBeUndefined();
  });

  it("streams XLSX with the same columns", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/export?format=xlsx&q=Export%2C%20Quoted",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(/\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, "idNo", ...RECORD_COLUMNS]);
    expect(sheet.getRow(2).getCell(2).value).toBe("Export, Quoted");
    expect(sheet.getRow(2).getCell(5).value).toBe("+233 24 123 4567");
    expect(sheet.rowCount).toBe(2);

    const again = await upload("/api/admin/import/preview", res.rawPayload, "records.xlsx");
    expect(again.json()).toEqual({ rows: 1, inserts: 0, updates: 0, unchanged: 1, errors: [] });
  });
});

describe("the export's own reader", () => {
  // SQLite: a connection of the export's own (openBulkReader); PostgreSQL: the pool, nothing open.
  const openWhileExporting = () => (t.database.kind === "sqlite" ? 1 : 0);

  beforeAll(async () => {
    const at = nowIso();
    await insertSubmissions(
      t.db,
      Array.from({ length: 3000 }, (_, i) =>
        submissionFields({
          studentName: `Reader Export ${i}`,
          indexNumber: `READER${String(i).padStart(5, "0")}`,
          programme: "MPhil Reader Export",
        }),
      ),
      at,
    );
  });

  it("reads the rows the server's own connection sees, and is closed once the export is read", async () => {
    expect(openBulkReaderCount()).toBe(0);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/export?programme=MPhil%20Reader%20Export",
      headers: admin.bearer,
    });
    expect(res.statusCode).toBe(200);
    const rows = parseCsv(res.body).slice(1);
    expect(rows).toHaveLength(3000);
    expect(rows.map((row) => row[2])).toEqual(
      Array.from({ length: 3000 }, (_, i) => `READER${String(i).padStart(5, "0")}`),
    );
    expect(openBulkReaderCount()).toBe(0);
  });

  it("is closed when the download is cut off in the middle", async () => {
    const file = exportForDownload(
      t.db,
      submissionExportQuerySchema.parse({ programme: "MPhil Reader Export" }),
    );
    const first = await file.body[Symbol.asyncIterator]().next();
    expect(first.done).toBe(false);
    expect(openBulkReaderCount()).toBe(openWhileExporting());
    // What Fastify does with a stream whose client went away.
    file.body.destroy();
    const deadline = Date.now() + 5000;
    while (openBulkReaderCount() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(openBulkReaderCount()).toBe(0);
  });
});
