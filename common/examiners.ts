import { z } from "zod";
import { MAX_ROW_ID } from "./api.js";
import {
  CORRECTION_STATES,
  EXAMINATION_STATES,
  EXAMINER_KINDS,
  EXAMINER_PAGE_SIZE,
  LINK_REFUSALS,
  MAX_CORRECTIONS_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_EXAMINER_NAME_LENGTH,
  MAX_EXAMINER_NOTE_LENGTH,
  MAX_EXAMINER_PAGE_SIZE,
  MAX_INSTITUTION_LENGTH,
  RECOMMENDATIONS,
} from "./examiners-constants.js";

/**
 * Examiners in the loop (issue 9, docs/decisions/009-examiners.md): examiner records, their
 * nomination to a submission, the signed link each one gets, their reports, the reminders that
 * chase them, and the outcome the school releases to the student. Server routes and web fetchers
 * and forms share these schemas, so every field is named and checked once.
 *
 * Words used throughout:
 * - an *examiner* is a person on the school's list (name, email, institution, internal/external);
 * - an *examination* is one examiner nominated for one submission in one role; replacing an
 *   examiner ends their examination ("replaced") and starts a new one;
 * - a *link* is the examination's personal address, `${PUBLIC_URL}/examiner#<token>`: a 256-bit
 *   random token, stored only as its SHA-256, sent as `Authorization: Examiner <token>` by the
 *   examiner page (never in a URL the server sees, so it never reaches a log).
 *
 * The kinds, states, labels, limits and helpers live in ./examiners-constants.ts (no zod) and are
 * re-exported here, so every importer keeps working.
 */

export {
  EXAMINER_KINDS,
  EXAMINER_KIND_LABELS,
  EXAMINATION_STATES,
  EXAMINATION_STATE_LABELS,
  RECOMMENDATIONS,
  RECOMMENDATION_LABELS,
  CORRECTION_OUTCOMES,
  CORRECTIONS_APPROVED_STATUS,
  CORRECTION_STATES,
  LINK_REFUSALS,
  DEFAULT_EXAMINER_LINK_DAYS,
  DEFAULT_REPORT_DUE_DAYS,
  DEFAULT_REMINDER_DAYS,
  MAX_EXAMINER_NAME_LENGTH,
  MAX_INSTITUTION_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_EXAMINER_NOTE_LENGTH,
  MAX_CORRECTIONS_LENGTH,
  EXAMINER_PAGE_SIZE,
  MAX_EXAMINER_PAGE_SIZE,
  EXAMINER_AUTH_SCHEME,
  EXAMINER_PAGE_PATH,
  examinerLinkUrl,
  describeReminderOffset,
  type ExaminerKind,
  type ExaminationState,
  type Recommendation,
  type CorrectionState,
  type LinkRefusal,
} from "./examiners-constants.js";

// ---------------------------------------------------------------------------------------------
// Shared field schemas

const rowId = z.coerce.number().int().min(1).max(MAX_ROW_ID);
const trimmed = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);
const optionalTrimmed = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)")
  // A round trip, so 2030-02-30 (which Date.parse rolls over to 2 March) is refused.
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
  }, "must be a real date");

export const examinerKindSchema = z.enum(EXAMINER_KINDS);
export const recommendationSchema = z.enum(RECOMMENDATIONS);
export const examinationIdParamsSchema = z.object({ id: rowId });
export const examinerIdParamsSchema = z.object({ id: rowId });
export const examinerRoleParamsSchema = z.object({
  indexNumber: z.string().trim().min(1).max(40),
  role: examinerKindSchema,
});

// ---------------------------------------------------------------------------------------------
// Examiner records (administrators)

export const examinerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  institution: z.string(),
  kind: examinerKindSchema,
  active: z.boolean(),
  /** Examinations not replaced and without a report yet: the examiner's current load. */
  openExaminations: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExaminerRecord = z.infer<typeof examinerSchema>;

/** POST /api/admin/examiners. Email is stored in lower case and is unique. */
export const examinerInputSchema = z.strictObject({
  name: trimmed(MAX_EXAMINER_NAME_LENGTH),
  email: z.string().trim().max(MAX_EMAIL_LENGTH).pipe(z.email("must be an email address")),
  institution: trimmed(MAX_INSTITUTION_LENGTH),
  kind: examinerKindSchema,
});
export type ExaminerInput = z.infer<typeof examinerInputSchema>;

/** PATCH /api/admin/examiners/:id: a field left out stays; `active: false` hides from nomination. */
export const examinerChangesSchema = examinerInputSchema.partial().extend({
  active: z.boolean().optional(),
});
export type ExaminerChanges = z.infer<typeof examinerChangesSchema>;

/** GET /api/admin/examiners?q=&kind=&active=&page=&pageSize= ; q matches name, email, institution. */
export const examinerListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  kind: examinerKindSchema.optional(),
  active: z.enum(["true", "false", "all"]).default("true"),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_EXAMINER_PAGE_SIZE).default(EXAMINER_PAGE_SIZE),
});
export type ExaminerListQuery = z.infer<typeof examinerListQuerySchema>;

