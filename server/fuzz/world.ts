import ExcelJS from "exceljs";
import { API_TOKEN_SCOPES } from "../../common/api-tokens.js";
import { RECORD_COLUMNS } from "../../common/submission.js";
import { WEBHOOK_EVENT_TYPES } from "../../common/webhooks.js";
import { hashSecret } from "../accounts/passwords.js";
import { insertApiToken } from "../auth/api-tokens.js";
import { createSession } from "../auth/session.js";
import type { Db } from "../db/database.js";
import { releaseOutcome } from "../examiners/service.js";
import { addDocumentVersion } from "../../testing/documents.js";
import {
  createExaminer,
  readyToSend,
  sendAndGetTokens,
  simulateReport,
  type ReadyToSend,
} from "../../testing/examiners.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { uniquePdf } from "../../testing/documents.js";
import { SAME_ORIGIN, type TestApp } from "../../testing/test-app.js";
import { csvLine } from "../submissions/csv.js";
import { insertEndpoint } from "../webhooks/endpoints.js";
import { enqueueWebhookEvent } from "../webhooks/events.js";
import {
  GOOD_METADATA,
  publicationFixture,
  publish,
  send as sendAs,
  type PublicationFixture,
} from "../../testing/publication.js";
import type { KnownValues } from "./json-schema.js";
import type { Caller, MultipartPart, RequestContext, Sessions } from "./requests.js";

/**
 * The rows generated requests act on: an administrator, a student with a submission, an uploaded
 * thesis and a message, and another student's submission the first must not reach; examiners,
 * and submissions at each step of their examination (issue 9). Their ids and index numbers are
 * the known values generated requests use beside random ones.
 */

/** A version number the run replaces with the submission's current one, so some edits apply. */
export const CURRENT_VERSION = 987_654_321;

/** The administrator's password, among the known values, so some sign-ins succeed. */
const ADMIN_PASSWORD = "correct horse battery staple";

const CROSS_SITE = "http://evil.test";

/** The examiner page's routes, where an examiner's link is a credential. */
const EXAMINER_ROUTES = /^\/api\/examiner\//;

/**
 * The student's publication routes and the licence they accept (issue 20), where the student of a
 * final thesis (the author caller) fills the publication record.
 */
const AUTHOR_ROUTES = /^\/api\/(submissions\/\{indexNumber\}\/publication|licence)(\/|$)/;

/**
 * The routes only other systems call, with an API token (docs/decisions/022-api-tokens.md): the
 * finance office's clearance and the registrar's upsert.
 */
const INTEGRATION_ROUTES =
  /^\/api\/admin\/submissions\/(\{indexNumber\}\/financial-clearance|upsert)$/;

/** Webhook receivers: a name the tests' resolver answers with a public address, never reached. */
const HOOKS = "https://hooks.example.org";

/**
 * The repository's SWORD service document: on the tests' resolver's public name, never reached,
 * since the run's app has no deposit worker (routes.test.ts); deposits are only queued.
 */
export const FUZZ_SWORD_URL =
  "https://depositor:fuzz-pass-123@hooks.example.org/sword/servicedocument";

/** The award date of the world's published theses, inside the export range the requests name. */
const AWARD_DATE = "2026-07-20";

/**
 * Index numbers of the submissions the administrators' examination routes act on, fixed so the
 * run repeats:
 * - toSend: both examiners nominated, nothing sent ("Send" works);
 * - sent: both links sent (revoke, due date, reminder);
 * - reported: both reports in, no outcome ("Release the outcome" works; two, since a generated
 *   nomination may replace an examiner of one before that route's turn);
 * - toConfirm: minor corrections released and the corrected thesis uploaded (the administrator
 *   approves it).
 */
const EXAMINATION_INDEX = {
  toSend: "10700101",
  sent: "10700102",
  reported: ["10700103", "10700104"],
  toConfirm: "10700105",
} as const;

/**
 * Submissions no generated request names by index number start after this one: those whose
 * examinations wait for reports (reminders go to them; no generated nomination replaces their
 * examiners) and the examiner callers' own.
 */
const UNNAMED_INDEX_FROM = 10_700_200;

/** A due date a generated change may set: a real date, well after every run. */
const FUTURE_DUE_ON = "2099-06-30";

