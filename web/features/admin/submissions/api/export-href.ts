import type { EXPORT_FORMATS } from "../../../../../common/submissions-api.js";
import { withQuery } from "../../../../lib/api-client.js";

/**
 * GET /api/admin/export: the file is streamed by the server and downloaded by the browser through
 * a plain link (the session cookie goes with it), so there is no fetcher here, only the address.
 */
export function exportHref(
  format: (typeof EXPORT_FORMATS)[number],
  filters: Record<string, string | undefined>,
): string {
  return withQuery("/api/admin/export", { format, ...filters });
}