export const examinerListResponseSchema = z.object({
  items: z.array(examinerSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ExaminerListResponse = z.infer<typeof examinerListResponseSchema>;
export const examinerResponseSchema = z.object({ data: examinerSchema });

// ---------------------------------------------------------------------------------------------
// A submission's examination (administrators)

export const reminderSchema = z.object({
  /** When it was put in the outbox. */
  sentAt: z.string(),
  /** Days from the due date for a scheduled one (-7, 0, 7, 14); null when sent by hand. */
  offsetDays: z.number().int().nullable(),
  manual: z.boolean(),
});
export type Reminder = z.infer<typeof reminderSchema>;

export const examinerReportSchema = z.object({
  fileName: z.string(),
  sizeBytes: z.number().int(),
  pageCount: z.number().int(),
  hasJavaScript: z.boolean(),
  hasEmbeddedFiles: z.boolean(),
  uploadedAt: z.string(),
  recommendation: recommendationSchema,
  /** The examiner's optional note to the school; never shown to the student. */
  note: z.string().nullable(),
  /** GET, the PDF (administrators only): /api/admin/examinations/:id/report */
  href: z.string(),
});
export type ExaminerReport = z.infer<typeof examinerReportSchema>;

export const examinationSchema = z.object({
  id: z.number().int(),
  role: examinerKindSchema,
  state: z.enum(EXAMINATION_STATES),
  examiner: z.object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    institution: z.string(),
  }),
  nominatedAt: z.string(),
  sentAt: z.string().nullable(),
  /** YYYY-MM-DD; set when the link is sent (ETS_REPORT_DUE_DAYS later), editable after. */
  dueOn: z.string().nullable(),
  linkExpiresAt: z.string().nullable(),
  linkRevokedAt: z.string().nullable(),
  /** The first download of the thesis ("Received"). */
  receivedAt: z.string().nullable(),
  /** The last time the examiner opened the page through the link. */
  lastOpenedAt: z.string().nullable(),
  report: examinerReportSchema.nullable(),
  reminders: z.array(reminderSchema),
  replacedAt: z.string().nullable(),
});
export type Examination = z.infer<typeof examinationSchema>;

export const outcomeSchema = z.object({
  decision: recommendationSchema,
  label: z.string(),
  /** The corrections requested, as the administrator wrote them; null when none. */
  corrections: z.string().nullable(),
  releasedAt: z.string(),
  correctionState: z.enum(CORRECTION_STATES),
  correctionsApprovedAt: z.string().nullable(),
});
export type Outcome = z.infer<typeof outcomeSchema>;

/** GET /api/admin/submissions/:indexNumber/examination */
export const adminExaminationResponseSchema = z.object({
  data: z.object({
    submissionId: z.number().int(),
    indexNumber: z.string(),
    /** The current examination per role (not replaced), or null when none is nominated. */
    internal: examinationSchema.nullable(),
    external: examinationSchema.nullable(),
    /** Replaced examinations, newest first (capped at 20). */
    replaced: z.array(examinationSchema),
    /** Whether "Send to examiners" can run now, and if not, why (shown beside the button). */
    canSend: z.boolean(),
    sendBlockedReason: z.string().nullable(),
    /** Both reports are in and no outcome is released yet. */
    canReleaseOutcome: z.boolean(),
    outcome: outcomeSchema.nullable(),
  }),
});
export type AdminExaminationResponse = z.infer<typeof adminExaminationResponseSchema>;

/** PUT /api/admin/submissions/:indexNumber/examiners/:role: nominate, or replace the current one. */
export const nominationInputSchema = z.strictObject({ examinerId: rowId });
export type NominationInput = z.infer<typeof nominationInputSchema>;

/**
 * POST /api/admin/submissions/:indexNumber/examination/send. Without `roles`, every nominated
 * examination not sent yet; a role named here that was sent already gets a new link (the old one
 * stops working).
 */
export const sendInputSchema = z.strictObject({
  roles: z.array(examinerKindSchema).min(1).max(2).optional(),
  /**
   * Set after the administrator confirmed that sending skips earlier stages of the record (as a
   * manual skip asks, confirmOutOfOrder of an edit); without it such a send answers 409
   * "confirmation_required" and nothing is written.
   */
  confirmOutOfOrder: z.boolean().optional(),
});
export type SendInput = z.infer<typeof sendInputSchema>;

/** PATCH /api/admin/examinations/:id: the due date. */
export const examinationChangesSchema = z.strictObject({ dueOn: isoDate });
export type ExaminationChanges = z.infer<typeof examinationChangesSchema>;

/** POST /api/admin/submissions/:indexNumber/examination/outcome */
export const outcomeInputSchema = z.strictObject({
  decision: recommendationSchema,
  corrections: optionalTrimmed(MAX_CORRECTIONS_LENGTH),
});
export type OutcomeInput = z.infer<typeof outcomeInputSchema>;

// ---------------------------------------------------------------------------------------------
// What the student sees: GET /api/submissions/:indexNumber/examination (student owner or admin)

export const studentExaminationSchema = z.object({
  /** Per role: when the thesis went to the examiner and when their report came in; never who. */
  internal: z.object({ sentOn: z.string().nullable(), reportReceivedOn: z.string().nullable() }),
  external: z.object({ sentOn: z.string().nullable(), reportReceivedOn: z.string().nullable() }),
  outcome: z
    .object({
      decision: recommendationSchema,
      label: z.string(),
      corrections: z.string().nullable(),
      releasedOn: z.string(),
      correctionState: z.enum(CORRECTION_STATES),
      correctionsApprovedOn: z.string().nullable(),
    })
    .nullable(),
});
export type StudentExamination = z.infer<typeof studentExaminationSchema>;
export const studentExaminationResponseSchema = z.object({ data: studentExaminationSchema });
export type StudentExaminationResponse = z.infer<typeof studentExaminationResponseSchema>;

// ---------------------------------------------------------------------------------------------
// The examiner page: /api/examiner/* with `Authorization: Examiner <token>`

/** GET /api/examiner/assignment (also records lastOpenedAt). */
export const examinerAssignmentSchema = z.object({
  examinerName: z.string(),
  role: examinerKindSchema,
  thesis: z.object({
    title: z.string().nullable(),
    abstract: z.string().nullable(),
    programme: z.string(),
    /** The current thesis PDF; null if the student has none uploaded (then no download). */
    file: z
      .object({
        fileName: z.string(),
        sizeBytes: z.number().int(),
        pageCount: z.number().int(),
        uploadedAt: z.string(),
      })
      .nullable(),
  }),
  dueOn: z.string().nullable(),
  state: z.enum(EXAMINATION_STATES),
  receivedAt: z.string().nullable(),
  report: z
    .object({
      fileName: z.string(),
      uploadedAt: z.string(),
      recommendation: recommendationSchema,
    })
    .nullable(),
  /**
   * For the internal examiner after a corrections outcome: the corrections requested and where
   * they stand; "to_confirm" shows the corrected thesis and the confirm button. Null otherwise.
   */
  corrections: z
    .object({
      requested: z.string().nullable(),
      state: z.enum(CORRECTION_STATES),
      approvedAt: z.string().nullable(),
    })
    .nullable(),
  /** Nothing left for this examiner to do: the page thanks them and shows the school's contact. */
  done: z.boolean(),
  linkExpiresAt: z.string(),
  schoolContact: z.string().nullable(),
});
export type ExaminerAssignment = z.infer<typeof examinerAssignmentSchema>;
export const examinerAssignmentResponseSchema = z.object({ data: examinerAssignmentSchema });

/**
 * A refused link (401 for invalid, 410 for expired, revoked or replaced): the error body carries
 * `reason` and `schoolContact` beside `message`, and the page shows them, never an error page.
 */
export const linkRefusedBodySchema = z.object({
  success: z.literal(false),
  code: z.literal("link_refused"),
  reason: z.enum(LINK_REFUSALS),
  message: z.string(),
  schoolContact: z.string().nullable(),
});
export type LinkRefusedBody = z.infer<typeof linkRefusedBodySchema>;

/**
 * POST /api/examiner/report: multipart with the text fields first (`recommendation`, optional
 * `note`), then `file` (PDF, the thesis's size limit, the same checks and scanning as a student's
 * upload). Answers 201 with the assignment.
 */
export const examinerReportFieldsSchema = z.strictObject({
  recommendation: recommendationSchema,
  note: optionalTrimmed(MAX_EXAMINER_NOTE_LENGTH),
});
export type ExaminerReportFields = z.infer<typeof examinerReportFieldsSchema>;

/** POST /api/examiner/corrections/approve (internal examiner; body may be empty). */
export const approveCorrectionsInputSchema = z.strictObject({
  note: optionalTrimmed(MAX_EXAMINER_NOTE_LENGTH),
});

// ---------------------------------------------------------------------------------------------
// Dashboard: the overdue list's rows (GET /api/admin/stats, `overdueExaminations`)

export const overdueExaminationSchema = z.object({
  examinationId: z.number().int(),
  submissionId: z.number().int(),
  indexNumber: z.string(),
  studentName: z.string(),
  role: examinerKindSchema,
  examinerName: z.string(),
  dueOn: z.string(),
  daysOverdue: z.number().int(),
  remindersSent: z.number().int(),
  lastReminderAt: z.string().nullable(),
  lastOpenedAt: z.string().nullable(),
  state: z.enum(EXAMINATION_STATES),
});
export type OverdueExamination = z.infer<typeof overdueExaminationSchema>;
