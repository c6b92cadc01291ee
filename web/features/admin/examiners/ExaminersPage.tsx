import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import type { ExaminerRecord } from "../../../../common/examiners.js";
import {
  EXAMINER_KINDS,
  EXAMINER_KIND_LABELS,
  EXAMINER_PAGE_SIZE,
  type ExaminerKind,
} from "../../../../common/examiners-constants.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { Loading } from "../../../components/ui/Loading.js";
import { messageFor } from "../../../lib/form-errors.js";
import { DebouncedInput } from "../components/DebouncedInput.js";
import { LoadError } from "../components/LoadError.js";
import { useExaminers } from "./api/get-examiners.js";
import { useUpdateExaminer } from "./api/update-examiner.js";
import { ExaminerFormDialog } from "./components/ExaminerFormDialog.js";
import "./examiners.css";

type Feedback = { tone: "success" | "error"; text: string };
type Editing = { examiner?: ExaminerRecord };
const ACTIVE_CHOICES = [
  { value: "true", label: "Active" },
  { value: "false", label: "Deactivated" },
  { value: "all", label: "All" },
] as const;
type ActiveChoice = (typeof ACTIVE_CHOICES)[number]["value"];

function readKind(value: string | null): ExaminerKind | undefined {
  return EXAMINER_KINDS.find((kind) => kind === value);
}
function readActive(value: string | null): ActiveChoice {
  return ACTIVE_CHOICES.find((choice) => choice.value === value)?.value ?? "true";
}
function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * The school's examiners (issue 9): searched as you type, filtered by kind and status, paged by
 * the server, with the search and page in the address so Back returns to the same rows. Adding
 * and editing happen in a dialog over the list; deactivating asks first, since a deactivated
 * examiner is no longer offered for nomination.
 */
