import { z } from "zod";
import { MAX_ROW_ID } from "./api.js";
import { DOCUMENT_FILTERS } from "./documents-constants.js";
import { overdueExaminationSchema } from "./examiners.js";
import { LATE_KNOWN_BY } from "./reports-constants.js";
import {
  DEFAULT_PAGE_SIZE,
  EXPORT_FORMATS,
  MAX_PAGE_SIZE,
  NONE,
  SUBMISSION_SORTS,
} from "./submissions-constants.js";
import { INDEX_NUMBER_PATTERN, INDEX_NUMBER_RULE, normaliseDate } from "./submission.js";
import {
  DOCUMENTS,
  EXAMINER_STATES,
  SGS_STAGES,
  WORKFLOW_FIELDS,
  type DocumentItem,
} from "./workflow.js";

/**
 * Payloads of the submissions, workflow, messages and dashboard calls (docs/api.md, "Submissions
 * and workflow"). The server validates with these and the web app's forms and fetchers use the
 * same objects, so a field is named and checked in one place. The list's sorts, page sizes and
 * caps live in ./submissions-constants.ts (no zod) and are re-exported here, so every importer
 * keeps working.
 */

export {
  SUBMISSION_SORTS,
  MAX_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZE_CHOICES,
  NONE,
  LIST_TOTAL_CAP,
  EXPORT_FORMATS,
  OVERDUE_LIST_LIMIT,
  type SubmissionSort,
} from "./submissions-constants.js";

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Query strings and web forms send "" for "not set"; treat it as absent. */
const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
/** In a body, a blank optional text field means "clear it". */
const blankToNull = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? null : value;

export const sgsStageSchema = z.enum(SGS_STAGES);
export const examinerStateSchema = z.enum(EXAMINER_STATES);
export const documentItemSchema = z.enum(DOCUMENTS);
export const workflowFieldSchema = z.enum(WORKFLOW_FIELDS);

/** A calendar date, exactly YYYY-MM-DD and a real day. */
export const isoDateSchema = z
  .string()
  .trim()
  .refine((value) => normaliseDate(value) === value, "must be a date (YYYY-MM-DD)");

const requiredText = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);
const optionalText = (max: number) =>
  z.preprocess(
    blankToNull,
    z.string().trim().max(max, `must be at most ${max} characters`).nullable().optional(),
  );

export const indexNumberSchema = z.string().trim().regex(INDEX_NUMBER_PATTERN, INDEX_NUMBER_RULE);

// ---------------------------------------------------------------------------------------------
// The submission as the API shows it

export const documentStateSchema = z.object({
  submitted: z.boolean(),
  receivedOn: z.string().nullable(),
});

export const documentsSchema = z.object({
  thesis: documentStateSchema,
  turnitinReport: documentStateSchema,
  supervisorForm: documentStateSchema,
  statementOfResult: documentStateSchema,
  financialClearance: documentStateSchema,
} satisfies Record<DocumentItem, typeof documentStateSchema>);