export const CALLERS: readonly Caller[] = [
  { label: "anonymous", weight: 2, role: "anonymous", auth: "none", origin: null },
  {
    label: "anonymous, same origin",
    weight: 1,
    role: "anonymous",
    auth: "none",
    origin: SAME_ORIGIN.origin,
  },
  {
    label: "anonymous, cross-site",
    weight: 1,
    role: "anonymous",
    auth: "none",
    origin: CROSS_SITE,
  },
  {
    label: "student cookie",
    weight: 4,
    role: "student",
    auth: "cookie",
    origin: SAME_ORIGIN.origin,
  },
  { label: "student cookie, no Origin", weight: 1, role: "student", auth: "cookie", origin: null },
  { label: "student bearer", weight: 1, role: "student", auth: "bearer", origin: null },
  { label: "admin cookie", weight: 5, role: "admin", auth: "cookie", origin: SAME_ORIGIN.origin },
  { label: "admin cookie, no Origin", weight: 1, role: "admin", auth: "cookie", origin: null },
  {
    label: "admin cookie, cross-site",
    weight: 1,
    role: "admin",
    auth: "cookie",
    origin: CROSS_SITE,
  },
  { label: "admin bearer", weight: 2, role: "admin", auth: "bearer", origin: null },
  // Elsewhere an examiner's link is a stray Authorization header: one of them is sent there, seldom.
  {
    label: "examiner link",
    weight: 1,
    home: { path: EXAMINER_ROUTES, weight: 8 },
    role: "examiner",
    auth: "link",
    origin: SAME_ORIGIN.origin,
  },
  {
    label: "examiner link, no Origin",
    weight: 0,
    home: { path: EXAMINER_ROUTES, weight: 2 },
    role: "examiner",
    auth: "link",
    origin: null,
  },
  {
    label: "examiner link, cross-site",
    weight: 0,
    home: { path: EXAMINER_ROUTES, weight: 1 },
    role: "examiner",
    auth: "link",
    origin: CROSS_SITE,
  },
  {
    label: "examiner link with corrections to confirm",
    weight: 0,
    home: { path: EXAMINER_ROUTES, weight: 4 },
    role: "correctionsExaminer",
    auth: "link",
    origin: SAME_ORIGIN.origin,
  },
  // The student of a final thesis, whose publication record is theirs to fill.
  {
    label: "student of a final thesis",
    weight: 0,
    home: { path: AUTHOR_ROUTES, weight: 10 },
    role: "author",
    auth: "cookie",
    origin: SAME_ORIGIN.origin,
  },
  // A system's API token holding every scope, on the routes only systems call (elsewhere the
  // token's scopes are tested route by route in server/auth/api-tokens.test.ts).
  {
    label: "API token",
    weight: 0,
    home: { path: INTEGRATION_ROUTES, weight: 10 },
    role: "integration",
    auth: "bearer",
    origin: null,
  },
];

export interface FuzzWorld {
  context: RequestContext;
  sessions: Sessions;
  userIds: { student: number; admin: number };
  /** Active accounts with live sessions again, after a request that may have ended them. */
  restore(): Promise<void>;
  /**
   * The links of the examinations waiting for reports and of the examiner callers working again,
   * after a request that may have revoked them.
   */
  restoreLinks(): Promise<void>;
  /**
   * Before a route's requests: a fresh API token (a generated request may have revoked the last);
   * for each route of the examiner page, fresh examinations for the
   * examiner callers, so each route meets a report not yet in and corrections waiting for their
   * confirmation, whatever the routes before it did (returned the corrected thesis, say).
   */
  prepareRoute(path: string): Promise<void>;
}

