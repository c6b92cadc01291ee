import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  importRejectedSchema,
  type ImportError,
  type ImportResult,
} from "../../../../../common/submissions-api.js";
import { ApiError, api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/**
 * POST /api/admin/import/apply (multipart `file`): all or nothing. A file with any bad row is
 * refused with 400 and its errors, and no submission changes.
 */
export function applyImport(file: File): Promise<ImportResult> {
  const body = new FormData();
  body.append("file", file);
  // A multipart body: the route reads it as a stream, so the contract names no body schema.
  return unwrap(api.POST("/api/admin/import/apply", { body: body as never }));
}

export function useApplyImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyImport,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.submissions() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

/** The row errors of a refused apply, if that is what the error is. */
export function rejectedRows(error: unknown): ImportError[] | null {
  if (!(error instanceof ApiError)) return null;
  const parsed = importRejectedSchema.safeParse(error.body);
  return parsed.success ? parsed.data.errors : null;
}
