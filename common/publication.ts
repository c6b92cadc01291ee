import { z } from "zod";
import { MAX_ROW_ID } from "./api.js";
import { LANGUAGE_CODES } from "./languages.js";

/**
 * Publication (issue 20, docs/decisions/020-publication.md): the metadata a library can use, the
 * school's distribution licence, the embargo, withdrawal, and the one record every reader of a
 * published thesis shares (`PublishedRecord`: the exports, the SWORD deposit, OAI-PMH and the
 * public pages). Server routes and web forms share these schemas, so every field is named and
 * checked once.
 *
 * What is public when (ADR 020): a thesis is *published* once it is final (Pass, or corrections
 * approved), the student accepted the licence and chose an embargo, a "patent or sensitive"
 * embargo was approved, and an administrator confirmed the metadata with an award date. From
 * then on its metadata is public; its files are public unless an embargo runs or it is withdrawn.
 */

// ---------------------------------------------------------------------------------------------
// Enumerations and limits

export const EMBARGO_CHOICES = ["none", "6m", "1y", "2y", "sensitive"] as const;
export type EmbargoChoice = (typeof EMBARGO_CHOICES)[number];

export const EMBARGO_LABELS: Record<EmbargoChoice, string> = {
  none: "No embargo: open at once",
  "6m": "6 months",
  "1y": "1 year",
  "2y": "2 years",
  sensitive: "Patent or sensitive (needs the school's approval)",
};

/** Months each timed embargo runs, counted from the award date (ADR 020). */
export const EMBARGO_MONTHS: Record<Exclude<EmbargoChoice, "none" | "sensitive">, number> = {
  "6m": 6,
  "1y": 12,
  "2y": 24,
};

/** The longest a "patent or sensitive" embargo may run, in years after the award date. */
export const MAX_SENSITIVE_EMBARGO_YEARS = 5;

export const DEGREE_LEVELS = ["masters", "doctoral"] as const;
export type DegreeLevel = (typeof DEGREE_LEVELS)[number];
export const DEGREE_LEVEL_LABELS: Record<DegreeLevel, string> = {
  masters: "Master's",
  doctoral: "Doctoral",
};

/** Where a "patent or sensitive" embargo stands; null for the other choices. */
export const EMBARGO_APPROVALS = ["pending", "approved", "refused"] as const;
export type EmbargoApproval = (typeof EMBARGO_APPROVALS)[number];

export const MIN_KEYWORDS = 1;
export const MAX_KEYWORDS = 10;
export const MAX_KEYWORD_LENGTH = 100;
export const MAX_SUPERVISORS = 5;
export const MAX_SUPERVISOR_NAME_LENGTH = 200;
export const MAX_DEPARTMENT_LENGTH = 200;
export const MAX_DEGREE_NAME_LENGTH = 200;
export const MAX_DEGREE_ABBREVIATION_LENGTH = 20;
export const MAX_REASON_LENGTH = 2000;
export const MAX_LICENCE_LENGTH = 50_000;
/** Lists are paged (licence versions, degrees). */
export const PUBLICATION_PAGE_SIZE = 50;

// ---------------------------------------------------------------------------------------------
// The record every reader of a published thesis shares

/** What a library, a harvester and the public pages read: one final, licensed thesis. */
export interface PublishedRecord {
  submissionId: number;
  title: string;
  abstract: string;
  /** The student's name as on the record. */
  author: { name: string };
  /** 1-10. */
  keywords: string[];
  /** ISO 639-3 code, e.g. "eng". */
  language: string;
  degree: { name: string; abbreviation: string; level: DegreeLevel };
  programme: string;
  department: string;
  /** orcid as "0000-0002-1825-0097". */
  supervisors: { name: string; orcid: string | null }[];
  /** YYYY-MM-DD. */
  examinationDate: string | null;
  /** YYYY-MM-DD. */
  awardDate: string;
  licence: { version: number; text: string };
  /** until YYYY-MM-DD; null for none. */
  embargo: { choice: EmbargoChoice; until: string | null };
  /** False while embargoed or withdrawn. */
  filesPublic: boolean;
  /** The final thesis PDF. */
  file: { fileName: string; size: number; contentType: string } | null;
  /** The repository's item address after deposit. */
  handle: string | null;
  /** ISO timestamp it became public. */
  publishedAt: string;
  /** ISO timestamp of the last change of anything public (OAI). */
  datestamp: string;
  withdrawn: { at: string; reason: string } | null;
}

// ---------------------------------------------------------------------------------------------
// Field checks

/**
 * An ORCID iD's check digit (ISO 7064 MOD 11-2 over its first 15 digits): "0"-"9" or "X".
 * https://support.orcid.org/hc/en-us/articles/360006897674
 */