export async function buildWorld(t: TestApp): Promise<FuzzWorld> {
  const admin = await createUser(t.db, "admin");
  const adminPasswordHash = await hashSecret(ADMIN_PASSWORD);
  const studentIndex = "10700001";
  const student = await createUser(t.db, "student", { indexNumber: studentIndex });
  const otherStudent = await createUser(t.db, "student", { indexNumber: "10700002" });
  const own = await makeSubmission(t.db, {
    indexNumber: studentIndex,
    studentEmail: student.email,
    sgsStage: "awaiting_review",
  });
  const other = await makeSubmission(t.db, { indexNumber: "10700002" });
  const thesis = await addDocumentVersion(
    { db: t.db, storage: t.app.storage },
    { submissionId: own.id, item: "thesis", uploadedBy: student.id },
  );
  const sent = await t.app.inject({
    method: "POST",
    url: "/api/admin/messages",
    headers: admin.headers,
    payload: { indexNumber: studentIndex, title: "Welcome", body: "Your record is open." },
  });
  if (sent.statusCode !== 201) throw new Error(`the fuzz world's message: ${sent.body}`);
  const message = await t.db
    .selectFrom("messages")
    .select("id")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const steps = new ExaminationSteps(t, admin);
  const examinations = await buildExaminations(steps, t);
  const publication = await buildPublication(t);
  const webhooks = await buildWebhooks(t, admin.id, own.id);
  const newToken = async () =>
    (
      await insertApiToken(t.db, {
        name: "fuzz system",
        scopes: API_TOKEN_SCOPES,
        expiresAt: new Date(Date.now() + 86_400_000),
        createdBy: admin.id,
      })
    ).token;

  const known: KnownValues = {
    indexNumber: [studentIndex, other.indexNumber, "00000000"],
    id: [own.id, other.id, thesis.version.id, message.id, student.id, admin.id, otherStudent.id],
    // Values for the routes under a prefix (requests.ts, knownForRoute): the examination routes
    // by index number and by examination id draw the examination's rows.
    "/api/admin/submissions/{indexNumber} indexNumber": [
      studentIndex,
      other.indexNumber,
      "00000000",
      ...examinations.indexNumbers,
    ],
    // Publication (issue 20): published theses for the exports and deposits (one of its own for
    // the withdrawal), embargoes waiting for the school's decision.
    "/api/admin/submissions/{indexNumber}/publication indexNumber": [
      publication.published,
      studentIndex,
      "00000000",
    ],
    "/api/admin/submissions/{indexNumber}/publication/withdraw indexNumber": [
      publication.toWithdraw,
    ],
    "/api/admin/submissions/{indexNumber}/publication/embargo-decision indexNumber":
      publication.embargoPending,
    "/api/admin/publication indexNumbers": [publication.published, "00000000"],
    awardFrom: ["2026-01-01", AWARD_DATE],
    awardTo: ["2026-12-31", AWARD_DATE],
    // The author's own record, and the licence they accept.
    "/api/submissions/{indexNumber}/publication indexNumber": [
      publication.author.submission.indexNumber,
      studentIndex,
    ],
    "/api/submissions/{indexNumber}/publication version": [publication.author.licenceVersion],
    "/api/licence version": [publication.author.licenceVersion],
    // Whole lists, as the student's page sends them (a list of random keywords repeats one).
    keywords: [GOOD_METADATA.keywords],
    language: [GOOD_METADATA.language],
    supervisors: [GOOD_METADATA.supervisors],
    // Webhooks: endpoints a deletion may take; one it never names, with a delivery, for the
    // switches and the delivery log.
    "/api/admin/webhooks/{id} id": webhooks.doomed,
    "/api/admin/webhooks/{id}/enable id": [webhooks.kept],
    "/api/admin/webhooks/{id}/disable id": [webhooks.kept],
    "/api/admin/webhooks/{id}/deliveries id": [webhooks.kept],
    deliveryId: [webhooks.delivery],
    "/api/admin/webhooks url": [`${HOOKS}/fuzz/new`, `${HOOKS}/fuzz/other`],
    // The registrar's upsert: records the import accepts, and keys of one's own.
    // New index numbers only: an upsert rewrites a record whole, and the student's own must stay
    // as the other routes expect it.
    records: [
      [{ StudentName: "Kofi Mensah", IndexNumber: "10799997", Programme: "MPhil Economics" }],
      [
        { StudentName: "Kofi Mensah", IndexNumber: "10799997", Programme: "MPhil Economics" },
        { StudentName: "Ama Mensah", IndexNumber: "10799998", Programme: "MA English" },
      ],
    ],
    "idempotency-key": ["fuzz-key-1", "fuzz-key-2"],
    "/api/admin/examinations id": examinations.examinationIds,
    "/api/admin/examiners id": examinations.examinerIds,
    examinerId: examinations.examinerIds,
    // A sign-up takes whichever free address it is given first: new administrators get their own.
    "/api/admin/users email": [admin.email, "new.admin@school.test", "second.admin@school.test"],
    // Examiners are a list of their own: addresses on it, and free ones.
    "/api/admin/examiners email": [
      examinations.examinerEmail,
      "new.examiner@uni.test",
      "other.examiner@uni.test",
      "third.examiner@uni.test",
    ],
    ids: [own.id, other.id],
    email: [student.email, admin.email, otherStudent.email, "new.student@school.test"],
    version: [CURRENT_VERSION],
    password: [ADMIN_PASSWORD],
    currentPassword: [ADMIN_PASSWORD],
    // Long enough for an administrator's passcode, so some new administrators are made.
    passcode: [ADMIN_PASSWORD],
    dueOn: [FUTURE_DUE_ON],
  };

  const sessions: Sessions = {
    student: tokenOf(student.headers),
    admin: tokenOf(admin.headers),
    examiner: examinations.links.examiner,
    correctionsExaminer: examinations.links.correctionsExaminer,
    author: tokenOf(publication.author.student.headers),
    integration: await newToken(),
  };
  const keptWorking = [...examinations.keptWorking];
  await t.db
    .updateTable("users")
    .set({ password_hash: adminPasswordHash })
    .where("id", "=", admin.id)
    .execute();
  const world: FuzzWorld = {
    context: {
      callers: CALLERS,
      known,
      goodFiles: await goodFiles(studentIndex),
      goodForms: goodForms(),
    },
    sessions,
    userIds: { student: student.id, admin: admin.id },
    restore: async () => {
      await t.db
        .updateTable("users")
        .set({ active: 1, locked_until: null, failed_sign_ins: 0 })
        .where("id", "in", [student.id, admin.id])
        .execute();
      await t.db
        .updateTable("users")
        .set({ password_hash: adminPasswordHash })
        .where("id", "=", admin.id)
        .execute();
      sessions.student = await newSession(t.db, student.id);
      sessions.admin = await newSession(t.db, admin.id);
    },
    // A revocation keeps the tokens' hashes, so clearing it makes the same tokens work again.
    restoreLinks: async () => {
      await t.db
        .updateTable("examinations")
        .set({ link_revoked_at: null })
        .where("id", "in", keptWorking)
        .where("link_revoked_at", "is not", null)
        .execute();
      await t.db
        .updateTable("examiner_links")
        .set({ revoked_at: null })
        .where("examination_id", "in", keptWorking)
        .where("revoked_at", "is not", null)
        .execute();
    },
    prepareRoute: async (path) => {
      sessions.integration = await newToken();
      if (!EXAMINER_ROUTES.test(path)) return;
      const links = await steps.callerLinks();
      sessions.examiner = links.examiner;
      sessions.correctionsExaminer = links.correctionsExaminer;
      keptWorking.push(...links.examinationIds);
    },
  };
  return world;
}

