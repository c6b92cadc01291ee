// The yardstick of `npm run bench -- api` (scripts/bench-api.ts): plain node:http and prepared
// better-sqlite3 statements on the app's SQLite file, answering the two hot reads with the same
// JSON as the app. It shapes rows with the app's own compiled functions (dist/), so the two answers
// cannot drift apart; it checks no session, parses no schema and runs no hook: what is left is the
// least a server must do for these answers.
//
// Environment: DATABASE_FILE (the SQLite file), PORT. Answers GET /health,
// GET /api/submissions/:indexNumber and GET /api/submissions (the first page, by name).
import { Buffer } from "node:buffer";
import http from "node:http";
import SQLite from "better-sqlite3";

const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;
const { rowToSubmission } = await import(dist("server/submissions/repository.js"));
const { presentSubmission } = await import(dist("server/submissions/presenter.js"));
const { toStatusView } = await import(dist("common/submission.js"));

const PAGE_SIZE = 25;
const file = process.env.DATABASE_FILE;
const port = Number(process.env.PORT);
if (!file || !Number.isInteger(port)) throw new Error("DATABASE_FILE and PORT are required");

const db = new SQLite(file);
db.pragma("busy_timeout = 5000");
const byIndexNumber = db.prepare("select * from submissions where index_number = ?");
const firstPage = db.prepare(
  `select * from submissions order by student_name asc, id asc limit ${PAGE_SIZE}`,
);
// The list's total is exact up to LIST_TOTAL_CAP and capped past it (common/submissions-api.ts):
// counting one row past the cap tells the two apart.
const { LIST_TOTAL_CAP } = await import(dist("common/submissions-api.js"));
const countAll = db.prepare(
  `select count(*) as count from (select 1 from submissions limit ${LIST_TOTAL_CAP + 1})`,
);
/** The documents waiting for review per submission, one statement per page length. */
const toReview = new Map();
function documentsToReview(ids) {
  let statement = toReview.get(ids.length);
  if (!statement) {
    statement = db.prepare(
      `select submission_id, count(*) as count from submission_documents
       where is_current = 1 and review_state = 'pending'
       and submission_id in (${ids.map(() => "?").join(", ")}) group by submission_id`,
    );
    toReview.set(ids.length, statement);
  }
  return new Map(ids.length === 0 ? [] : statement.all(ids).map((r) => [r.submission_id, r.count]));
}

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
}

const STATUS_PREFIX = "/api/submissions/";

http
  .createServer((req, res) => {
    const url = req.url ?? "/";
    if (req.method !== "GET") return send(res, 405, { error: "method" });
    if (url === "/health") return send(res, 200, { ok: true });
    if (url === "/api/submissions") {
      const items = firstPage.all().map(rowToSubmission);
      const counts = documentsToReview(items.map((s) => s.id));
      const count = countAll.get().count;
      return send(res, 200, {
        items: items.map((s) => presentSubmission(s, counts.get(s.id) ?? 0)),
        total: Math.min(count, LIST_TOTAL_CAP),
        totalCapped: count > LIST_TOTAL_CAP,
        page: 1,
        pageSize: PAGE_SIZE,
      });
    }
    if (url.startsWith(STATUS_PREFIX)) {
      const row = byIndexNumber.get(decodeURIComponent(url.slice(STATUS_PREFIX.length)));
      if (!row) return send(res, 404, { error: "not_found" });
      return send(res, 200, { data: toStatusView(rowToSubmission(row)) });
    }
    return send(res, 404, { error: "not_found" });
  })
  .listen(port, "127.0.0.1");

process.on("SIGTERM", () => {
  db.close();
  process.exit(0);
});
