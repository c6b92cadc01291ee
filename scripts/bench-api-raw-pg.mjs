// The PostgreSQL yardstick of `npm run bench -- api` (scripts/bench-api.ts): plain node:http and
// `pg` with named statements (prepared once per connection by the server, then only bound and
// executed), answering the two hot reads with the same JSON as the app. Like the SQLite yardstick
// (scripts/bench-api-raw.mjs) it shapes rows with the app's own compiled functions (dist/), so the
// answers cannot drift apart; it checks no session, parses no schema and runs no hook. Its pool
// holds 10 connections, as the app's does (server/db/database.ts).
//
// Environment: DATABASE_URL (postgres://…), PORT. Answers GET /health,
// GET /api/submissions/:indexNumber and GET /api/submissions (the first page, by name).
import { Buffer } from "node:buffer";
import http from "node:http";
import pg from "pg";

const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;
const { rowToSubmission } = await import(dist("server/submissions/repository.js"));
const { presentSubmission } = await import(dist("server/submissions/presenter.js"));
const { toStatusView } = await import(dist("common/submission.js"));
const { LIST_TOTAL_CAP } = await import(dist("common/submissions-api.js"));

const PAGE_SIZE = 25;
const url = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!url || !Number.isInteger(port)) throw new Error("DATABASE_URL and PORT are required");

// count(*) is a bigint, text by default; the app parses it the same way.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on("error", () => undefined);

const byIndexNumber = {
  name: "raw_status_read",
  text: "select * from submissions where index_number = $1",
};
const firstPage = {
  name: "raw_first_page",
  text: `select * from submissions order by student_name asc, id asc limit ${PAGE_SIZE}`,
};
// The list's total is exact up to LIST_TOTAL_CAP and capped past it (common/submissions-api.ts).
const countAll = {
  name: "raw_count",
  text: `select count(*) as count from (select 1 from submissions limit ${LIST_TOTAL_CAP + 1}) as t`,
};
const toReview = {
  name: "raw_to_review",
  text: `select submission_id, count(*) as count from submission_documents
         where is_current = 1 and review_state = 'pending' and submission_id = any($1::int[])
         group by submission_id`,
};

const query = (statement, values = []) => pool.query({ ...statement, values });

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
}

const STATUS_PREFIX = "/api/submissions/";

async function answer(req, res) {
  const url = req.url ?? "/";
  if (req.method !== "GET") return send(res, 405, { error: "method" });
  if (url === "/health") return send(res, 200, { ok: true });
  if (url === "/api/submissions") {
    // Page and count in parallel, as the app does.
    const [page, count] = await Promise.all([query(firstPage), query(countAll)]);
    const items = page.rows.map(rowToSubmission);
    const ids = items.map((s) => s.id);
    const counts = new Map(
      ids.length === 0
        ? []
        : (await query(toReview, [ids])).rows.map((r) => [r.submission_id, r.count]),
    );
    const total = count.rows[0].count;
    return send(res, 200, {
      items: items.map((s) => presentSubmission(s, counts.get(s.id) ?? 0)),
      total: Math.min(total, LIST_TOTAL_CAP),
      totalCapped: total > LIST_TOTAL_CAP,
      page: 1,
      pageSize: PAGE_SIZE,
    });
  }
  if (url.startsWith(STATUS_PREFIX)) {
    const indexNumber = decodeURIComponent(url.slice(STATUS_PREFIX.length));
    const { rows } = await query(byIndexNumber, [indexNumber]);
    if (rows.length === 0) return send(res, 404, { error: "not_found" });
    return send(res, 200, { data: toStatusView(rowToSubmission(rows[0])) });
  }
  return send(res, 404, { error: "not_found" });
}

http
  .createServer((req, res) => {
    answer(req, res).catch((error) => send(res, 500, { error: String(error) }));
  })
  .listen(port, "127.0.0.1");

process.on("SIGTERM", () => {
  void pool.end().finally(() => process.exit(0));
});
