import { useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import type {
  ImportError,
  ImportPreview,
  ImportResult,
} from "../../../../common/submissions-api.js";
import { RECORD_COLUMNS } from "../../../../common/submission.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ApiError } from "../../../lib/api-client.js";
import { messageFor } from "../../../lib/form-errors.js";
import { adminPaths } from "../paths.js";
import { rejectedRows, useApplyImport } from "./api/apply-import.js";
import { usePreviewImport } from "./api/preview-import.js";
import "./import.css";

const ACCEPT =
  ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * Import a spreadsheet of submissions in two steps: check the file (a preview that changes
 * nothing, with every bad cell listed), then apply it. Applying is all or nothing.
 */
export function ImportPage() {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [applyErrors, setApplyErrors] = useState<ImportError[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const check = usePreviewImport();
  const apply = useApplyImport();

  const reset = () => {
    setPreview(null);
    setResult(null);
    setApplyErrors(null);
    setProblem(null);
  };

  const onCheck = (event: FormEvent) => {
    event.preventDefault();
    reset();
    if (!file) {
      setFileError("Choose a CSV or XLSX file to import.");
      inputRef.current?.focus();
      return;
    }
    if (!/\.(csv|xlsx)$/i.test(file.name)) {
      setFileError("The file must be a CSV or XLSX spreadsheet.");
      inputRef.current?.focus();
      return;
    }
    setFileError(null);
    check.mutate(file, {
      onSuccess: setPreview,
      onError: (error) => {
        // The file was read and refused: trying again would be refused again.
        const refusal = fileRefusal(error);
        if (refusal !== null) {
          setFileError(refusal);
          inputRef.current?.focus();
          return;
        }
        setProblem(
          `${messageFor(error, "We could not reach the server.")} The file was not checked; try again.`,
        );
      },
    });
  };

  const onApply = () => {
    if (!file) return;
    setProblem(null);
    apply.mutate(file, {
      onSuccess: (applied) => {
        setResult(applied);
        setPreview(null);
      },
      onError: (error) => {
        const rows = rejectedRows(error);
        if (rows) {
          setApplyErrors(rows);
          return;
        }
        const refusal = fileRefusal(error);
        if (refusal !== null) {
          setPreview(null);
          setFileError(`${refusal} Nothing was imported.`);
          inputRef.current?.focus();
          return;
        }
        setProblem(
          `${messageFor(error, "We could not reach the server.")} Nothing was imported; no submission was changed. Try again.`,
        );
      },
    });
  };

  const errors = applyErrors ?? preview?.errors ?? [];
  const canApply =
    preview !== null && preview.errors.length === 0 && preview.inserts + preview.updates > 0;

  return (
    <section aria-labelledby="import-title" className="import-page">
      <h1 id="import-title">Import / Export</h1>

      <div className="import-grid">
        <section aria-labelledby={`${id}-import`} className="card">
          <h2 id={`${id}-import`}>Import submissions from a spreadsheet</h2>
          <p>
            The first row names the columns, as in an export:{" "}
            <span className="import-columns">{RECORD_COLUMNS.join(", ")}</span>. StudentName,
            IndexNumber and Programme are required. A row whose IndexNumber already exists updates
            that submission.
          </p>
          <form onSubmit={onCheck} noValidate className="form">
            <div className={fileError ? "field field--error" : "field"}>
              <label htmlFor={`${id}-file`}>Spreadsheet (CSV or XLSX)</label>
              {fileError ? (
                <p id={`${id}-file-error`} className="field__error">
                  <span className="visually-hidden">Error: </span>
                  {fileError}
                </p>
              ) : null}
              <input
                ref={inputRef}
                id={`${id}-file`}
                type="file"
                accept={ACCEPT}
                aria-invalid={fileError ? true : undefined}
                aria-describedby={fileError ? `${id}-file-error` : undefined}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setFileError(null);
                  reset();
                }}
              />
            </div>
            <div className="actions">
              <button type="submit" className="button" disabled={check.isPending}>
                {check.isPending ? "Checking…" : "Check file"}
              </button>
            </div>
          </form>
        </section>

        <section aria-labelledby={`${id}-export`} className="card">
          <h2 id={`${id}-export`}>Export</h2>
          <p>
            Download every submission with the same columns. To export a filtered list, use the
            buttons on All Submissions.
          </p>
          <p className="actions">
            <a className="button button--secondary" href="/api/admin/export?format=csv" download>
              Export CSV
            </a>
            <a className="button button--secondary" href="/api/admin/export?format=xlsx" download>
              Export XLSX
            </a>
          </p>
        </section>
      </div>

      <div aria-live="polite">
        {problem ? <Alert tone="error">{problem}</Alert> : null}

        {result ? (
          <Alert tone="success" title="Import complete">
            <p>
              {result.inserted} new {result.inserted === 1 ? "submission" : "submissions"} added,{" "}
              {result.updated} updated
              {result.unchanged > 0 ? `, ${result.unchanged} unchanged` : ""}.
            </p>
            <p>
              <Link to={adminPaths.allSubmissions}>See All Submissions</Link>
            </p>
          </Alert>
        ) : null}

        {preview && preview.errors.length === 0 ? (
          <section className="card import-preview" aria-labelledby={`${id}-preview`}>
            <h2 id={`${id}-preview`}>Ready to import {file?.name}</h2>
            <ImportCounts preview={preview} />
            {canApply ? (
              <>
                <p>Applying is all or nothing: every row is imported, or none is.</p>
                <div className="actions">
                  <button
                    type="button"
                    className="button"
                    onClick={onApply}
                    disabled={apply.isPending}
                  >
                    {apply.isPending ? "Importing…" : "Apply import"}
                  </button>
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={reset}
                    disabled={apply.isPending}
                  >
                    Cancel
                  </button>
                </div>
              </>
            ) : (
              <p>This file changes nothing: every row matches what is already on file.</p>
            )}
          </section>
        ) : null}

        {errors.length > 0 ? (
          <section className="card import-preview" aria-labelledby={`${id}-errors`}>
            <h2 id={`${id}-errors`}>
              {applyErrors ? "Nothing was imported" : "This file cannot be imported yet"}
            </h2>
            {preview ? <ImportCounts preview={preview} /> : null}
            <Alert tone="error">
              <p>
                {errors.length} {errors.length === 1 ? "problem was" : "problems were"} found.
                Importing is all or nothing, so no submission {applyErrors ? "was" : "will be"}{" "}
                changed. Correct these cells in the spreadsheet, save it, and check the file again.
              </p>
            </Alert>
            <div className="table-wrap import-errors">
              <table className="table">
                <caption className="visually-hidden">Problems in the file, by row</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Column</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {errors.map((error, index) => (
                    <tr key={`${error.row}-${error.column ?? ""}-${index}`}>
                      <td>{error.row}</td>
                      <td>{error.column ?? <span className="muted">Whole row</span>}</td>
                      <td>{error.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ) : null}
      </div>
    </section>
  );
}

/**
 * What the server said about the file itself when it refused it whole (past a limit: too large,
 * too many rows or columns, a workbook that unpacks to too much): said beside the file input,
 * as a field error. Null for anything else (no answer, a fault), which is worth trying again.
 */
function fileRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 413) {
    return "The file is larger than an import reads. Save it as CSV, or split it into smaller files.";
  }
  if (error.status !== 400) return null;
  return error.fields.find((field) => field.field === "file")?.message ?? null;
}

function ImportCounts({ preview }: { preview: ImportPreview }) {
  return (
    <dl className="import-counts">
      <div>
        <dt>Rows read</dt>
        <dd>{preview.rows}</dd>
      </div>
      <div>
        <dt>New submissions</dt>
        <dd>{preview.inserts}</dd>
      </div>
      <div>
        <dt>Updates</dt>
        <dd>{preview.updates}</dd>
      </div>
      <div>
        <dt>Unchanged</dt>
        <dd>{preview.unchanged ?? 0}</dd>
      </div>
    </dl>
  );
}
