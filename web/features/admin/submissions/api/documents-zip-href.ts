/**
 * GET /api/admin/submissions/:id/documents.zip: every current document in one file, streamed by
 * the server and saved by the browser through a plain link (the session cookie goes with it).
 */
export function documentsZipHref(submissionId: number): string {
  return `/api/admin/submissions/${submissionId}/documents.zip`;
}
