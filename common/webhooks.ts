import { z } from "zod";

/**
 * Signed webhooks (issue 21, docs/decisions/023-webhooks.md): the event types an endpoint can
 * choose, and the payloads of the administrators' webhooks page.
 */
export const WEBHOOK_EVENT_TYPES = [
  "submission.created",
  "submission.stage_changed",
  "document.received",
  "document.returned",
  "examiner.state_changed",
  "outcome.released",
  "thesis.published",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "submission.created": "Submission created",
  "submission.stage_changed": "Stage changed",
  "document.received": "Document received",
  "document.returned": "Document returned",
  "examiner.state_changed": "Examiner state changed",
  "outcome.released": "Outcome released",
  "thesis.published": "Thesis published",
};

/** The longest endpoint address accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;
/** Most rows on one page of the endpoints list or a delivery log. */
export const WEBHOOK_PAGE_SIZE = 20;

export const newWebhookSchema = z.object({
  url: z
    .string({ error: "Enter the endpoint's address." })
    .trim()
    .min(1, "Enter the endpoint's address.")
    .max(MAX_WEBHOOK_URL_LENGTH, `An address is at most ${MAX_WEBHOOK_URL_LENGTH} characters.`),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: "is not an event this server sends" }), {
      error: "Choose at least one event.",
    })
    .min(1, "Choose at least one event.")
    .max(WEBHOOK_EVENT_TYPES.length, "Each event can be chosen once."),
  active: z.boolean({ error: "must be true or false" }).default(true),
});
export type NewWebhook = z.input<typeof newWebhookSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  active: z.boolean(),
  createdAt: z.string(),
  /** How its deliveries stand: waiting, and given up on. */
  pending: z.number().int(),
  failed: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({
  items: z.array(webhookEndpointSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

export const createdWebhookSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  endpoint: webhookEndpointSchema,
  /** The signing secret: shown this once, never again. */
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookAttemptSchema = z.object({
  at: z.string(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string(),
  type: z.string(),
  submissionId: z.number().int().nullable(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  redeliveryOf: z.number().int().nullable(),
  /** The latest attempts, newest first (at most WEBHOOK_ATTEMPTS_SHOWN). */
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const WEBHOOK_ATTEMPTS_SHOWN = 10;

export const webhookDeliveryListSchema = z.object({
  items: z.array(webhookDeliverySchema),
  nextBefore: z.number().int().nullable(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;