export const submissionSchema = z.object({
  id: z.number().int(),
  studentName: z.string(),
  indexNumber: z.string(),
  programme: z.string(),
  contact: z.string().nullable(),
  studentEmail: z.string().nullable(),
  documents: documentsSchema,
  sgsStage: sgsStageSchema.nullable(),
  internalExaminer: examinerStateSchema.nullable(),
  externalExaminer: examinerStateSchema.nullable(),
  thesisStatus: z.string().nullable(),
  effectiveDate: z.string().nullable(),
  /** The thesis title and abstract the student gave with the upload; null until then. */
  thesisTitle: z.string().nullable(),
  thesisAbstract: z.string().nullable(),
  /** Uploaded documents whose current version waits for review (the list's count chip). */
  documentsToReview: z.number().int(),
  /** Which system marked Financial Clearance through the API, and when (issue 21); else absent. */
  financialClearanceBy: z.object({ system: z.string(), at: z.string() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type SubmissionDto = z.infer<typeof submissionSchema>;

export const submissionResponseSchema = z.object({ data: submissionSchema });

/**
 * A row of the administrator's list. It carries the whole record (it is small) so the details
 * panel opens without another request and its edit form has the version to send back.
 */
export const submissionListItemSchema = submissionSchema;
export type SubmissionListItem = z.infer<typeof submissionListItemSchema>;

// ---------------------------------------------------------------------------------------------
// Listing, searching and exporting

const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToUndefined, schema.optional());

/** The filters the list and the export share. */
export const submissionFiltersSchema = z.object({
  /** Case-insensitive substring of the student's name or index number. */
  q: optionalFilter(z.string().trim().max(100)),
  programme: optionalFilter(z.string().trim().max(200)),
  sgsStage: optionalFilter(z.enum([...SGS_STAGES, NONE])),
  internalExaminer: optionalFilter(z.enum([...EXAMINER_STATES, NONE])),
  externalExaminer: optionalFilter(z.enum([...EXAMINER_STATES, NONE])),
  thesisStatus: optionalFilter(z.string().trim().max(100)),
  /** Submissions still missing this document. */
  missingDocument: optionalFilter(documentItemSchema),
  /** Any checklist item missing, an upload waiting for review, or an upload returned. */
  documents: optionalFilter(z.enum(DOCUMENT_FILTERS)),
});
export type SubmissionFilters = z.infer<typeof submissionFiltersSchema>;

export const submissionListQuerySchema = submissionFiltersSchema.extend({
  sort: optionalFilter(z.enum(SUBMISSION_SORTS)).default("name"),
  order: optionalFilter(z.enum(["asc", "desc"])).default("asc"),
  page: optionalFilter(z.coerce.number().int().min(1).max(100_000)).default(1),
  pageSize: optionalFilter(z.coerce.number().int().min(1).max(MAX_PAGE_SIZE)).default(
    DEFAULT_PAGE_SIZE,
  ),
});
export type SubmissionListQuery = z.infer<typeof submissionListQuerySchema>;

export const submissionListResponseSchema = z.object({
  items: z.array(submissionListItemSchema),
  /** How many submissions match, exact up to LIST_TOTAL_CAP; see totalCapped. */
  total: z.number().int(),
  /** True when more than LIST_TOTAL_CAP submissions match (total is then LIST_TOTAL_CAP). */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type SubmissionListResponse = z.infer<typeof submissionListResponseSchema>;

export const submissionExportQuerySchema = submissionFiltersSchema.extend({
  format: optionalFilter(z.enum(EXPORT_FORMATS)).default("csv"),
});
export type SubmissionExportQuery = z.infer<typeof submissionExportQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Creating and editing

export const documentInputSchema = z
  .object({
    submitted: z.boolean(),
    receivedOn: z.preprocess(blankToNull, isoDateSchema.nullable().optional()),
  })
  .refine((doc) => doc.submitted || !doc.receivedOn, {
    message: "a document that is not submitted has no received date",
    path: ["receivedOn"],
  });

export const documentsInputSchema = z.strictObject({
  thesis: documentInputSchema.optional(),
  turnitinReport: documentInputSchema.optional(),
  supervisorForm: documentInputSchema.optional(),
  statementOfResult: documentInputSchema.optional(),
  financialClearance: documentInputSchema.optional(),
} satisfies Record<DocumentItem, z.ZodOptional<typeof documentInputSchema>>);

/** Every field an administrator may edit; the index number is the record's key and stays. */
const editableShape = {
  studentName: requiredText(200),
  programme: requiredText(200),
  contact: optionalText(100),
  studentEmail: z.preprocess(
    blankToNull,
    z.email("must be an email address").max(254).nullable().optional(),
  ),
  documents: documentsInputSchema.optional(),
  sgsStage: sgsStageSchema.nullable().optional(),
  internalExaminer: examinerStateSchema.nullable().optional(),
  externalExaminer: examinerStateSchema.nullable().optional(),
  thesisStatus: optionalText(100),
  effectiveDate: z.preprocess(blankToNull, isoDateSchema.nullable().optional()),
};

/** POST /api/submissions: the new_submission form. */
export const submissionInputSchema = z.strictObject({
  ...editableShape,
  indexNumber: indexNumberSchema,
});
export type SubmissionInput = z.infer<typeof submissionInputSchema>;

/** The changes of a PATCH: each editable field, all optional; unknown fields (the index number too) are refused. */
export const submissionChangesSchema = z.strictObject({
  ...editableShape,
  studentName: editableShape.studentName.optional(),
  programme: editableShape.programme.optional(),
});
export type SubmissionChanges = z.infer<typeof submissionChangesSchema>;

export const submissionUpdateSchema = z.object({
  /** The version the administrator saw; a newer one on the server means someone else saved. */
  version: z.number().int().min(1).max(MAX_ROW_ID),
  changes: submissionChangesSchema,
  /** Set after the administrator confirmed moves that skip or reverse the flow. */
  confirmOutOfOrder: z.boolean().optional(),
});
export type SubmissionUpdate = z.infer<typeof submissionUpdateSchema>;

export const workflowMoveSchema = z.object({
  submissionId: z.number().int(),
  field: workflowFieldSchema,
  from: z.string().nullable(),
  to: z.string().nullable(),
  kind: z.enum(["skip", "reverse"]),
});
export type WorkflowMove = z.infer<typeof workflowMoveSchema>;

/** 409 code "confirmation_required": nothing was written; send again with confirmOutOfOrder. */
export const confirmationRequiredSchema = z.object({
  success: z.literal(false),
  code: z.literal("confirmation_required"),
  message: z.string(),
  moves: z.array(workflowMoveSchema),
});

/** 409 code "conflict" from a PATCH with a stale version: nothing was written. */
export const staleVersionSchema = z.object({
  success: z.literal(false),
  code: z.literal("conflict"),
  message: z.string(),
  current: submissionSchema,
});

export const bulkUpdateSchema = z.object({
  ids: z.array(z.number().int().positive().max(MAX_ROW_ID)).min(1).max(1000),
  set: z
    .strictObject({
      sgsStage: sgsStageSchema.nullable().optional(),
      internalExaminer: examinerStateSchema.nullable().optional(),
      externalExaminer: examinerStateSchema.nullable().optional(),
    })
    .refine((set) => Object.keys(set).length > 0, "choose at least one field to set"),
  confirmOutOfOrder: z.boolean().optional(),
});
export type BulkUpdate = z.infer<typeof bulkUpdateSchema>;

export const bulkUpdateResponseSchema = z.object({
  updated: z.number().int(),
  items: z.array(submissionSchema),
});

// ---------------------------------------------------------------------------------------------
// History

export const submissionEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z
    .object({ id: z.number().int(), email: z.string(), name: z.string().nullable() })
    .nullable(),
  field: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** "create", "next", "skip", "reverse", "edit", "bulk", "import". */
  kind: z.string(),
  confirmedOutOfOrder: z.boolean(),
});
export const submissionEventsResponseSchema = z.object({ items: z.array(submissionEventSchema) });
export type SubmissionEvent = z.infer<typeof submissionEventSchema>;

export const timelineItemSchema = z.object({ at: z.string(), label: z.string() });
export const timelineResponseSchema = z.object({ items: z.array(timelineItemSchema) });
export type TimelineItem = z.infer<typeof timelineItemSchema>;

// ---------------------------------------------------------------------------------------------
// Import

export const importErrorSchema = z.object({
  /** The spreadsheet's row number; the header is row 1. */
  row: z.number().int(),
  /** The column at fault, or null when the problem is the whole row or file. */
  column: z.string().nullable(),
  reason: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

export const importPreviewSchema = z.object({
  rows: z.number().int(),
  inserts: z.number().int(),
  updates: z.number().int(),
  /** Rows naming an existing submission without changing anything. */
  unchanged: z.number().int(),
  errors: z.array(importErrorSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importResultSchema = z.object({
  inserted: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** 400 from apply: the file had errors and nothing was changed. */
export const importRejectedSchema = z.object({
  success: z.literal(false),
  code: z.literal("validation"),
  message: z.string(),
  errors: z.array(importErrorSchema),
});

// ---------------------------------------------------------------------------------------------
// Dashboard

const countsOf = <T extends readonly [string, ...string[]]>(keys: T) =>
  z.object(
    Object.fromEntries(keys.map((key) => [key, z.number().int()])) as {
      [K in T[number]]: z.ZodNumber;
    },
  );

export const perStageSchema = countsOf([...SGS_STAGES, NONE]);
export const perExaminerStateSchema = countsOf([...EXAMINER_STATES, NONE]);

export const overdueReportSchema = z.object({
  id: z.number().int(),
  studentName: z.string(),
  indexNumber: z.string(),
  examiner: z.enum(["internal", "external"]),
  state: examinerStateSchema,
  /** When the examiner entered this state (its latest event, else the record's last update). */
  since: z.string(),
  days: z.number().int(),
});
export type OverdueReport = z.infer<typeof overdueReportSchema>;

/**
 * One late examiner report of the dashboard's one list (issue 22): late when its due date is
 * before today (UTC), and how that is known: the link's due date, or, for a state typed by hand
 * without a link, the day it was typed plus reportOverdueDays (common/reports.ts, lateReportSchema).
 */
export const dashboardLateReportSchema = z.object({
  submissionId: z.number().int(),
  studentName: z.string(),
  indexNumber: z.string(),
  role: z.enum(["internal", "external"]),
  /** The examiner's state on the record. */
  state: examinerStateSchema,
  knownBy: z.enum(LATE_KNOWN_BY),
  /** YYYY-MM-DD. */
  dueOn: z.string(),
  /** Whole days past the due date (today minus dueOn, at least 1). */
  daysLate: z.number().int(),
  /** When the link was sent, or when the state was typed. */
  since: z.string(),
  /** Known by a link: the examination, its examiner and reminders; null for a typed state. */
  examination: overdueExaminationSchema.nullable(),
});
export type DashboardLateReport = z.infer<typeof dashboardLateReportSchema>;

export const statsResponseSchema = z.object({
  totalSubmissions: z.number().int(),
  totalUsers: z.number().int(),
  addedThisMonth: z.number().int(),
  perStage: perStageSchema,
  perExaminerState: z.object({
    internal: perExaminerStateSchema,
    external: perExaminerStateSchema,
  }),
  /** The longest-waiting reports first, at most OVERDUE_LIST_LIMIT; overdueReportsTotal counts all. */
  overdueReports: z.array(overdueReportSchema),
  overdueReportsTotal: z.number().int(),
  reportOverdueDays: z.number().int(),
  /**
   * Examinations whose report is past its due date (link sent or thesis received, due date before
   * today, UTC), the most overdue first, at most OVERDUE_LIST_LIMIT; overdueExaminationsTotal
   * counts all. overdueReports leaves out the records these cover (their examiner got a link).
   */
  overdueExaminations: z.array(overdueExaminationSchema),
  overdueExaminationsTotal: z.number().int(),
  /**
   * The one list of late reports (issue 22): overdueExaminations and overdueReports together under
   * one definition of late, the most days late first, at most OVERDUE_LIST_LIMIT; lateReportsTotal
   * counts all (the two totals added: no report is in both).
   */
  lateReports: z.array(dashboardLateReportSchema),
  lateReportsTotal: z.number().int(),
  /** Submissions with an uploaded document waiting for review / with one returned to the student. */
  documentsWaiting: z.number().int(),
  documentsReturned: z.number().int(),
  /** The last twelve months, oldest first, the current month last; month is YYYY-MM. */
  perMonth: z.array(z.object({ month: z.string(), count: z.number().int() })),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Messages

export const messageSchema = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  body: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
  /** Sent to every student rather than about this student's submission. */
  broadcast: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListResponseSchema = z.object({
  items: z.array(messageSchema),
  unreadCount: z.number().int(),
});
export type MessageListResponse = z.infer<typeof messageListResponseSchema>;

export const sendMessageSchema = z
  .object({
    indexNumber: z.preprocess(blankToUndefined, indexNumberSchema.optional()),
    broadcast: z.boolean().optional(),
    title: optionalText(200),
    body: requiredText(5000),
  })
  .refine((m) => (m.indexNumber !== undefined) !== (m.broadcast === true), {
    message: "send either to one index number or as a broadcast",
    path: ["indexNumber"],
  });
export type SendMessage = z.infer<typeof sendMessageSchema>;

export const successSchema = z.object({ success: z.literal(true) });
