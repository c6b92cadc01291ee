// A second yardstick for `npm run bench -- api --yardstick floor` (scripts/bench-api.ts), SQLite
// only: the least any server must do for a student's status read as the product defines it, on
// plain node:http with no framework. Where the raw yardstick (bench-api-raw.mjs) reads the
// submission and nothing else, this one also
// - reads the session with the app's own statement (statusWithSession: the token's hash, its user
//   and the submission in one statement) and checks it with the app's checkSession (expiry,
//   idleness, inactive users, the last-seen touch);
// - checks that the student may read this index number (canReadSubmission);
// - sends the app's security headers for an API answer (decisions/014).
// It runs no hook, logs nothing, validates nothing else, and answers anything but a found, allowed
// status with a bare 401, 403 or 404. The app's distance to this floor is what its framework and
// hooks cost; the floor's distance to the raw server is what authentication and headers cost.
//
// Environment: DATABASE_FILE (the SQLite file), PORT. Answers GET /health and
// GET /api/submissions/:indexNumber.
import { Buffer } from "node:buffer";
import http from "node:http";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";

const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;
const { rowToSubmission } = await import(dist("server/submissions/repository.js"));
const { toStatusView } = await import(dist("common/submission.js"));
const { hashToken } = await import(dist("server/auth/tokens.js"));
const { checkSession } = await import(dist("server/auth/session.js"));
const { canReadSubmission } = await import(dist("server/auth/policy.js"));
const { statusWithSession, sessionOfStatusRow } = await import(
  dist("server/submissions/status-read.js")
);
const { computeSecurityHeaderSets } = await import(dist("server/http/security-headers.js"));
const { securityHeaderOptions } = await import(dist("server/app.js"));

const file = process.env.DATABASE_FILE;
const port = Number(process.env.PORT);
if (!file || !Number.isInteger(port)) throw new Error("DATABASE_FILE and PORT are required");

const sqlite = new SQLite(file);
sqlite.pragma("busy_timeout = 5000");
// Kysely only compiles the app's statement and runs checkSession's rare writes.
const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
const statement = sqlite.prepare(statusWithSession.build(db).compile().sql);
const securityHeaders = (await computeSecurityHeaderSets(securityHeaderOptions(false))).other;

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...securityHeaders,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
}

const STATUS_PREFIX = "/api/submissions/";
const BEARER = "Bearer ";

async function answer(req, res) {
  const url = req.url ?? "/";
  if (url === "/health") return send(res, 200, { ok: true });
  if (req.method !== "GET" || !url.startsWith(STATUS_PREFIX)) return send(res, 404, {});
  const indexNumber = decodeURIComponent(url.slice(STATUS_PREFIX.length));
  const authorization = req.headers.authorization ?? "";
  if (!authorization.startsWith(BEARER)) return send(res, 401, {});
  const row = statement.get(indexNumber, hashToken(authorization.slice(BEARER.length)));
  if (!row) return send(res, 401, {});
  const user = await checkSession(db, sessionOfStatusRow(row));
  if (user === null) return send(res, 401, {});
  if (!canReadSubmission(user, indexNumber)) return send(res, 403, {});
  if (row.id === null) return send(res, 404, {});
  return send(res, 200, { data: toStatusView(rowToSubmission(row)) });
}

http
  .createServer((req, res) => {
    answer(req, res).catch((error) => send(res, 500, { error: String(error) }));
  })
  .listen(port, "127.0.0.1");

process.on("SIGTERM", () => {
  sqlite.close();
  process.exit(0);
});
