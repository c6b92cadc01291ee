import { randomBytes } from "node:crypto";
import { emptyDocuments, type Submission, type SubmissionFields } from "../common/submission.js";
import type { ExaminerKind, Recommendation } from "../common/examiners.js";
import { hashToken } from "../server/auth/tokens.js";
import type { Db } from "../server/db/database.js";
import { nowIso } from "../server/db/database.js";
import { updateThesisDetails } from "../server/documents/repository.js";
import {
  findExaminerById,
  insertExaminer,
  listCurrentExaminations,
  type StoredExaminer,
} from "../server/examiners/repository.js";
import {
  nominateExaminer,
  sendToExaminers,
  type AdminExamination,
  type ExaminerContext,
} from "../server/examiners/service.js";
import type { FileStorage } from "../server/files/storage.js";
import { findSubmissionById } from "../server/submissions/repository.js";
import { addDocumentVersion, type TestDocument } from "./documents.js";
import { createUser, makeSubmission, type TestUser } from "./factories.js";

/**
 * Factories for the examination's tests (issue 9): examiners written through the repository,
 * nominations and sending through the real services (so their rules, events and mails apply),
 * and the one thing the services need from another feature, a current thesis upload, through
 * the documents' test helper.
 */

/** What the factories need: a TestApp fits. */
export interface ExaminerTestTarget extends ExaminerContext {
  app: { storage: FileStorage };
}

let examinerCount = 0;

export async function createExaminer(
  db: Db,
  overrides: Partial<{
    name: string;
    email: string;
    institution: string;
    kind: ExaminerKind;
    active: boolean;
  }> = {},
): Promise<StoredExaminer> {
  examinerCount += 1;
  const kind = overrides.kind ?? "internal";
  const id = await insertExaminer(db, {
    name: overrides.name ?? `Dr ${kind === "internal" ? "Inner" : "Outer"} ${examinerCount}`,
    email: overrides.email ?? `examiner${examinerCount}-${Date.now()}@uni.test`,
    institution:
      overrides.institution ?? (kind === "internal" ? "University of Ghana" : "Other University"),
    kind,
    createdBy: null,
    at: nowIso(),
  });
  if (overrides.active === false) {
    await db.updateTable("examiners").set({ active: 0 }).where("id", "=", id).execute();
  }
  const examiner = await findExaminerById(db, id);
  if (!examiner) throw new Error(`the test examiner ${id} was not stored`);
  return examiner;
}

export interface ReadySubmission {
  submission: Submission;
  /** The student's account (index number linked), with session headers. */
  student: TestUser;
  /** The thesis as uploaded (accepted by the school, so the checklist says received). */
  thesis: TestDocument;
}

/**
 * A submission as the school has it when examiners come in: "Sent to Department", title and
 * abstract saved, the thesis uploaded and accepted (checklist received), the student signed up.
 */
export async function submissionWithThesis(
  t: ExaminerTestTarget,
  overrides: Partial<SubmissionFields> = {},
): Promise<ReadySubmission> {
  const today = nowIso().slice(0, 10);
  const created = await makeSubmission(t.db, {
    sgsStage: "sent_to_department",
    documents: { ...emptyDocuments(), thesis: { submitted: true, receivedOn: today } },
    ...overrides,
  });
  await updateThesisDetails(t.db, created.id, {
    title: "Rainfall and Maize Yields in the Northern Savannah",
    abstract: "We study how rainfall variability shapes maize yields across three districts.",
  });
  const student = await createUser(t.db, "student", { indexNumber: created.indexNumber });
  const thesis = await addDocumentVersion(
    { db: t.db, storage: t.app.storage },
    {
      submissionId: created.id,
      item: "thesis",
      uploadedBy: student.id,
      reviewState: "accepted",
      fileName: "thesis.pdf",
    },
  );
  const submission = await findSubmissionById(t.db, created.id);
  if (!submission) throw new Error(`the test submission ${created.id} was not stored`);
  return { submission, student, thesis };
}

export interface Nominated {
  internal: StoredExaminer;
  external: StoredExaminer;
  view: AdminExamination;
}

/** Nominates a new internal and a new external examiner through the service. */
export async function nominateBoth(
  t: ExaminerTestTarget,
  indexNumber: string,
  admin: { id: number },
): Promise<Nominated> {
  const internal = await createExaminer(t.db, { kind: "internal" });
  const external = await createExaminer(t.db, { kind: "external" });
  await nominateExaminer(t, admin, indexNumber, "internal", { examinerId: internal.id });
  const view = await nominateExaminer(t, admin, indexNumber, "external", {
    examinerId: external.id,
  });
  return { internal, external, view };
}