function tokenOf(headers: Record<string, string>): string {
  const token = /ets_session=(\S+)/.exec(headers.cookie ?? "")?.[1];
  if (!token) throw new Error("a test user without a session cookie");
  return token;
}

async function newSession(db: Db, userId: number): Promise<string> {
  const { token } = await createSession(db, userId, { persistent: false, method: "password" });
  return token;
}

interface WorldExaminations {
  /** The submissions the administrators' examination routes act on. */
  indexNumbers: string[];
  /** Every examination of the world at its start. */
  examinationIds: number[];
  /** The examiners: each nominated somewhere, and two of each kind free to nominate. */
  examinerIds: number[];
  /** An examiner's address, already on the list. */
  examinerEmail: string;
  /** Examinations whose links restoreLinks keeps working: the awaiting ones, the callers'. */
  keptWorking: number[];
  /** The examiner callers' link tokens. */
  links: CallerLinks;
}

/** Both examiner callers' tokens and their examinations. */
interface CallerLinks {
  examiner: string;
  correctionsExaminer: string;
  examinationIds: number[];
}

/**
 * Submissions at each step of the examination, built through the examination's own services (the
 * test factories), so their rows, events and files are what the routes would have made.
 */
class ExaminationSteps {
  private built = 0;

  constructor(
    private readonly t: TestApp,
    private readonly admin: TestUser,
  ) {}

  /** The next index number of a submission no generated request names. */
  private nextUnnamed(): string {
    this.built += 1;
    return String(UNNAMED_INDEX_FROM + this.built);
  }

