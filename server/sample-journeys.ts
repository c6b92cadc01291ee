import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  CORRECTIONS_APPROVED_STATUS,
  RECOMMENDATION_LABELS,
  type ExaminerKind,
  type Recommendation,
} from "../common/examiners.js";
import type { SubmissionFields } from "../common/submission.js";
import {
  DOCUMENT_LABELS,
  DOCUMENTS,
  type DocumentItem,
  type SgsStage,
} from "../common/workflow.js";
import { hashToken } from "./auth/tokens.js";
import type { Config } from "./config.js";
import { slotState } from "./documents/presenter.js";
import {
  insertCurrentVersion,
  listDocumentVersions,
  updateThesisDetails,
  type StoredDocumentVersion,
} from "./documents/repository.js";
import { recordAcceptance, recordReturn } from "./documents/review.js";
import type { FileStorage } from "./files/storage.js";
import { markReceived, saveReport } from "./examiners/link-repository.js";
import { moveExaminerForward } from "./examiners/link-service.js";
import { readCorrections } from "./examiners/outcome.js";
import {
  findCurrentThesis,
  insertExamination,
  insertExaminer,
  insertOutcome,
  listCurrentExaminations,
  markThesisVersionAccepted,
  setCorrectionsApproved,
  addExaminationLink,
} from "./examiners/repository.js";
import { sendBlockedReason } from "./examiners/service.js";
import { examinerField, moveRecord, recordExaminationEvent } from "./examiners/transitions.js";
import { notifyOutcome } from "./messages/service.js";
import { resolveFromRoot } from "./paths.js";
import type { Executor } from "./db/database.js";
import { findSubmissionById, insertSubmissionEvents } from "./submissions/repository.js";
import { samplePdf } from "./db/sample-pdf.js";
import { embargoUntil, type DegreeLevel } from "../common/publication.js";
import {
  ensurePublication,
  findCurrentLicence,
  insertDegree,
  insertLicenceVersion,
  isThesisFinal,
  updatePublication,
} from "./publication/repository.js";

/**
 * The sample students a newcomer can become (issue 23): a few sample records carry a journey,
 * the steps that brought them where they are (uploads, the school's review, examiners invited by
 * link, reports, the outcome, corrections), replayed when the sample data is loaded with the same
 * writes the product's own services make, in the loader's one transaction: versions and their
 * PDFs in the file store, the checklist, the record's moves through `moveRecord`, the timeline's
 * events and the student's notices. Nothing is mailed: the examiners' links are made with random
 * tokens nobody holds (an administrator sends one again to try the examiner's page), and no
 * student has an account yet. No administrator acts either: every actor is null ("the school").
 *
 * The steps live in the committed fixture `sample-data/journeys.json`, generated with the
 * submissions (`npm run sample-data`, scripts/sample-data-generator.ts).
 */

/** What a newcomer who signs up with the record's index number finds (the README's table). */
export const SAMPLE_STATES = [
  "nothing_received",
  "partly_uploaded",
  "waiting_for_review",
  "returned",
  "with_examiners",
  "corrections_to_upload",
  "final",
] as const;
export type SampleState = (typeof SAMPLE_STATES)[number];

export const SAMPLE_STATE_LABELS: Record<SampleState, string> = {
  nothing_received: "Nothing received yet",
  partly_uploaded: "Partly uploaded",
  waiting_for_review: "Waiting for review",
  returned: "Returned with a reason",
  with_examiners: "With examiners",
  corrections_to_upload: "Corrections to upload",
  final: "Final",
};

export interface SampleExaminer {
  name: string;
  email: string;
  institution: string;
  kind: ExaminerKind;
}

/** A PDF the journey stores: its file name and page count; the words come from the record. */
interface SampleFileSpec {
  fileName: string;
  pages: number;
}