export function ExaminersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const kind = readKind(params.get("kind"));
  const active = readActive(params.get("active"));
  const page = readPage(params.get("page"));
  const list = useExaminers({
    q: q || undefined,
    kind,
    active,
    page,
    pageSize: EXAMINER_PAGE_SIZE,
  });
  const update = useUpdateExaminer();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirming, setConfirming] = useState<ExaminerRecord | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  // The search box is focused on arrival (DESIGN: the administrator's list).
  useEffect(() => {
    searchRef.current?.focus();
  }, []);

  const change = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        // A new search or filter starts from the first page.
        if (!("page" in changes)) next.delete("page");
        return next;
      },
      { replace: "q" in changes },
    );

  const setActive = (examiner: ExaminerRecord, nowActive: boolean) => {
    setFeedback(null);
    update.mutate(
      { id: examiner.id, changes: { active: nowActive } },
      {
        onSuccess: () => {
          setConfirming(null);
          setFeedback({
            tone: "success",
            text: nowActive
              ? `${examiner.name} is offered for nomination again.`
              : `${examiner.name} has been deactivated and is no longer offered for nomination.`,
          });
        },
        onError: (error) => {
          setConfirming(null);
          setFeedback({
            tone: "error",
            text: `${messageFor(error, "We could not reach the server.")} ${examiner.name} was not ${nowActive ? "reactivated" : "deactivated"}; try again.`,
          });
        },
      },
    );
  };

  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? EXAMINER_PAGE_SIZE;
  const shownPage = list.data?.page ?? page;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (shownPage - 1) * pageSize + 1;
  const last = Math.min(total, shownPage * pageSize);
  const filtered = Boolean(q || kind || active !== "true");

  return (
    <section aria-labelledby="examiners-title" className="examiners-page">
      <header className="page__header">
        <h1 id="examiners-title">Examiners</h1>
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setFeedback(null);
            setEditing({});
          }}
        >
          Add an examiner
        </button>
      </header>
      <p className="muted">
        The school’s list of examiners. Nominate them from a submission’s details; deactivated
        examiners are kept with their past examinations but no longer offered.
      </p>

      <div className="examiners-filters">
        <div className="field examiners-filters__search">
          <label htmlFor="examiners-search">Search by name, email or institution</label>
          <DebouncedInput
            id="examiners-search"
            ref={searchRef}
            type="search"
            className="input"
            autoComplete="off"
            value={q}
            onCommit={(value) => change({ q: value.trim() || null })}
          />
        </div>
        <div className="field">
          <label htmlFor="examiners-kind">Kind</label>
          <select
            id="examiners-kind"
            value={kind ?? ""}
            onChange={(event) => change({ kind: event.target.value || null })}
          >
            <option value="">Internal and external</option>
            {EXAMINER_KINDS.map((value) => (
              <option key={value} value={value}>
                {EXAMINER_KIND_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="examiners-active">Status</label>
          <select
            id="examiners-active"
            value={active}
            onChange={(event) =>
              change({ active: event.target.value === "true" ? null : event.target.value })
            }
          >
            {ACTIVE_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <p className="examiners-count" role="status" aria-live="polite">
        {list.isPending || list.isError
          ? ""
          : total === 0
            ? ""
            : `Showing ${first}–${last} of ${total} ${total === 1 ? "examiner" : "examiners"}`}
        {list.isFetching && list.isPlaceholderData ? (
          <span className="muted"> · Updating…</span>
        ) : null}
      </p>

      {feedback ? (
        <Alert tone={feedback.tone}>
          <p>{feedback.text}</p>
        </Alert>
      ) : null}

      {list.isPending ? (
        <Loading label="Loading the examiners…" />
      ) : list.isError ? (
        <LoadError error={list.error} what="the examiners" onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <div className="empty">
          {filtered ? (
            <p>
              No examiner matches {q ? `“${q}”` : "these filters"}. Check the spelling, or{" "}
              <button
                type="button"
                className="button button--link"
                onClick={() => change({ q: null, kind: null, active: null })}
              >
                clear the search and filters
              </button>
              .
            </p>
          ) : (
            <p>
              No examiner is on the list yet. Add the first one with “Add an examiner”; you can then
              nominate them from a submission’s details.
            </p>
          )}
        </div>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table examiners-table">
              <caption className="visually-hidden">
                Examiners, page {shownPage} of {pageCount}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Institution</th>
                  <th scope="col">Email</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Open examinations</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((examiner) => (
                  <tr key={examiner.id}>
                    <th scope="row">{examiner.name}</th>
                    <td>{examiner.institution}</td>
                    <td className="examiners-table__email">
                      <a href={`mailto:${examiner.email}`}>{examiner.email}</a>
                    </td>
                    <td>{EXAMINER_KIND_LABELS[examiner.kind]}</td>
                    <td>{examiner.openExaminations}</td>
                    <td>
                      <span className={examiner.active ? "chip chip--green" : "chip chip--red"}>
                        <span aria-hidden="true">{examiner.active ? "✓" : "✗"}</span>
                        {examiner.active ? "Active" : "Deactivated"}
                      </span>
                    </td>
                    <td>
                      <div className="examiners-table__actions">
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          onClick={() => {
                            setFeedback(null);
                            setEditing({ examiner });
                          }}
                          aria-label={`Edit ${examiner.name}`}
                        >
                          Edit
                        </button>
                        {examiner.active ? (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            disabled={update.isPending}
                            onClick={() => setConfirming(examiner)}
                            aria-label={`Deactivate ${examiner.name}`}
                          >
                            Deactivate
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            disabled={update.isPending}
                            onClick={() => setActive(examiner, true)}
                            aria-label={`Reactivate ${examiner.name}`}
                          >
                            Reactivate
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pageCount > 1 ? (
            <nav className="pagination" aria-label="Pages">
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={shownPage <= 1}
                onClick={() => change({ page: shownPage - 1 === 1 ? null : String(shownPage - 1) })}
              >
                Previous
              </button>
              <span>
                Page {shownPage} of {pageCount}
              </span>
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={shownPage >= pageCount}
                onClick={() => change({ page: String(shownPage + 1) })}
              >
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}

      {editing ? (
        <ExaminerFormDialog
          examiner={editing.examiner}
          defaultKind={kind}
          onClose={() => setEditing(null)}
          onSaved={(saved, added) => {
            setEditing(null);
            setFeedback({
              tone: "success",
              text: added
                ? `${saved.name} has been added as an ${EXAMINER_KIND_LABELS[saved.kind].toLowerCase()} examiner.`
                : `${saved.name}’s details have been saved.`,
            });
          }}
        />
      ) : null}

      {confirming ? (
        <ConfirmDialog
          title={`Deactivate ${confirming.name}?`}
          confirmLabel="Deactivate"
          tone="danger"
          busy={update.isPending}
          onConfirm={() => setActive(confirming, false)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            {confirming.name} will no longer be offered when nominating examiners. Examinations
            already under way are not changed
            {confirming.openExaminations > 0
              ? ` (${confirming.openExaminations} open at the moment)`
              : ""}
            . You can reactivate them later.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