  /** Both examiners nominated, nothing sent. */
  ready(indexNumber: string): Promise<ReadyToSend> {
    return readyToSend(this.t, { admin: this.admin, overrides: { indexNumber } });
  }

  /** Both links sent, no report yet. */
  async sent(indexNumber: string) {
    const ready = await this.ready(indexNumber);
    return { ...ready, ...(await sendAndGetTokens(this.t, indexNumber, this.admin)) };
  }

  /** Sent, both reports in (their PDFs in the store, so the administrator can read them). */
  async reported(indexNumber: string) {
    const sent = await this.sent(indexNumber);
    for (const role of ["internal", "external"] as const) {
      await simulateReport(this.t, sent.submission.id, role, {
        recommendation: "minor_corrections",
        bytes: uniquePdf(),
      });
    }
    return sent;
  }

  /** Reported, minor corrections released, and the corrected thesis uploaded: "to_confirm". */
  async toConfirm(indexNumber: string) {
    const reported = await this.reported(indexNumber);
    await releaseOutcome(this.t, this.admin, indexNumber, {
      decision: "minor_corrections",
      corrections: "Give the tables in chapter 3 their units.",
    });
    await addDocumentVersion(
      { db: this.t.db, storage: this.t.app.storage },
      {
        submissionId: reported.submission.id,
        item: "thesis",
        uploadedBy: reported.student.id,
        fileName: "thesis-corrected.pdf",
      },
    );
    return reported;
  }

  /** Two examinations waiting for their reports, on a submission no generated request names. */
  async awaiting(): Promise<number[]> {
    return idsOf(await this.sent(this.nextUnnamed()));
  }

  /**
   * The examiner callers' own examinations, fresh: an internal examiner whose report is not in,
   * and one whose corrected thesis waits for their confirmation. Their submissions' index numbers
   * are not among the known values, so no generated nomination replaces them.
   */
  async callerLinks(): Promise<CallerLinks> {
    const reviewing = await this.sent(this.nextUnnamed());
    const confirming = await this.toConfirm(this.nextUnnamed());
    const examiner = reviewing.tokens.internal;
    const correctionsExaminer = confirming.tokens.internal;
    if (examiner === undefined || correctionsExaminer === undefined) {
      throw new Error("the fuzz world's examiner links were not sent");
    }
    return {
      examiner,
      correctionsExaminer,
      examinationIds: [...idsOf(reviewing), ...idsOf(confirming)],
    };
  }
}

function idsOf(sent: { examinationIds: Record<"internal" | "external", number> }): number[] {
  return [sent.examinationIds.internal, sent.examinationIds.external];
}

async function buildExaminations(steps: ExaminationSteps, t: TestApp): Promise<WorldExaminations> {
  const toSend = await steps.ready(EXAMINATION_INDEX.toSend);
  const sent = await steps.sent(EXAMINATION_INDEX.sent);
  const reported = [];
  for (const indexNumber of EXAMINATION_INDEX.reported) {
    reported.push(await steps.reported(indexNumber));
  }
  const confirming = await steps.toConfirm(EXAMINATION_INDEX.toConfirm);
  const awaiting = [...(await steps.awaiting()), ...(await steps.awaiting())];
  const links = await steps.callerLinks();
  const free = [];
  for (const kind of ["internal", "internal", "external", "external"] as const) {
    free.push(await createExaminer(t.db, { kind }));
  }

  const toSendIds = await t.db
    .selectFrom("examinations")
    .select("id")
    .where("submission_id", "=", toSend.submission.id)
    .orderBy("id")
    .execute();
  const examinations = await t.db
    .selectFrom("examinations")
    .select("examiner_id")
    .orderBy("examiner_id")
    .execute();
  return {
    indexNumbers: [
      EXAMINATION_INDEX.toSend,
      EXAMINATION_INDEX.sent,
      ...EXAMINATION_INDEX.reported,
      EXAMINATION_INDEX.toConfirm,
    ],
    examinationIds: [
      ...toSendIds.map((row) => row.id),
      ...idsOf(sent),
      ...reported.flatMap(idsOf),
      ...idsOf(confirming),
      ...awaiting,
      ...links.examinationIds,
    ],
    examinerIds: [
      ...new Set(examinations.map((row) => row.examiner_id)),
      ...free.map((examiner) => examiner.id),
    ],
    examinerEmail: toSend.internal.email,
    keptWorking: [...awaiting, ...links.examinationIds],
    links,
  };
}

