import type { EXPORT_FORMATS } from "../../../../../common/submissions-api.js";
import { withQuery } from "../../../../lib/api-client.js";
import type { paths } from "../../../../lib/api-types.js";

/** The contract's route (web/lib/api-types.ts): renamed there, this fails the typecheck. */
const EXPORT_ROUTE = "/api/admin/export" satisfies keyof paths;

/**
 * GET /api/admin/export: the file is streamed by the server and downloaded by the browser through
 * a plain link (the session cookie goes with it), so there is no fetcher here, only the address.
 */
export function exportHref(
  format: (typeof EXPORT_FORMATS)[number],
  filters: Record<string, string | undefined>,
): string {
  return withQuery(EXPORT_ROUTE, { format, ...filters });
}
