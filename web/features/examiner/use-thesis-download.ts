import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../lib/api-client.js";
import { assignmentKey } from "./api/assignment.js";
import { downloadThesis, saveFile } from "./api/download-thesis.js";
import { LinkRefusedError } from "./api/examiner-request.js";

export type DownloadState =
  | { phase: "idle" }
  | { phase: "downloading"; received: number; size: number }
  | { phase: "saved"; fileName: string }
  | { phase: "failed"; message: string };

/**
 * One download of the thesis, from the click to the file in the browser's downloads. A refused
 * link (revoked meanwhile) reloads the assignment, so the page turns into the refusal page.
 */
export function useThesisDownload(token: string, file: { fileName: string; sizeBytes: number }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<DownloadState>({ phase: "idle" });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(() => {
    if (controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    setState({ phase: "downloading", received: 0, size: file.sizeBytes });
    downloadThesis(
      token,
      { expectedName: file.fileName, expectedSize: file.sizeBytes },
      { onProgress: (received, size) => setState({ phase: "downloading", received, size }) },
      abort.signal,
    ).then(
      (downloaded) => {
        controller.current = null;
        saveFile(downloaded);
        setState({ phase: "saved", fileName: downloaded.fileName });
        // The first download marks the thesis received: the page's dates follow.
        void queryClient.invalidateQueries({ queryKey: assignmentKey(token) });
      },
      (error: unknown) => {
        controller.current = null;
        if (error instanceof DOMException && error.name === "AbortError") {
          setState({ phase: "idle" });
          return;
        }
        if (error instanceof LinkRefusedError) {
          void queryClient.invalidateQueries({ queryKey: assignmentKey(token) });
        }
        setState({
          phase: "failed",
          message:
            error instanceof ApiError
              ? error.message
              : `${file.fileName} could not be downloaded. Try again.`,
        });
      },
    );
  }, [token, file.fileName, file.sizeBytes, queryClient]);

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { state, start, cancel };
}
