import { formatBytes } from "../../../common/documents-constants.js";
import { ProgressBar } from "../../components/ui/ProgressBar.js";
import { formatDate } from "../../lib/format.js";
import { useThesisDownload } from "./use-thesis-download.js";

function pages(count: number): string {
  return `${count} ${count === 1 ? "page" : "pages"}`;
}

function percentOf(received: number, size: number): number {
  return size > 0 ? Math.round((received / size) * 100) : 0;
}

/**
 * The large "Download the thesis" button with the file's size and pages, a progress bar while it
 * arrives, and the outcome in words. `corrected` words it for the corrected version.
 */
export function ThesisDownload({
  token,
  file,
  corrected = false,
}: {
  token: string;
  file: { fileName: string; sizeBytes: number; pageCount: number; uploadedAt: string };
  corrected?: boolean;
}) {
  const download = useThesisDownload(token, file);
  const { state } = download;
  const what = corrected ? "the corrected thesis" : "the thesis";
  const size = formatBytes(file.sizeBytes);

  return (
    <div className="examiner__download">
      <p className="examiner__file">
        <span className="examiner__file-name">{file.fileName}</span>
        <span className="muted">
          {" "}
          · PDF · {size} · {pages(file.pageCount)} · uploaded {formatDate(file.uploadedAt)}
        </span>
      </p>
      {state.phase === "downloading" ? (
        <div className="examiner__progress">
          <ProgressBar
            label={`Downloading ${file.fileName}`}
            percent={percentOf(state.received, state.size)}
            detail={`${formatBytes(state.received)} of ${formatBytes(state.size)}`}
          />
          <button type="button" className="button button--secondary" onClick={download.cancel}>
            Cancel <span className="visually-hidden">the download</span>
          </button>
        </div>
      ) : (
        <button type="button" className="button examiner__download-button" onClick={download.start}>
          Download {what} (PDF, {size})
        </button>
      )}
      <div role="status" className="examiner__download-status">
        {state.phase === "downloading" && state.received === 0 ? `Downloading ${what}...` : null}
        {state.phase === "saved" ? `${state.fileName} is in your browser's downloads.` : null}
      </div>
      {state.phase === "failed" ? (
        <div role="alert" className="alert alert--error">
          <p>{state.message}</p>
        </div>
      ) : null}
    </div>
  );
}
