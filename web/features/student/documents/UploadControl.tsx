import { useId, useState, type DragEvent } from "react";
import { formatBytes } from "../../../../common/documents-constants.js";
import { ProgressBar } from "../../../components/ui/ProgressBar.js";
import { formatProgress, percentOf } from "./file-checks.js";
import type { UploadState } from "./use-document-upload.js";

/** The live region speaks at each quarter, not at every progress event. */
function milestone(sent: number, size: number): number {
  return Math.floor(percentOf(sent, size) / 25) * 25;
}

/**
 * The GOV.UK file upload pattern with Uppy's progress and retry: a real file input behind a
 * "Choose a PDF" button (keyboard and screen readers use the input itself), a drop zone around
 * it, then a progress bar with Cancel, and the outcome in words.
 */
export function UploadControl({
  label,
  maxBytes,
  upload,
  replacing,
  lead = null,
  canChoose,
  blockedBecause,
  onFile,
  onRefuse,
  onCancel,
  onRetry,
}: {
  /** The checklist item's name, e.g. "Turnitin report". */
  label: string;
  maxBytes: number;
  upload: UploadState;
  /** A version is already uploaded: the new file replaces it. */
  replacing: boolean;
  /** The words above the button when they are not the usual ones ("Upload your corrected thesis"). */
  lead?: string | null;
  /** The student may send a file now (false once accepted, even if an outcome is still shown). */
  canChoose: boolean;
  /** Why uploading must wait (the thesis needs its title and abstract first), or null. */
  blockedBecause: string | null;
  onFile: (file: File) => void;
  onRefuse: (message: string) => void;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const id = useId();
  const inputId = `${id}-file`;
  const hintId = `${id}-hint`;
  const [dragging, setDragging] = useState(false);
  const busy = upload.phase === "sending" || upload.phase === "checking";
  const blocked = blockedBecause !== null;

  const takeFiles = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      onRefuse(`Upload one PDF at a time: the ${label} is a single file.`);
      return;
    }
    const file = files[0];
    if (file) onFile(file);
  };

  const dragProps =
    blocked || busy
      ? {}
      : {
          onDragEnter: (event: DragEvent) => {
            event.preventDefault();
            setDragging(true);
          },
          onDragOver: (event: DragEvent) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = "copy";
          },
          onDragLeave: (event: DragEvent) => {
            // Moving over the zone's own children fires dragleave too; only leaving it counts.
            if (!event.currentTarget.contains(event.relatedTarget as Node | null))
              setDragging(false);
          },
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            setDragging(false);
            takeFiles(event.dataTransfer.files);
          },
        };

  return (
    <div className="upload">
      {upload.phase === "sending" ? (
        <div className="upload__progress">
          <ProgressBar
            label={`Uploading ${upload.file.name}`}
            percent={percentOf(upload.sent, upload.size)}
            detail={formatProgress(upload.sent, upload.size)}
          />
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel <span className="visually-hidden">the upload of {upload.file.name}</span>
          </button>
        </div>
      ) : null}

      <div role="status" className="upload__status">
        {upload.phase === "sending" ? (
          <span className="visually-hidden">
            Uploading {upload.file.name}: {milestone(upload.sent, upload.size)}% sent.
          </span>
        ) : null}
        {upload.phase === "checking" ? (
          <span className="upload__checking">
            <span className="spinner" aria-hidden="true" />
            <span>
              Checking {upload.file.name}: scanning it for viruses and reading the PDF. This can
              take a minute.
            </span>
          </span>
        ) : null}
        {upload.phase === "cancelled" ? (
          <span>Upload cancelled. {upload.file.name} was not sent.</span>
        ) : null}
        {upload.phase === "uploaded" ? (
          <span className="upload__done">
            {upload.file.name} uploaded. The school will review it.
          </span>
        ) : null}
      </div>

      {upload.phase === "failed" ? (
        <div role="alert" className="alert alert--error upload__error">
          <p>{upload.message}</p>
          {upload.retryFile ? (
            <button type="button" className="button button--secondary" onClick={onRetry}>
              Try again <span className="visually-hidden">to upload {upload.retryFile.name}</span>
            </button>
          ) : null}
        </div>
      ) : null}

      {busy || !canChoose ? null : (
        <div
          className={[
            "dropzone",
            dragging ? "dropzone--active" : "",
            blocked ? "dropzone--blocked" : "",
          ].join(" ")}
          {...dragProps}
        >
          {lead || replacing ? (
            <p className="dropzone__lead">{lead ?? "Upload a new version"}</p>
          ) : null}
          <input
            id={inputId}
            type="file"
            accept="application/pdf,.pdf"
            className="dropzone__input visually-hidden"
            disabled={blocked}
            aria-describedby={hintId}
            onChange={(event) => {
              takeFiles(event.currentTarget.files);
              // Choosing the same file again (after a cancel or a fix) must fire change again.
              event.currentTarget.value = "";
            }}
          />
          <label
            htmlFor={inputId}
            className={
              blocked
                ? "button dropzone__button dropzone__button--blocked"
                : "button dropzone__button"
            }
          >
            Choose a PDF<span className="visually-hidden"> for the {label}</span>
          </label>
          <p id={hintId} className="dropzone__hint">
            {blocked ? blockedBecause : `or drag it here. One PDF, up to ${formatBytes(maxBytes)}.`}
          </p>
        </div>
      )}
    </div>
  );
}
