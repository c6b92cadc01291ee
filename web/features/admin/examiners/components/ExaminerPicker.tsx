import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import type { ExaminerRecord } from "../../../../../common/examiners.js";
import {
  EXAMINER_KIND_LABELS,
  type ExaminerKind,
} from "../../../../../common/examiners-constants.js";
import { LoadError } from "../../components/LoadError.js";
import { adminPaths } from "../../paths.js";
import { useExaminers } from "../api/get-examiners.js";

/** How many matches the picker shows; the search narrows them further. */
const PICKER_SIZE = 8;

function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * Choosing an examiner for a role: a search field that is a combobox over the active examiners of
 * that kind (ARIA 1.2 list autocomplete). Arrow keys move through the matches while focus stays in
 * the field, Enter chooses, Escape cancels (without closing the details panel around it). The
 * matches are searched by the server, so the whole list is reachable however long it grows.
 */
export function ExaminerPicker({
  role,
  currentExaminerId,
  busy,
  onChoose,
  onCancel,
}: {
  role: ExaminerKind;
  /** The examiner in the role now, left out of the matches (choosing them again changes nothing). */
  currentExaminerId: number | null;
  busy: boolean;
  onChoose: (examiner: ExaminerRecord) => void;
  onCancel: () => void;
}) {
  const inputId = useId();
  const listId = useId();
  const hintId = useId();
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), 250);
  const [activeId, setActiveId] = useState<number | null>(null);
  const matches = useExaminers({
    q: q || undefined,
    kind: role,
    active: "true",
    page: 1,
    pageSize: PICKER_SIZE,
  });
  const items = (matches.data?.items ?? []).filter((examiner) => examiner.id !== currentExaminerId);
  const activeIndex = items.findIndex((examiner) => examiner.id === activeId);
  const kindWord = EXAMINER_KIND_LABELS[role].toLowerCase();
  const optionId = (examiner: ExaminerRecord) => `${listId}-option-${examiner.id}`;

  const move = (step: 1 | -1) => {
    if (items.length === 0) return;
    const from = activeIndex === -1 ? (step === 1 ? -1 : 0) : activeIndex;
    const next = (from + step + items.length) % items.length;
    setActiveId(items[next]!.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      move(1);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      move(-1);
    } else if (event.key === "Home" && activeIndex !== -1) {
      event.preventDefault();
      setActiveId(items[0]?.id ?? null);
    } else if (event.key === "End" && activeIndex !== -1) {
      event.preventDefault();
      setActiveId(items[items.length - 1]?.id ?? null);
    } else if (event.key === "Enter") {
      // Enter never submits a form around the picker; it chooses the highlighted match.
      event.preventDefault();
      const chosen = items[activeIndex];
      if (chosen && !busy) onChoose(chosen);
    } else if (event.key === "Escape") {
      // Marked as handled so the details panel around the picker stays open.
      event.preventDefault();
      onCancel();
    }
  };

  const found = matches.isPending
    ? "Looking for examiners…"
    : matches.isError
      ? ""
      : items.length === 0
        ? q
          ? `No active ${kindWord} examiner matches “${q}”.`
          : `No other active ${kindWord} examiner is on the list.`
        : `${items.length === 1 ? "1 examiner" : `${items.length} examiners`} shown${
            (matches.data?.total ?? 0) > PICKER_SIZE ? "; type to narrow the search" : ""
          }.`;

  return (
    <div className="examiner-picker">
      <div className="field">
        <label htmlFor={inputId}>Find an {kindWord} examiner</label>
        <div id={hintId} className="field__hint">
          Type a name, email or institution. Use the arrow keys to move through the matches and
          Enter to choose; Escape cancels.
        </div>
        <input
          id={inputId}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-activedescendant={activeIndex === -1 ? undefined : optionId(items[activeIndex]!)}
          aria-describedby={hintId}
          aria-busy={busy || matches.isFetching}
          value={text}
          disabled={busy}
          autoFocus
          onChange={(event) => {
            setText(event.target.value);
            setActiveId(null);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <p className="examiner-picker__found" role="status" aria-live="polite">
        {found}
        {!matches.isPending && !matches.isError && items.length === 0 ? (
          <>
            {" "}
            <Link to={adminPaths.examiners}>Add examiners on the Examiners page</Link>.
          </>
        ) : null}
      </p>
      {matches.isError ? (
        <LoadError
          error={matches.error}
          what="the examiners"
          onRetry={() => void matches.refetch()}
        />
      ) : null}
      <ul
        id={listId}
        role="listbox"
        aria-label={`Active ${kindWord} examiners`}
        className="examiner-picker__list"
        hidden={items.length === 0}
      >
        {items.map((examiner, index) => (
          <li
            key={examiner.id}
            id={optionId(examiner)}
            role="option"
            aria-selected={index === activeIndex}
            className="examiner-picker__option"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              if (!busy) onChoose(examiner);
            }}
          >
            <span className="examiner-picker__name">{examiner.name}</span>
            <span className="examiner-picker__detail">
              {examiner.institution} · {examiner.email} ·{" "}
              {examiner.openExaminations === 1
                ? "1 open examination"
                : `${examiner.openExaminations} open examinations`}
            </span>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onCancel}
          disabled={busy}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
