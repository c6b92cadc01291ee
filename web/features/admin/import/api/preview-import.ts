import { useMutation } from "@tanstack/react-query";
import type { ImportPreview } from "../../../../../common/submissions-api.js";
import { api } from "../../../../lib/api-client.js";

/** POST /api/admin/import/preview (multipart `file`): what applying the file would do; nothing changes. */
export function previewImport(file: File) {
  const body = new FormData();
  body.append("file", file);
  return api.post<ImportPreview>("/admin/import/preview", body);
}

export function usePreviewImport() {
  return useMutation({ mutationFn: previewImport });
}