/** One step; `daysAgo` is counted back from the moment the sample data is loaded. */
export type SampleStep = { daysAgo: number } & (
  | { do: "details"; title: string; abstract: string }
  | ({ do: "upload"; item: DocumentItem } & SampleFileSpec)
  | { do: "accept"; item: DocumentItem }
  | { do: "return"; item: DocumentItem; reason: string }
  | { do: "stage"; to: SgsStage }
  | { do: "nominate"; role: ExaminerKind; examiner: string }
  | { do: "send" }
  | { do: "download"; role: ExaminerKind }
  | ({
      do: "report";
      role: ExaminerKind;
      recommendation: Recommendation;
      note: string | null;
    } & SampleFileSpec)
  | { do: "outcome"; decision: Recommendation; corrections: string | null }
  | { do: "approve" }
  | ({ do: "publish" } & SamplePublication)
);

/**
 * A final thesis made public (issue 20): the student's metadata, licence (the sample licence's
 * first version) and embargo, then the school's degree (by abbreviation), department and dates,
 * confirmed on the step's day, which is the award date; the examination `examinedDaysAgo`.
 */
export interface SamplePublication {
  keywords: string[];
  language: string;
  supervisors: { name: string; orcid: string | null }[];
  degree: string;
  department: string;
  examinedDaysAgo: number;
  embargo: "none" | "6m" | "1y" | "2y";
}

/** The degrees the sample school awards (the administrators' list). */
export const SAMPLE_DEGREES: { name: string; abbreviation: string; level: DegreeLevel }[] = [
  { name: "Master of Philosophy", abbreviation: "MPhil", level: "masters" },
  { name: "Master of Science", abbreviation: "MSc", level: "masters" },
  { name: "Master of Arts", abbreviation: "MA", level: "masters" },
  { name: "Master of Public Health", abbreviation: "MPH", level: "masters" },
  { name: "Doctor of Philosophy", abbreviation: "PhD", level: "doctoral" },
];

/** The sample school's distribution licence, version 1. */
export const SAMPLE_LICENCE =
  "Non-exclusive distribution licence (sample).\n\n" +
  "By accepting this licence I, the author, grant the University the non-exclusive right to " +
  "keep, copy and distribute my thesis worldwide, in print and electronically, including " +
  "through its institutional repository and harvesting services, and to convert it to another " +
  "format to preserve it. I keep the copyright. I confirm the thesis is my own work and that I " +
  "have the right to grant this licence. An embargo I choose and the School approves delays " +
  "the distribution of the thesis file, not of its description.";

/** The degree list and the licence, written once with the sample list. */
export async function insertSamplePublicationSettings(trx: Executor, at: string): Promise<void> {
  for (const degree of SAMPLE_DEGREES) {
    await insertDegree(trx, { ...degree, active: true }, at);
  }
  await insertLicenceVersion(trx, SAMPLE_LICENCE, null, at);
}

export interface SampleJourney {
  indexNumber: string;
  shows: SampleState;
  steps: SampleStep[];
}

export interface SampleJourneys {
  examiners: SampleExaminer[];
  journeys: SampleJourney[];
}

const FIXTURE = "server/db/sample-data/journeys.json";

export function readSampleJourneys(): SampleJourneys {
  return JSON.parse(fs.readFileSync(resolveFromRoot(FIXTURE), "utf8")) as SampleJourneys;
}

