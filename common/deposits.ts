import { z } from "zod";
import { MAX_ROW_ID } from "./api.js";

/**
 * The SWORD deposit of a published thesis to the institutional repository (issue 20,
 * docs/decisions/026-library-exports-and-deposit.md): its state as the administrator sees it,
 * and the payloads that ask for one or many.
 */

export const DEPOSIT_STATES = ["queued", "depositing", "deposited", "failed"] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];

export const DEPOSIT_STATE_LABELS: Record<DepositState, string> = {
  queued: "Queued",
  depositing: "Depositing",
  deposited: "Deposited",
  failed: "Failed",
};

/** The most theses one bulk request may deposit. */
export const MAX_BULK_DEPOSIT = 100;
/** Deposit lists are paged. */
export const DEPOSIT_PAGE_SIZE = 50;

export const depositViewSchema = z.object({
  indexNumber: z.string(),
  studentName: z.string(),
  state: z.enum(DEPOSIT_STATES),
  attempts: z.number().int(),
  /** When the next attempt is due (queued), else null. */
  nextAttemptAt: z.string().nullable(),
  /** Why the last attempt failed, in the repository's or the network's words; null after success. */
  lastError: z.string().nullable(),
  /** The repository's address for the item, once deposited. */
  handle: z.string().nullable(),
  requestedAt: z.string(),
  depositedAt: z.string().nullable(),
});
export type DepositView = z.infer<typeof depositViewSchema>;

export const depositResponseSchema = z.object({
  data: z.object({
    /** Whether REPOSITORY_SWORD_URL is set: without it nothing can be deposited. */
    configured: z.boolean(),
    deposit: depositViewSchema.nullable(),
  }),
});
export type DepositResponse = z.infer<typeof depositResponseSchema>;

const indexNumber = z
  .string()
  .trim()
  .min(1, "is required")
  .max(40, "must be at most 40 characters");

export const bulkDepositInputSchema = z.strictObject({
  indexNumbers: z
    .array(indexNumber)
    .min(1, "needs at least one thesis")
    .max(MAX_BULK_DEPOSIT, `must be at most ${MAX_BULK_DEPOSIT} theses at a time`),
});
export type BulkDepositInput = z.infer<typeof bulkDepositInputSchema>;

export const bulkDepositResponseSchema = z.object({
  data: z.object({
    queued: z.array(depositViewSchema),
    /** Theses that could not be queued and why (capped like every error list). */
    refused: z.array(z.object({ indexNumber: z.string(), reason: z.string() })),
  }),
});
export type BulkDepositResponse = z.infer<typeof bulkDepositResponseSchema>;

export const depositListQuerySchema = z.object({
  state: z.enum(DEPOSIT_STATES).optional(),
  /** The last id of the page before (keyset paging). */
  after: z.coerce.number().int().min(0).max(MAX_ROW_ID).optional(),
});

export const depositListResponseSchema = z.object({
  data: z.array(depositViewSchema.extend({ id: z.number().int() })),
  /** Pass as `after` for the next page; null on the last page. */
  next: z.number().int().nullable(),
});
export type DepositListResponse = z.infer<typeof depositListResponseSchema>;
