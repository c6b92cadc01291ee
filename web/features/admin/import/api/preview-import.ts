import { useMutation } from "@tanstack/react-query";
import type { ImportPreview } from "../../../../../common/submissions-api.js";
import { api, unwrap } from "../../../../lib/api-client.js";

/** POST /api/admin/import/preview (multipart `file`): what applying the file would do; nothing changes. */
export function previewImport(file: File): Promise<ImportPreview> {
  const body = new FormData();
  body.append("file", file);
  // A multipart body: the route reads it as a stream, so the contract names no body schema.
  return unwrap(api.POST("/api/admin/import/preview", { body: body as never }));
}

export function usePreviewImport() {
  return useMutation({ mutationFn: previewImport });
}
