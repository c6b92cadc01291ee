import { z } from "zod";
import { DOCUMENTS } from "./workflow.js";

/**
 * Response and payload schemas shared by the server (Fastify's type provider) and the web app
 * (forms and fetchers). One schema per payload.
 */

const stepState = z.enum(["Completed", "In progress", "Pending"]);

export const submissionStatusViewSchema = z.object({
  studentName: z.string(),
  indexNumber: z.string(),
  programme: z.string(),
  contact: z.string().nullable(),
  status: z.object({
    awaitingReview: stepState,
    sentToDepartment: stepState,
    nominationsReady: stepState,
    sentToInternal: stepState,
    sentToExternal: stepState,
    internalReport: z.string(),
    externalReport: z.string(),
    thesisStatus: z.string().nullable(),
  }),
  documents: z.array(
    z.object({
      item: z.enum(DOCUMENTS),
      label: z.string(),
      submitted: z.boolean(),
      receivedOn: z.string().nullable(),
      /** Which system marked it (an API token's name, issue 21), and when; absent otherwise. */
      clearedBy: z.object({ system: z.string(), at: z.string() }).optional(),
    }),
  ),
});

export const submissionStatusResponseSchema = z.object({ data: submissionStatusViewSchema });
export type SubmissionStatusResponse = z.infer<typeof submissionStatusResponseSchema>;

/**
 * The largest id, or version, a row can have: PostgreSQL's integer column. A larger number names
 * no row, and PostgreSQL refuses a query comparing a column with it (a 500), so requests stop here.
 */
export const MAX_ROW_ID = 2_147_483_647;

export const errorBodySchema = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
