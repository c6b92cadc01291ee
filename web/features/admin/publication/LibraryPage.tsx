import { useId, useState, type FormEvent } from "react";
import {
  DEPOSIT_STATES,
  DEPOSIT_STATE_LABELS,
  MAX_BULK_DEPOSIT,
  type BulkDepositResponse,
  type DepositState,
} from "../../../../common/deposits.js";
import { Alert } from "../../../components/ui/Alert.js";
import { Loading } from "../../../components/ui/Loading.js";
import { messageFor } from "../../../lib/form-errors.js";
import { formatDateTime } from "../../../lib/format.js";
import { LoadError } from "../components/LoadError.js";
import {
  EXPORT_FORMAT_LIST,
  EXPORT_LABELS,
  awardedExportUrl,
  useBulkDeposit,
  useDeposits,
  type ExportFormat,
} from "./library-api.js";
import "./library.css";

/**
 * The library's page (issue 20, items 3 and 4; ADR 026): every thesis awarded in a date range
 * exported at once, a selection of theses deposited at once, and the deposits with their state.
 */
export function LibraryPage() {
  return (
    <section aria-labelledby="library-title">
      <h1 id="library-title">Library: exports and deposits</h1>
      <BulkExport />
      <BulkDeposit />
      <Deposits />
    </section>
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function BulkExport() {
  const id = useId();
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [format, setFormat] = useState<ExportFormat>("saf");
  const [error, setError] = useState<{ field: "from" | "to"; message: string } | null>(null);
  const [href, setHref] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setHref(null);
    if (!DATE.test(from)) return setError({ field: "from", message: "Give the first award date." });
    if (!DATE.test(to)) return setError({ field: "to", message: "Give the last award date." });
    if (from > to) {
      return setError({
        field: "to",
        message: "The last award date must be on or after the first.",
      });
    }
    setError(null);
    const url = awardedExportUrl(format, from, to);
    setHref(url);
    // A plain navigation: the browser streams the file to disk as the server writes it.
    window.location.assign(url);
  };

  const fieldProps = (field: "from" | "to") =>
    error?.field === field
      ? { "aria-invalid": true as const, "aria-describedby": `${id}-${field}-error` }
      : {};

  return (
    <section className="card publication__part" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Export by award date</h2>
      <p className="muted">
        Every published thesis awarded in the range, files included (embargoed files are marked for
        the library to hold back). Withdrawn theses are left out.
      </p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className="library__range">
          <div className={error?.field === "from" ? "field field--error" : "field"}>
            <label htmlFor={`${id}-from`}>First award date</label>
            <input
              id={`${id}-from`}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              {...fieldProps("from")}
            />
            {error?.field === "from" ? (
              <p id={`${id}-from-error`} className="field__error">
                {error.message}
              </p>
            ) : null}
          </div>
          <div className={error?.field === "to" ? "field field--error" : "field"}>
            <label htmlFor={`${id}-to`}>Last award date</label>
            <input
              id={`${id}-to`}
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              {...fieldProps("to")}
            />
            {error?.field === "to" ? (
              <p id={`${id}-to-error`} className="field__error">
                {error.message}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>Format</label>
            <select
              id={`${id}-format`}
              value={format}
              onChange={(e) => setFormat(e.target.value as ExportFormat)}
            >
              {EXPORT_FORMAT_LIST.map((f) => (
                <option key={f} value={f}>
                  {EXPORT_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="publication__actions">
          <button type="submit" className="button">
            Download the export
          </button>
        </div>
        {href ? (
          <p role="status">
            The download has started. If it did not, <a href={href}>download the export</a>.
          </p>
        ) : null}
      </form>
    </section>
  );
}

function BulkDeposit() {
  const id = useId();
  const [text, setText] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [result, setResult] = useState<BulkDepositResponse["data"] | null>(null);
  const deposit = useBulkDeposit();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const indexNumbers = [
      ...new Set(
        text
          .split(/[\s,]+/)
          .map((value) => value.trim())
          .filter(Boolean),
      ),
    ];
    if (indexNumbers.length === 0) return setFieldError("Give at least one index number.");
    if (indexNumbers.length > MAX_BULK_DEPOSIT) {
      return setFieldError(`Give at most ${MAX_BULK_DEPOSIT} index numbers at a time.`);
    }
    setFieldError(null);
    deposit.mutate({ indexNumbers }, { onSuccess: (answer) => setResult(answer.data) });
  };

  return (
    <section className="card publication__part" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deposit several theses</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className={fieldError ? "field field--error" : "field"}>
          <label htmlFor={`${id}-numbers`}>Index numbers</label>
          <p className="field__hint" id={`${id}-hint`}>
            One per line (or separated by commas), at most {MAX_BULK_DEPOSIT}. Only published theses
            are queued.
          </p>
          <textarea
            id={`${id}-numbers`}
            rows={5}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={fieldError ? `${id}-hint ${id}-numbers-error` : `${id}-hint`}
            aria-invalid={fieldError ? true : undefined}
          />
          {fieldError ? (
            <p id={`${id}-numbers-error`} className="field__error">
              {fieldError}
            </p>
          ) : null}
        </div>
        <div className="publication__actions">
          <button type="submit" className="button" disabled={deposit.isPending}>
            Queue the deposits
          </button>
        </div>
      </form>
      {deposit.isError ? (
        <Alert tone="error">
          {messageFor(deposit.error, "The deposits could not be queued. Please try again.")}
        </Alert>
      ) : null}
      {result ? (
        <Alert tone={result.refused.length > 0 ? "warning" : "success"} title="Deposits queued">
          <p>
            {result.queued.length} queued
            {result.refused.length > 0 ? `, ${result.refused.length} refused:` : "."}
          </p>
          {result.refused.length > 0 ? (
            <ul>
              {result.refused.map((r) => (
                <li key={r.indexNumber}>
                  {r.indexNumber}: {r.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
    </section>
  );
}

function Deposits() {
  const id = useId();
  const [state, setState] = useState<DepositState | "">("");
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const after = pages[pages.length - 1] ?? null;
  const list = useDeposits(state, after);

  return (
    <section className="card publication__part" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deposits</h2>
      <div className="field">
        <label htmlFor={`${id}-state`}>Show</label>
        <select
          id={`${id}-state`}
          value={state}
          onChange={(e) => {
            setState(e.target.value as DepositState | "");
            setPages([null]);
          }}
        >
          <option value="">All deposits</option>
          {DEPOSIT_STATES.map((s) => (
            <option key={s} value={s}>
              {DEPOSIT_STATE_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {list.isPending ? (
        <Loading label="Loading the deposits..." />
      ) : list.isError ? (
        <LoadError error={list.error} what="the deposits" onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <p className="muted">No deposits here.</p>
      ) : (
        <div className="library__table-wrap" tabIndex={0} aria-labelledby={`${id}-title`}>
          <table className="library__table">
            <thead>
              <tr>
                <th scope="col">Index number</th>
                <th scope="col">Student</th>
                <th scope="col">State</th>
                <th scope="col">Repository address or last error</th>
                <th scope="col">Requested</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((d) => (
                <tr key={d.id}>
                  <td>{d.indexNumber}</td>
                  <td>{d.studentName}</td>
                  <td>
                    {DEPOSIT_STATE_LABELS[d.state]}
                    {d.state === "queued" && d.nextAttemptAt
                      ? ` (next attempt ${formatDateTime(d.nextAttemptAt)})`
                      : ""}
                  </td>
                  <td>
                    {d.handle ? (
                      <a className="library__handle" href={d.handle}>
                        {d.handle}
                      </a>
                    ) : (
                      (d.lastError ?? "")
                    )}
                  </td>
                  <td>{formatDateTime(d.requestedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Deposit pages" className="publication__actions">
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={pages.length <= 1}
          onClick={() => setPages(pages.slice(0, -1))}
        >
          Previous page
        </button>
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!list.data?.next}
          onClick={() => list.data?.next && setPages([...pages, list.data.next])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
