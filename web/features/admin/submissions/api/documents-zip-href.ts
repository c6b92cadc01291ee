import type { paths } from "../../../../lib/api-types.js";

/** The contract's route (web/lib/api-types.ts): renamed there, this fails the typecheck. */
const ZIP_ROUTE = "/api/admin/submissions/{id}/documents.zip" satisfies keyof paths;

/**
 * GET /api/admin/submissions/:id/documents.zip: every current document in one file, streamed by
 * the server and saved by the browser through a plain link (the session cookie goes with it).
 */
export function documentsZipHref(submissionId: number): string {
  return ZIP_ROUTE.replace("{id}", String(submissionId));
}