/** What the sample loader needs beyond the database. */
export interface SampleContext {
  /** The app's file store: the sample PDFs are written through it. */
  storage: FileStorage;
  /** The address in notices (read only if a student account exists), the links' lifetimes. */
  config: Pick<Config, "publicUrl"> & {
    examiners: Pick<Config["examiners"], "linkDays" | "reportDueDays">;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A stored sample PDF. */
export interface SampleFile {
  bytes: Buffer;
  sha256: string;
  pages: number;
}

type FileStep = Extract<SampleStep, { do: "upload" } | { do: "report" }>;

/** The words on a sample PDF: what it is, whose it is, and that it is sample data. */
function fileLines(step: FileStep, student: SampleStudent): string[] {
  const whose = `${student.studentName} (${student.indexNumber}), ${student.programme}`;
  const heading =
    step.do === "upload"
      ? DOCUMENT_LABELS[step.item]
      : `Examiner's report (${step.role}): ${RECOMMENDATION_LABELS[step.recommendation]}`;
  return [heading, whose, student.thesisTitle ?? "", "ETS Tracking sample document"];
}

/** The record a journey belongs to, as the PDFs name it. */
export interface SampleStudent {
  indexNumber: string;
  studentName: string;
  programme: string;
  thesisTitle: string | null;
}

/** Every PDF the journeys store, keyed by their step. */
export function sampleFiles(
  journeys: SampleJourney[],
  studentOf: (indexNumber: string) => Omit<SampleStudent, "thesisTitle">,
): Map<SampleStep, SampleFile> {
  const files = new Map<SampleStep, SampleFile>();
  for (const journey of journeys) {
    const details = journey.steps.find((s) => s.do === "details");
    const student = {
      ...studentOf(journey.indexNumber),
      thesisTitle: details?.do === "details" ? details.title : null,
    };
    for (const step of journey.steps) {
      if (step.do !== "upload" && step.do !== "report") continue;
      const bytes = samplePdf(fileLines(step, student), step.pages);
      files.set(step, {
        bytes,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        pages: step.pages,
      });
    }
  }
  return files;
}

/**
 * Writes the PDFs through the store's own interface, before any row refers to them (as an upload
 * does: a stored file without a row is never served, and the orphan sweep removes it).
 */
export async function storeSampleFiles(
  storage: FileStorage,
  files: Iterable<SampleFile>,
): Promise<void> {
  fs.mkdirSync(storage.stagingDir, { recursive: true });
  for (const file of files) {
    const staged = path.join(storage.stagingDir, `sample-${randomBytes(8).toString("hex")}`);
    fs.writeFileSync(staged, file.bytes);
    try {
      await storage.put(file.sha256, staged);
    } finally {
      fs.rmSync(staged, { force: true });
    }
  }
}

/**
 * The record as the journey starts: what its steps produce (uploads accepted, stage, examiner
 * states, Thesis Status) is not there yet; paper copies the fixture records stay.
 */
export function journeyStart(fields: SubmissionFields, journey: SampleJourney): SubmissionFields {
  const documents = { ...fields.documents };
  for (const step of journey.steps) {
    if (step.do === "upload") documents[step.item] = { submitted: false, receivedOn: null };
  }
  return {
    ...fields,
    documents,
    sgsStage: null,
    internalExaminer: null,
    externalExaminer: null,
    thesisStatus: null,
  };
}

export async function insertSampleExaminers(
  trx: Executor,
  examiners: SampleExaminer[],
  at: string,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const examiner of examiners) {
    ids.set(examiner.email, await insertExaminer(trx, { ...examiner, createdBy: null, at }));
  }
  return ids;
}

class JourneyError extends Error {
  override name = "JourneyError";
}

/**
 * Replays one journey on its record. Each step is checked as the product checks it (a version to
 * accept is waiting, "send" has what sendBlockedReason asks for, the outcome has both reports),
 * so a fixture that asks for something the product refuses fails the load rather than showing a
 * state no student could reach.
 */
export async function applyJourney(
  trx: Executor,
  ctx: SampleContext,
  journey: SampleJourney,
  submissionId: number,
  files: Map<SampleStep, SampleFile>,
  examinerIds: Map<string, number>,
  now: Date,
): Promise<void> {
  const { config } = ctx;
  const fail = (step: SampleStep, why: string) =>
    new JourneyError(`Sample journey of ${journey.indexNumber}, step "${step.do}": ${why}`);
  const currentOf = async (item: DocumentItem): Promise<StoredDocumentVersion | null> =>
    (await listDocumentVersions(trx, submissionId)).find((v) => v.item === item && v.isCurrent) ??
    null;
  const examinationOf = async (role: ExaminerKind) =>
    (await listCurrentExaminations(trx, submissionId)).find((e) => e.role === role) ?? null;
  const event = (at: string, field: string, from: string | null, to: string | null, kind: string) =>
    recordExaminationEvent(trx, { submissionId, actor: null, at, field, from, to, kind });

  for (const [position, step] of journey.steps.entries()) {
    // Steps of one day keep their order, a minute apart, all before `now`.
    const at = new Date(
      now.getTime() - step.daysAgo * DAY_MS - (journey.steps.length - position) * 60_000,
    ).toISOString();
    switch (step.do) {
      case "details": {
        await updateThesisDetails(trx, submissionId, step);
        await insertSubmissionEvents(trx, [
          {
            submissionId,
            actorUserId: null,
            at,
            field: "thesisTitle",
            from: null,
            to: step.title,
            kind: "edit",
            confirmedOutOfOrder: false,
          },
        ]);
        break;
      }
      case "upload": {
        const file = files.get(step);
        if (!file) throw fail(step, "its PDF was not made");
        const submission = await findSubmissionById(trx, submissionId);
        if (!submission) throw fail(step, "the record is missing");
        const { state: corrections } = await readCorrections(trx, submissionId);
        const correcting =
          step.item === "thesis" && (corrections === "to_upload" || corrections === "to_confirm");
        const current = await currentOf(step.item);
        if (slotState(submission.documents[step.item], current) === "accepted" && !correcting) {
          throw fail(step, `the ${DOCUMENT_LABELS[step.item]} is accepted already`);
        }
        if (step.item === "thesis" && !submission.thesisTitle) {
          throw fail(step, "the thesis needs its title and abstract first");
        }
        await insertCurrentVersion(trx, {
          submissionId,
          item: step.item,
          fileName: step.fileName,
          sizeBytes: file.bytes.length,
          sha256: file.sha256,
          pageCount: file.pages,
          hasJavaScript: false,
          hasEmbeddedFiles: false,
          uploadedBy: null,
          uploadedAt: at,
        });
        await insertSubmissionEvents(trx, [
          {
            submissionId,
            actorUserId: null,
            at,
            field: `upload.${step.item}`,
            from: null,
            to: step.fileName,
            kind: "upload",
            confirmedOutOfOrder: false,
          },
        ]);
        if (correcting) {
          // As documents/service.ts does for a corrected thesis: the internal examiner's link is
          // renewed (not mailed here: nobody holds the token).
          const internal = await examinationOf("internal");
          if (internal?.hasLink && internal.linkRevokedAt === null) {
            await addExaminationLink(trx, internal.id, {
              tokenHash: hashToken(randomBytes(32).toString("base64url")),
              purpose: "corrections",
              createdAt: at,
              expiresAt: new Date(
                Date.parse(at) + config.examiners.linkDays * DAY_MS,
              ).toISOString(),
            });
            await event(at, "examination.internal", null, "corrected thesis sent", "corrections");
          }
        }
        break;
      }
      case "accept": {
        const version = await currentOf(step.item);
        if (version?.reviewState !== "pending") throw fail(step, "no version waits for review");
        await recordAcceptance(trx, config, version, null, at);
        break;
      }
      case "return": {
        const version = await currentOf(step.item);
        if (
          !version ||
          version.reviewState === "returned" ||
          version.reviewState === "superseded"
        ) {
          throw fail(step, "no version to return");
        }
        await recordReturn(trx, config, version, step.reason, null, at);
        break;
      }
      case "stage": {
        await moveRecord(trx, config, submissionId, { sgsStage: step.to }, null, at);
        break;
      }
      case "nominate": {
        const examinerId = examinerIds.get(step.examiner);
        const examiner = (await insertedExaminerKind(trx, examinerId)) ?? null;
        if (examinerId === undefined || examiner === null) {
          throw fail(step, `${step.examiner} is not on the sample examiner list`);
        }
        if (examiner.kind !== step.role) throw fail(step, `${step.examiner} is ${examiner.kind}`);
        if (await examinationOf(step.role)) throw fail(step, `the ${step.role} role is filled`);
        await insertExamination(trx, {
          submissionId,
          examinerId,
          role: step.role,
          nominatedBy: null,
          at,
        });
        await event(at, `examination.${step.role}`, null, examiner.name, "nominate");
        const submission = await findSubmissionById(trx, submissionId);
        const other = await examinationOf(step.role === "internal" ? "external" : "internal");
        if (other && submission?.sgsStage === "sent_to_department") {
          await moveRecord(trx, config, submissionId, { sgsStage: "nominations_ready" }, null, at);
        }
        break;
      }
      case "send": {
        const current = await listCurrentExaminations(trx, submissionId);
        const blocked = sendBlockedReason(current, await findCurrentThesis(trx, submissionId));
        if (blocked) throw fail(step, blocked);
        const submission = await findSubmissionById(trx, submissionId);
        if (!submission) throw fail(step, "the record is missing");
        const sentAt = new Date(Date.parse(at));
        const dueOn = new Date(sentAt.getTime() + config.examiners.reportDueDays * DAY_MS)
          .toISOString()
          .slice(0, 10);
        const expiresAt = new Date(
          sentAt.getTime() + config.examiners.linkDays * DAY_MS,
        ).toISOString();
        const move: Parameters<typeof moveRecord>[3] = { sgsStage: "sent_to_examiners" };
        for (const examination of current.filter((e) => e.state === "nominated")) {
          await addExaminationLink(trx, examination.id, {
            tokenHash: hashToken(randomBytes(32).toString("base64url")),
            purpose: "invitation",
            createdAt: at,
            expiresAt,
            sent: { dueOn, state: "sent" },
          });
          await event(at, `examination.${examination.role}`, "nominated", "sent", "send");
          if (submission[examinerField(examination.role)] === null) {
            move[examinerField(examination.role)] = "awaiting";
          }
        }
        await moveRecord(trx, config, submissionId, move, null, at);
        break;
      }
      case "download": {
        const examination = await examinationOf(step.role);
        if (!examination || !(await markReceived(trx, examination.id, at))) {
          throw fail(step, `the ${step.role} examiner has no link waiting for a download`);
        }
        await moveExaminerForward(trx, config, { submissionId, role: step.role }, "received", at);
        await event(at, `examination.${step.role}`, "sent", "received", "download");
        break;
      }
      case "report": {
        const file = files.get(step);
        const examination = await examinationOf(step.role);
        if (!file) throw fail(step, "its PDF was not made");
        if (!examination?.hasLink || examination.report) {
          throw fail(step, `the ${step.role} examiner has no link or has reported already`);
        }
        await saveReport(
          trx,
          examination.id,
          {
            sha256: file.sha256,
            fileName: step.fileName,
            sizeBytes: file.bytes.length,
            pageCount: file.pages,
            hasJavaScript: false,
            hasEmbeddedFiles: false,
            recommendation: step.recommendation,
            note: step.note,
          },
          at,
        );
        await moveExaminerForward(
          trx,
          config,
          { submissionId, role: step.role },
          "report_submitted",
          at,
        );
        await event(
          at,
          `examination.${step.role}`,
          examination.state,
          "report_submitted",
          "report",
        );
        break;
      }
      case "outcome": {
        const current = await listCurrentExaminations(trx, submissionId);
        if (current.filter((e) => e.report).length < 2) throw fail(step, "a report is missing");
        const thesis = await findCurrentThesis(trx, submissionId);
        await insertOutcome(trx, {
          submissionId,
          decision: step.decision,
          corrections: step.corrections,
          releasedBy: null,
          releasedAt: at,
          thesisVersionAtRelease: thesis?.version ?? null,
        });
        const label = RECOMMENDATION_LABELS[step.decision];
        const moved = await moveRecord(
          trx,
          config,
          submissionId,
          { thesisStatus: label },
          null,
          at,
        );
        await event(at, "examination.outcome", null, label, "outcome");
        await notifyOutcome(
          trx,
          config,
          moved,
          { kind: "released", decision: step.decision, corrections: step.corrections },
          null,
          at,
        );
        break;
      }
      case "approve": {
        // As the internal examiner does through their link (examiners/outcome.ts).
        const { outcome, thesis, state } = await readCorrections(trx, submissionId);
        const internal = await examinationOf("internal");
        if (state !== "to_confirm" || !outcome || !thesis || !internal) {
          throw fail(step, `the corrections are "${state}", not waiting for confirmation`);
        }
        await setCorrectionsApproved(trx, submissionId, {
          at,
          adminId: null,
          examinationId: internal.id,
        });
        await markThesisVersionAccepted(trx, thesis.documentId, null, at);
        const moved = await moveRecord(
          trx,
          config,
          submissionId,
          { thesisStatus: CORRECTIONS_APPROVED_STATUS },
          null,
          at,
        );
        await event(
          at,
          "examination.outcome",
          RECOMMENDATION_LABELS[outcome.decision],
          CORRECTIONS_APPROVED_STATUS,
          "corrections",
        );
        await notifyOutcome(trx, config, moved, { kind: "corrections_approved" }, null, at);
        break;
      }
      case "publish": {
        // As the student's and the school's answers do (publication/service.ts), actors null.
        if (!(await isThesisFinal(trx, submissionId))) throw fail(step, "the thesis is not final");
        const licence = await findCurrentLicence(trx);
        const degree = await trx
          .selectFrom("degrees")
          .select("id")
          .where("abbreviation", "=", step.degree)
          .executeTakeFirst();
        if (!licence || !degree) throw fail(step, "the sample licence or degree is missing");
        const awardDate = at.slice(0, 10);
        const examined = new Date(now.getTime() - step.examinedDaysAgo * DAY_MS);
        await ensurePublication(trx, submissionId, at);
        await updatePublication(
          trx,
          submissionId,
          {
            keywords: step.keywords,
            language: step.language,
            supervisors: step.supervisors,
            degreeId: Number(degree.id),
            department: step.department,
            examinationDate: examined.toISOString().slice(0, 10),
            awardDate,
            licenceVersion: licence.version,
            licenceAcceptedAt: at,
            embargoChoice: step.embargo,
            embargoUntil: embargoUntil(step.embargo, awardDate),
            confirmedAt: at,
            publishedAt: at,
            datestamp: at,
          },
          at,
        );
        break;
      }
    }
  }
}

async function insertedExaminerKind(
  trx: Executor,
  id: number | undefined,
): Promise<{ name: string; kind: ExaminerKind } | null> {
  if (id === undefined) return null;
  const row = await trx
    .selectFrom("examiners")
    .select(["name", "kind"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Where the journey left the record must be what the fixture's list shows for it (documents
 * received, stage, examiner states, Thesis Status): the list and the journeys are one story.
 */
export async function checkJourneyEnd(
  trx: Executor,
  journey: SampleJourney,
  submissionId: number,
  expected: SubmissionFields,
): Promise<void> {
  const saved = await findSubmissionById(trx, submissionId);
  if (!saved) throw new JourneyError(`Sample record ${journey.indexNumber} is missing`);
  const shown = (
    f: Pick<
      SubmissionFields,
      "documents" | "sgsStage" | "internalExaminer" | "externalExaminer" | "thesisStatus"
    >,
  ) =>
    JSON.stringify({
      received: DOCUMENTS.filter((item) => f.documents[item].submitted),
      sgsStage: f.sgsStage,
      internalExaminer: f.internalExaminer,
      externalExaminer: f.externalExaminer,
      thesisStatus: f.thesisStatus,
    });
  if (shown(saved) !== shown(expected)) {
    throw new JourneyError(
      `Sample journey of ${journey.indexNumber} ends at ${shown(saved)}, but the sample list shows ${shown(expected)}`,
    );
  }
}
