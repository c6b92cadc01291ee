import { z } from "zod";
import { isoDateSchema } from "./submissions-api.js";

/**
 * API tokens (issue 21, docs/decisions/022-api-tokens.md): the scopes a token may hold, what each
 * allows in words an administrator reads, and the payloads of the token screen.
 */
export const API_TOKEN_SCOPES = [
  "submissions:read",
  "submissions:write",
  "documents:read",
  "examinations:read",
  "stats:read",
  "clearance:write",
] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  "submissions:read": "Read submissions (list, details, timeline, export)",
  "submissions:write": "Change submissions (create, edit, stage changes, import, bulk upsert)",
  "documents:read": "Download documents",
  "examinations:read": "Read examinations and examiners",
  "stats:read": "Read the dashboard's figures",
  "clearance:write": "Set a student's Financial Clearance (finance office)",
};

/** Every token this server issues starts so; a Bearer value without it is a session token. */
export const API_TOKEN_PREFIX = "ets_";

/** The longest a token may live, and the choices the screen offers. */
export const API_TOKEN_MAX_DAYS = 366;

export const apiTokenScopeSchema = z.enum(API_TOKEN_SCOPES);

export const apiTokenCreateSchema = z.object({
  name: z.string().trim().min(1, "is required").max(80, "must be at most 80 characters"),
  scopes: z
    .array(apiTokenScopeSchema)
    .min(1, "choose at least one scope")
    .max(API_TOKEN_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, "lists a scope twice"),
  expiresInDays: z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(API_TOKEN_MAX_DAYS, `must be at most ${API_TOKEN_MAX_DAYS} days`),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateSchema>;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's first characters, to tell tokens apart; never enough to use it. */
  prefix: z.string(),
  scopes: z.array(apiTokenScopeSchema),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedFrom: z.string().nullable(),
  state: z.enum(["active", "expired", "revoked"]),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const apiTokenListResponseSchema = z.object({
  items: z.array(apiTokenSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ApiTokenListResponse = z.infer<typeof apiTokenListResponseSchema>;

/** The answer to a create: the token itself, shown this once. */
export const apiTokenCreatedSchema = z.object({
  data: apiTokenSchema,
  token: z.string(),
});
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const apiTokenResponseSchema = z.object({ data: apiTokenSchema });

/** The finance office's call: cleared (with the day, today when left out) or not cleared. */
export const financialClearanceSchema = z.object({
  cleared: z.boolean(),
  clearedOn: isoDateSchema.optional(),
});
export type FinancialClearance = z.infer<typeof financialClearanceSchema>;
