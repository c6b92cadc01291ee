import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { DocumentSlot, DocumentVersion, SlotState } from "../../../../common/documents.js";
import { ApiError } from "../../../lib/api-client.js";
import { studentExaminationKey } from "../api/student-examination.js";
import { submissionDocumentsKey, type SubmissionDocuments } from "../api/submission-documents.js";
import { submissionStatusQuery } from "../api/submission-status.js";
import { uploadDocument, UploadError, type UploadHandle } from "../api/upload-document.js";
import { checkFileBeforeUpload } from "./file-checks.js";

/**
 * One item's upload, from choosing a file to the server's answer:
 * sending (bytes on the way, with progress) → checking (all bytes sent; the server scans the file
 * and reads the PDF) → uploaded; or cancelled, or failed with the message to show.
 */
export type UploadState =
  | { phase: "idle" }
  | { phase: "sending"; file: File; sent: number; size: number }
  | { phase: "checking"; file: File }
  | { phase: "uploaded"; file: File; version: DocumentVersion }
  | { phase: "cancelled"; file: File }
  | {
      phase: "failed";
      /** The file to send again on "Try again"; null when the browser refused it before sending. */
      retryFile: File | null;
      message: string;
    };

export function useDocumentUpload(
  indexNumber: string,
  slot: Pick<DocumentSlot, "item" | "maxBytes">,
) {
  const { item, maxBytes } = slot;
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const current = useRef<UploadHandle | null>(null);

  // Leaving the page stops the upload rather than letting it finish unseen.
  useEffect(() => () => current.current?.abort(), []);

  const send = useCallback(
    (file: File) => {
      setState({ phase: "sending", file, sent: 0, size: file.size });
      const handle = uploadDocument(
        { indexNumber, item, file },
        {
          onProgress: (sent, size) =>
            setState((s) => (s.phase === "sending" && s.file === file ? { ...s, sent, size } : s)),
          onSent: () =>
            setState((s) =>
              s.phase === "sending" && s.file === file ? { phase: "checking", file } : s,
            ),
        },
      );
      current.current = handle;
      const documentsKey = submissionDocumentsKey(indexNumber);
      handle.result.then(
        (version) => {
          if (current.current !== handle) return;
          current.current = null;
          setState({ phase: "uploaded", file, version });
          queryClient.setQueryData<SubmissionDocuments>(documentsKey, (before) =>
            before ? withNewVersion(before, version) : before,
          );
          void queryClient.invalidateQueries({ queryKey: documentsKey });
          void queryClient.invalidateQueries({
            queryKey: submissionStatusQuery(indexNumber).queryKey,
          });
          // A corrected thesis moves the corrections on to the internal examiner.
          void queryClient.invalidateQueries({ queryKey: studentExaminationKey(indexNumber) });
        },
        (error: unknown) => {
          if (current.current !== handle) return;
          current.current = null;
          if (error instanceof DOMException && error.name === "AbortError") {
            setState({ phase: "cancelled", file });
            return;
          }
          if (
            error instanceof UploadError &&
            (error.reason === "already_accepted" || error.reason === "details_missing")
          ) {
            // The page is out of date (accepted meanwhile, or the details are gone): reload it.
            void queryClient.invalidateQueries({ queryKey: documentsKey });
          }
          setState({
            phase: "failed",
            retryFile: canRetry(error) ? file : null,
            message:
              error instanceof ApiError
                ? error.message
                : `${file.name} could not be uploaded. Try again.`,
          });
        },
      );
    },
    [indexNumber, item, queryClient],
  );

  /** Checks what the browser can, then sends; a refusal names the file and sends nothing. */
  const start = useCallback(
    (file: File) => {
      if (current.current) return;
      const problem = checkFileBeforeUpload(file, { item, maxBytes });
      if (problem) setState({ phase: "failed", retryFile: null, message: problem });
      else send(file);
    },
    [item, maxBytes, send],
  );

  const refuse = useCallback((message: string) => {
    if (!current.current) setState({ phase: "failed", retryFile: null, message });
  }, []);

  const cancel = useCallback(() => current.current?.abort(), []);

  const retry = useCallback(() => {
    if (state.phase === "failed" && state.retryFile && !current.current) send(state.retryFile);
  }, [send, state]);

  return { state, start, refuse, cancel, retry };
}

/**
 * Worth sending the same file again: the connection dropped, the scanner was away, or the rate
 * limit was hit. A refused file (not a PDF, encrypted, ...) would only be refused again.
 */
function canRetry(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.isNetworkError) return true;
  if (error instanceof UploadError && error.reason === "scanner_unavailable") return true;
  return error.status === 429 || error.status === 503;
}

const SLOT_STATE_OF_REVIEW: Record<DocumentVersion["reviewState"], SlotState> = {
  pending: "with_school",
  accepted: "accepted",
  returned: "returned",
  superseded: "with_school",
};

/**
 * The documents as the server will describe them after this upload, shown at once while the
 * refetch confirms: the new version is current, the one it replaces moves to the earlier ones
 * (replaced before review if nobody had decided on it yet).
 */
export function withNewVersion(
  documents: SubmissionDocuments,
  version: DocumentVersion,
): SubmissionDocuments {
  return {
    ...documents,
    items: documents.items.map((slot) => {
      if (slot.item !== version.item) return slot;
      const replaced = slot.current
        ? [
            slot.current.reviewState === "pending"
              ? { ...slot.current, reviewState: "superseded" as const }
              : slot.current,
          ]
        : [];
      return {
        ...slot,
        state: SLOT_STATE_OF_REVIEW[version.reviewState],
        current: version,
        earlier: [...replaced, ...slot.earlier],
      };
    }),
  };
}
