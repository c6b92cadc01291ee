import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ExaminerAssignment, ExaminerReportFields } from "../../../common/examiners.js";
import { ApiError } from "../../lib/api-client.js";
import { assignmentKey } from "./api/assignment.js";
import { LinkRefusedError } from "./api/examiner-request.js";
import { ReportUploadError, uploadReport, type ReportUploadHandle } from "./api/upload-report.js";

/** sending (with progress) → checking (the server scans and reads it) → done; or cancelled, failed. */
export type ReportUploadState =
  | { phase: "idle" }
  | { phase: "sending"; file: File; sent: number; size: number }
  | { phase: "checking"; file: File }
  | { phase: "cancelled"; file: File }
  | { phase: "failed"; message: string; canRetry: boolean };

export function useReportUpload(
  token: string,
  onUploaded: (assignment: ExaminerAssignment) => void,
) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ReportUploadState>({ phase: "idle" });
  const current = useRef<ReportUploadHandle | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const send = useCallback(
    (fields: ExaminerReportFields, file: File) => {
      if (current.current) return;
      setState({ phase: "sending", file, sent: 0, size: file.size });
      const handle = uploadReport(token, fields, file, {
        onProgress: (sent, size) =>
          setState((s) => (s.phase === "sending" && s.file === file ? { ...s, sent, size } : s)),
        onSent: () =>
          setState((s) =>
            s.phase === "sending" && s.file === file ? { phase: "checking", file } : s,
          ),
      });
      current.current = handle;
      handle.result.then(
        (assignment) => {
          if (current.current !== handle) return;
          current.current = null;
          setState({ phase: "idle" });
          queryClient.setQueryData(assignmentKey(token), assignment);
          onUploaded(assignment);
        },
        (error: unknown) => {
          if (current.current !== handle) return;
          current.current = null;
          if (error instanceof DOMException && error.name === "AbortError") {
            setState({ phase: "cancelled", file });
            return;
          }
          if (
            error instanceof LinkRefusedError ||
            (error instanceof ApiError && error.status === 409)
          ) {
            // The link stopped working, or a report is already in: the page shows where things stand.
            void queryClient.invalidateQueries({ queryKey: assignmentKey(token) });
          }
          setState({
            phase: "failed",
            message:
              error instanceof ApiError
                ? error.message
                : `${file.name} could not be uploaded. Try again.`,
            canRetry: canRetry(error),
          });
        },
      );
    },
    [token, queryClient, onUploaded],
  );

  const cancel = useCallback(() => current.current?.abort(), []);
  return { state, send, cancel };
}

/** A dropped connection, a busy scanner or a rate limit: the same file may go through later. */
function canRetry(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.isNetworkError) return true;
  if (error instanceof ReportUploadError && error.reason === "scanner_unavailable") return true;
  return error.status === 429 || error.status === 503;
}