export interface ReadyToSend extends ReadySubmission, Omit<Nominated, "view"> {
  admin: TestUser;
}

/** A submission with its thesis uploaded and both examiners nominated: "Send" can run. */
export async function readyToSend(
  t: ExaminerTestTarget,
  options: { admin?: TestUser; overrides?: Partial<SubmissionFields> } = {},
): Promise<ReadyToSend> {
  const admin = options.admin ?? (await createUser(t.db, "admin"));
  const ready = await submissionWithThesis(t, options.overrides);
  const { internal, external } = await nominateBoth(t, ready.submission.indexNumber, admin);
  return { ...ready, internal, external, admin };
}

/** Sends the links through the service and returns the raw tokens with the examination ids. */
export async function sendAndGetTokens(
  t: ExaminerTestTarget,
  indexNumber: string,
  admin: { id: number },
  options: { roles?: ExaminerKind[]; now?: Date } = {},
): Promise<{
  view: AdminExamination;
  tokens: Partial<Record<ExaminerKind, string>>;
  examinationIds: Record<ExaminerKind, number>;
}> {
  const { view, tokens } = await sendToExaminers(
    t,
    admin,
    indexNumber,
    options.roles ? { roles: options.roles } : {},
    options.now ?? new Date(),
  );
  return {
    view,
    tokens,
    examinationIds: {
      internal: view.internal?.id ?? 0,
      external: view.external?.id ?? 0,
    },
  };
}

/**
 * A report as if the examiner had uploaded it (the upload itself is the link API's): the report
 * columns and the state, and the record's examiner field "Report Submitted". The bytes go into
 * the file store when given, so the administrator's download can be read.
 */
export async function simulateReport(
  t: ExaminerTestTarget,
  submissionId: number,
  role: ExaminerKind,
  options: {
    recommendation?: Recommendation;
    note?: string | null;
    bytes?: Buffer;
    at?: string;
  } = {},
): Promise<number> {
  const examination = (await listCurrentExaminations(t.db, submissionId)).find(
    (e) => e.role === role,
  );
  if (!examination) throw new Error(`no current ${role} examination for ${submissionId}`);
  const at = options.at ?? nowIso();
  let sha256 = `report-${examination.id}-${Date.now()}`;
  let size = 1234;
  if (options.bytes) {
    const { createHash, randomBytes } = await import("node:crypto");
    const fs = await import("node:fs");
    const path = await import("node:path");
    sha256 = createHash("sha256").update(options.bytes).digest("hex");
    size = options.bytes.length;
    const staged = path.join(t.app.storage.stagingDir, `test-${randomBytes(8).toString("hex")}`);
    fs.writeFileSync(staged, options.bytes);
    try {
      await t.app.storage.put(sha256, staged);
    } finally {
      fs.rmSync(staged, { force: true });
    }
  }
  await t.db
    .updateTable("examinations")
    .set({
      state: "report_submitted",
      received_at: examination.receivedAt ?? at,
      report_sha256: sha256,
      report_file_name: `${role}-report.pdf`,
      report_size_bytes: size,
      report_page_count: 2,
      report_has_javascript: 0,
      report_has_embedded_files: 0,
      report_uploaded_at: at,
      recommendation: options.recommendation ?? "minor_corrections",
      note_to_school: options.note ?? null,
      updated_at: at,
    })
    .where("id", "=", examination.id)
    .execute();
  await t.db
    .updateTable("submissions")
    .set(
      role === "internal"
        ? { internal_examiner: "report_submitted" }
        : { external_examiner: "report_submitted" },
    )
    .where("id", "=", submissionId)
    .execute();
  return examination.id;
}

/** An examination's links as stored (hashes only), oldest first. */
export async function examinerLinksOf(db: Db, examinationId: number) {
  return db
    .selectFrom("examiner_links")
    .select(["token_hash", "purpose", "created_at", "expires_at", "revoked_at"])
    .where("examination_id", "=", examinationId)
    .orderBy("id")
    .execute();
}

/**
 * A link for an examination written directly (tests that build examinations by hand); returns
 * its token. The services make links through issueLink (server/examiners/links.ts).
 */
export async function insertExaminerLink(
  db: Db,
  examinationId: number,
  link: { createdAt: string; expiresAt: string; revokedAt?: string | null; token?: string },
): Promise<string> {
  const token = link.token ?? randomBytes(32).toString("base64url");
  await db
    .insertInto("examiner_links")
    .values({
      examination_id: examinationId,
      token_hash: hashToken(token),
      purpose: "invitation",
      created_at: link.createdAt,
      expires_at: link.expiresAt,
      revoked_at: link.revokedAt ?? null,
    })
    .execute();
  return token;
}