interface WorldPublication {
  /** A final thesis whose student (the author caller) has filled nothing yet. */
  author: PublicationFixture;
  /** Published theses: one for exports and deposits, one for the withdrawal. */
  published: string;
  toWithdraw: string;
  /** Theses whose students chose a sensitive embargo, waiting for the school's decision. */
  embargoPending: string[];
}

/** Final theses at each step of publication, built as the publication tests build them. */
async function buildPublication(t: TestApp): Promise<WorldPublication> {
  const author = await publicationFixture(t);
  const published = [];
  for (let i = 0; i < 2; i += 1) {
    const fixture = await publicationFixture(t);
    await publish(t.app, fixture, { awardDate: AWARD_DATE });
    published.push(fixture.submission.indexNumber);
  }
  const embargoPending = [];
  for (let i = 0; i < 2; i += 1) {
    const fixture = await publicationFixture(t);
    const index = fixture.submission.indexNumber;
    const chosen = await sendAs(
      t.app,
      "PUT",
      `/api/submissions/${index}/publication/embargo`,
      fixture.student.headers,
      { choice: "sensitive", reason: "The data names the farms that took part." },
    );
    if (chosen.statusCode !== 200) throw new Error(`the fuzz world's embargo: ${chosen.body}`);
    embargoPending.push(index);
  }
  const [first, second] = published;
  if (first === undefined || second === undefined) throw new Error("no published theses");
  return { author, published: first, toWithdraw: second, embargoPending };
}

/** Webhook endpoints: two a deletion may take, one kept with a delivery waiting. */
async function buildWebhooks(
  t: TestApp,
  adminId: number,
  submissionId: number,
): Promise<{ doomed: number[]; kept: number; delivery: number }> {
  const endpoint = (name: string) =>
    insertEndpoint(t.db, {
      url: `${HOOKS}/fuzz/${name}`,
      events: [...WEBHOOK_EVENT_TYPES],
      active: true,
      createdBy: adminId,
    });
  const doomed = [(await endpoint("first")).id, (await endpoint("second")).id];
  const kept = (await endpoint("kept")).id;
  await enqueueWebhookEvent(t.db, {
    type: "submission.created",
    submissionId,
    data: { indexNumber: "10700001" },
  });
  const delivery = await t.db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("endpoint_id", "=", kept)
    .executeTakeFirstOrThrow();
  return { doomed, kept, delivery: delivery.id };
}

/**
 * Forms as the pages send them: a student's PDF alone, and the examiner's report, the
 * recommendation (and a note) before the PDF.
 */
function goodForms(): MultipartPart[][] {
  const field = (name: string, value: string): MultipartPart => ({
    field: name,
    fileName: null,
    bytes: Buffer.from(value),
  });
  const report: MultipartPart = { field: "file", fileName: "report.pdf", bytes: uniquePdf() };
  return [
    // A student's upload: the PDF alone.
    [{ field: "file", fileName: "thesis.pdf", bytes: uniquePdf() }],
    [
      field("recommendation", "minor_corrections"),
      field("note", "The tables in chapter 3 need their units."),
      report,
    ],
    [field("recommendation", "pass"), report],
  ];
}

/** Files each multipart route accepts: a thesis PDF, and a CSV and an XLSX of records. */
async function goodFiles(indexNumber: string): Promise<{ name: string; bytes: Buffer }[]> {
  const header = ["StudentName", "IndexNumber", "Programme"];
  const rows = [
    header,
    ["Fuzz Student", indexNumber, "MPhil Economics"],
    ["New One", "10799999", "MA English"],
  ];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Records");
  for (const row of rows) sheet.addRow(row);
  const wide = new ExcelJS.Workbook();
  wide.addWorksheet("Records").addRow([...RECORD_COLUMNS]);
  return [
    { name: "thesis.pdf", bytes: uniquePdf() },
    { name: "records.csv", bytes: Buffer.from(rows.map((row) => csvLine(row)).join("")) },
    { name: "records.xlsx", bytes: Buffer.from(await workbook.xlsx.writeBuffer()) },
    { name: "header-only.xlsx", bytes: Buffer.from(await wide.xlsx.writeBuffer()) },
  ];
}