export function orcidCheckDigit(first15: string): string {
  let total = 0;
  for (const char of first15) total = (total + Number(char)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? "X" : String(result);
}

/** Accepts "0000-0002-1825-0097" (also with an https://orcid.org/ prefix); its checksum must hold. */
export function normaliseOrcid(value: string): string | null {
  const bare = value
    .trim()
    .replace(/^https?:\/\/orcid\.org\//i, "")
    .toUpperCase();
  if (!/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(bare)) return null;
  const digits = bare.replaceAll("-", "");
  return orcidCheckDigit(digits.slice(0, 15)) === digits[15] ? bare : null;
}

const rowId = z.coerce.number().int().min(1).max(MAX_ROW_ID);
const trimmed = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)")
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
  }, "must be a real date");

const ORCID_SHAPE = /^(https?:\/\/orcid\.org\/)?\d{4}-\d{4}-\d{4}-\d{3}[\dXx]$/i;

/** An optional ORCID iD: empty or null is none; otherwise its shape and check digit must hold. */
export const orcidSchema = z
  .string()
  .trim()
  .nullable()
  .optional()
  .superRefine((v, ctx) => {
    if (!v) return;
    if (!ORCID_SHAPE.test(v)) {
      ctx.addIssue({ code: "custom", message: "must be an ORCID iD like 0000-0002-1825-0097" });
    } else if (normaliseOrcid(v) === null) {
      ctx.addIssue({
        code: "custom",
        message: "is not a valid ORCID iD (its check digit is wrong)",
      });
    }
  })
  .transform((v) => (v ? normaliseOrcid(v) : null));

export const supervisorSchema = z.strictObject({
  name: trimmed(MAX_SUPERVISOR_NAME_LENGTH),
  orcid: orcidSchema,
});
export type Supervisor = z.output<typeof supervisorSchema>;

export const keywordsSchema = z
  .array(trimmed(MAX_KEYWORD_LENGTH))
  .min(MIN_KEYWORDS, `needs at least ${MIN_KEYWORDS} keyword`)
  .max(MAX_KEYWORDS, `must be at most ${MAX_KEYWORDS} keywords`)
  .refine(
    (list) => new Set(list.map((k) => k.toLowerCase())).size === list.length,
    "must not repeat a keyword",
  );

export const languageSchema = z
  .string()
  .refine((v) => LANGUAGE_CODES.has(v), "must be a language from the list (ISO 639-3 code)");

export const supervisorsSchema = z
  .array(supervisorSchema)
  .min(1, "needs at least one supervisor")
  .max(MAX_SUPERVISORS, `must be at most ${MAX_SUPERVISORS} supervisors`);

// ---------------------------------------------------------------------------------------------
// Payloads: the student's part

/** What the student fills in (title and abstract are theirs already, on the submission). */
export const studentMetadataInputSchema = z.strictObject({
  keywords: keywordsSchema,
  language: languageSchema,
  supervisors: supervisorsSchema,
});
export type StudentMetadataInput = z.input<typeof studentMetadataInputSchema>;

/** The student accepts the licence version they were shown (stale versions are refused). */
export const licenceAcceptInputSchema = z.strictObject({ version: rowId });
export type LicenceAcceptInput = z.infer<typeof licenceAcceptInputSchema>;

export const embargoInputSchema = z
  .strictObject({
    choice: z.enum(EMBARGO_CHOICES),
    reason: z
      .string()
      .trim()
      .max(MAX_REASON_LENGTH, `must be at most ${MAX_REASON_LENGTH} characters`)
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.choice === "sensitive" && !value.reason) {
      ctx.addIssue({
        code: "custom",
        path: ["reason"],
        message: "is required for a patent or sensitive embargo",
      });
    }
  });
export type EmbargoInput = z.infer<typeof embargoInputSchema>;

// ---------------------------------------------------------------------------------------------
// Payloads: the school's part

/** The administrator's corrections: every field, all optional; `confirm` publishes when ready. */
export const adminMetadataInputSchema = z.strictObject({
  title: trimmed(500).optional(),
  abstract: trimmed(10_000).optional(),
  keywords: keywordsSchema.optional(),
  language: languageSchema.optional(),
  degreeId: rowId.nullable().optional(),
  department: trimmed(MAX_DEPARTMENT_LENGTH).nullable().optional(),
  supervisors: supervisorsSchema.optional(),
  examinationDate: isoDateSchema.nullable().optional(),
  awardDate: isoDateSchema.nullable().optional(),
  confirm: z.boolean().optional(),
});
export type AdminMetadataInput = z.input<typeof adminMetadataInputSchema>;

export const embargoDecisionInputSchema = z
  .strictObject({
    decision: z.enum(["approve", "refuse"]),
    /** The sensitive embargo's end (approve): at most MAX_SENSITIVE_EMBARGO_YEARS after award. */
    until: isoDateSchema.optional(),
    note: z
      .string()
      .trim()
      .max(MAX_REASON_LENGTH, `must be at most ${MAX_REASON_LENGTH} characters`)
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.decision === "approve" && !value.until) {
      ctx.addIssue({ code: "custom", path: ["until"], message: "is required to approve" });
    }
    if (value.decision === "refuse" && !value.note) {
      ctx.addIssue({ code: "custom", path: ["note"], message: "is required to refuse" });
    }
  });
export type EmbargoDecisionInput = z.infer<typeof embargoDecisionInputSchema>;

export const withdrawInputSchema = z.strictObject({
  reason: trimmed(MAX_REASON_LENGTH),
});
export type WithdrawInput = z.infer<typeof withdrawInputSchema>;

export const licenceInputSchema = z.strictObject({ text: trimmed(MAX_LICENCE_LENGTH) });
export type LicenceInput = z.infer<typeof licenceInputSchema>;

export const degreeInputSchema = z.strictObject({
  name: trimmed(MAX_DEGREE_NAME_LENGTH),
  abbreviation: trimmed(MAX_DEGREE_ABBREVIATION_LENGTH),
  level: z.enum(DEGREE_LEVELS),
  active: z.boolean().optional(),
});
export type DegreeInput = z.infer<typeof degreeInputSchema>;
export const degreeChangesSchema = degreeInputSchema.partial();
export type DegreeChanges = z.infer<typeof degreeChangesSchema>;

export const submissionIdParamsSchema = z.object({ id: rowId });
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

// ---------------------------------------------------------------------------------------------
// Views

export const degreeSchema = z.object({
  id: z.number(),
  name: z.string(),
  abbreviation: z.string(),
  level: z.enum(DEGREE_LEVELS),
  active: z.boolean(),
});
export type Degree = z.infer<typeof degreeSchema>;

export const licenceVersionSchema = z.object({
  version: z.number(),
  text: z.string(),
  createdAt: z.string(),
});
export type LicenceVersion = z.infer<typeof licenceVersionSchema>;

/** Where a publication stands, for both screens. */
export const PUBLICATION_STATES = [
  "not_final",
  "in_preparation",
  "awaiting_approval",
  "published",
  "withdrawn",
] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

export const publicationViewSchema = z.object({
  submissionId: z.number(),
  state: z.enum(PUBLICATION_STATES),
  /** The thesis is final (Pass, or corrections approved). */
  final: z.boolean(),
  title: z.string().nullable(),
  abstract: z.string().nullable(),
  keywords: z.array(z.string()),
  language: z.string().nullable(),
  degree: degreeSchema.nullable(),
  department: z.string().nullable(),
  programme: z.string(),
  supervisors: z.array(z.object({ name: z.string(), orcid: z.string().nullable() })),
  examinationDate: z.string().nullable(),
  awardDate: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  licence: z
    .object({ version: z.number(), acceptedAt: z.string(), current: z.boolean() })
    .nullable(),
  embargo: z
    .object({
      choice: z.enum(EMBARGO_CHOICES),
      reason: z.string().nullable(),
      approval: z.enum(EMBARGO_APPROVALS).nullable(),
      decisionNote: z.string().nullable(),
      until: z.string().nullable(),
    })
    .nullable(),
  filesPublic: z.boolean(),
  publishedAt: z.string().nullable(),
  withdrawn: z.object({ at: z.string(), reason: z.string() }).nullable(),
  handle: z.string().nullable(),
  /** After a deposit the school's corrections stop: the repository holds the record. */
  locked: z.boolean(),
  /** What still stands between the record and publication, in words. */
  missing: z.array(z.string()),
  /** The public page, once published. */
  publicPath: z.string().nullable(),
});
export type PublicationView = z.infer<typeof publicationViewSchema>;

export const publicationResponseSchema = z.object({ data: publicationViewSchema });
export type PublicationResponse = z.infer<typeof publicationResponseSchema>;

export const licenceVersionListResponseSchema = z.object({
  data: z.array(licenceVersionSchema),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});
export type LicenceVersionListResponse = z.infer<typeof licenceVersionListResponseSchema>;
export const licenceVersionResponseSchema = z.object({ data: licenceVersionSchema });
export const currentLicenceResponseSchema = z.object({ data: licenceVersionSchema.nullable() });
export type CurrentLicenceResponse = z.infer<typeof currentLicenceResponseSchema>;

export const degreeListResponseSchema = z.object({
  data: z.array(degreeSchema),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});
export type DegreeListResponse = z.infer<typeof degreeListResponseSchema>;
export const degreeResponseSchema = z.object({ data: degreeSchema });

/** The public page of a published thesis (served by server/publication/public*.ts). */
export function publicThesisPath(submissionId: number): string {
  return `/theses/${submissionId}`;
}

/** The embargo's end: the award date plus the choice's months (null for none and sensitive). */
export function embargoUntil(choice: EmbargoChoice, awardDate: string | null): string | null {
  if (choice === "none" || choice === "sensitive" || awardDate === null) return null;
  return addMonths(awardDate, EMBARGO_MONTHS[choice]);
}

/** YYYY-MM-DD plus n months; the 31st lands on the month's last day (31 Aug + 6m = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}
