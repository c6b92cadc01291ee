import type { ReactNode, Ref } from "react";
import type { Examination } from "../../../../../common/examiners.js";
import {
  EXAMINATION_STATE_LABELS,
  EXAMINER_KIND_LABELS,
  RECOMMENDATION_LABELS,
  type ExaminerKind,
} from "../../../../../common/examiners-constants.js";
import { FactList } from "../../../../components/ui/FactList.js";
import { formatDate, formatDateTime } from "../../../../lib/format.js";
import { versionFacts, versionFlags } from "../../submissions/lib/document-review.js";
import {
  EXAMINATION_STATE_ICONS,
  EXAMINATION_STATE_TONES,
  dueInWords,
  formatDay,
  reminderWhy,
} from "../lib/examination.js";
import { DueDateForm } from "./DueDateForm.js";

export type RoleAction = "nominate" | "replace" | "resend" | "revoke" | "remind";

/**
 * One role of the examination (internal or external): who is nominated, where their examination
 * stands, the due date (editable while the report is awaited), the reminders sent, the report when
 * it is in, and the actions that fit the state. With nobody nominated, it says so and offers to
 * nominate.
 */
export function ExaminationRole({
  submissionId,
  role,
  examination,
  headingRef,
  busy,
  canReplace,
  picker,
  onAction,
  onAnnounce,
}: {
  submissionId: number;
  role: ExaminerKind;
  examination: Examination | null;
  headingRef: Ref<HTMLHeadingElement>;
  busy: boolean;
  /** Until the outcome is released, an examiner can be replaced (even after their report). */
  canReplace: boolean;
  /** The nomination picker, when it is open for this role. */
  picker: ReactNode;
  onAction: (action: RoleAction) => void;
  onAnnounce: (message: string) => void;
}) {
  const roleWord = EXAMINER_KIND_LABELS[role].toLowerCase();
  const title = `${EXAMINER_KIND_LABELS[role]} examiner`;
  const state = examination?.state;
  const sent = Boolean(examination?.sentAt);
  const reportIn = Boolean(examination?.report);
  const linkLive = sent && !examination?.linkRevokedAt;

  return (
    <li className="examination-role" data-state={state ?? "none"}>
      <div className="examination-role__head">
        <h4 ref={headingRef} tabIndex={-1} className="examination-role__title">
          {title}
        </h4>
        {state ? (
          <span className={`chip ${EXAMINATION_STATE_TONES[state]}`}>
            <span aria-hidden="true">{EXAMINATION_STATE_ICONS[state]}</span>
            {EXAMINATION_STATE_LABELS[state]}
          </span>
        ) : (
          <span className="chip chip--red">
            <span aria-hidden="true">✗</span>
            Not nominated
          </span>
        )}
      </div>

      {examination ? (
        <>
          <p className="examination-role__who">
            <span className="examination-role__name">{examination.examiner.name}</span>
            <span className="muted"> · {examination.examiner.institution}</span>
            <br />
            <a href={`mailto:${examination.examiner.email}`}>{examination.examiner.email}</a>
          </p>
          <FactList
            className="details-list examination-facts"
            facts={[
              { label: "Nominated", value: formatDate(examination.nominatedAt) },
              {
                label: "Link sent",
                value: examination.sentAt ? (
                  formatDate(examination.sentAt)
                ) : (
                  <span className="muted">Not sent yet</span>
                ),
              },
              examination.dueOn
                ? {
                    label: "Due",
                    value: (
                      <>
                        {formatDay(examination.dueOn)}
                        {reportIn ? null : (
                          <span className="muted"> ({dueInWords(examination.dueOn)})</span>
                        )}
                      </>
                    ),
                  }
                : null,
              sent
                ? {
                    label: "Received",
                    value: examination.receivedAt ? (
                      formatDate(examination.receivedAt)
                    ) : (
                      <span className="muted">Thesis not downloaded yet</span>
                    ),
                  }
                : null,
              sent
                ? {
                    label: "Last opened",
                    value: examination.lastOpenedAt ? (
                      formatDateTime(examination.lastOpenedAt)
                    ) : (
                      <span className="muted">Never</span>
                    ),
                  }
                : null,
              examination.linkRevokedAt
                ? {
                    label: "Link",
                    value: `Revoked ${formatDateTime(examination.linkRevokedAt)}`,
                  }
                : examination.linkExpiresAt
                  ? { label: "Link", value: `Works until ${formatDate(examination.linkExpiresAt)}` }
                  : null,
            ]}
          />

          {examination.dueOn && !reportIn ? (
            <DueDateForm
              key={examination.dueOn}
              submissionId={submissionId}
              examination={examination}
              roleWord={roleWord}
              onSaved={onAnnounce}
            />
          ) : null}

          {sent ? (
            <div className="examination-reminders">
              {examination.reminders.length === 0 ? (
                <p className="muted">No reminder sent yet.</p>
              ) : (
                <details>
                  <summary>
                    Reminders sent: {examination.reminders.length}
                    <span className="visually-hidden"> to the {roleWord} examiner</span>
                  </summary>
                  <ol>
                    {examination.reminders.map((reminder) => (
                      <li key={reminder.sentAt}>
                        {formatDateTime(reminder.sentAt)}, {reminderWhy(reminder)}
                      </li>
                    ))}
                  </ol>
                </details>
              )}
            </div>
          ) : null}

          {examination.report ? <ReportFacts role={role} report={examination.report} /> : null}
        </>
      ) : (
        <p className="muted">No {roleWord} examiner is nominated yet.</p>
      )}

      {picker ?? (
        <div className="examination-role__actions">
          {!examination ? (
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => onAction("nominate")}
              aria-label={`Nominate the ${roleWord} examiner`}
            >
              Nominate
            </button>
          ) : null}
          {examination && canReplace ? (
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={busy}
              onClick={() => onAction("replace")}
              aria-label={`Replace the ${roleWord} examiner`}
            >
              Replace
            </button>
          ) : null}
          {linkLive && !reportIn ? (
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={busy}
              onClick={() => onAction("remind")}
              aria-label={`Send a reminder to the ${roleWord} examiner`}
            >
              Send a reminder
            </button>
          ) : null}
          {sent ? (
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={busy}
              onClick={() => onAction("resend")}
              aria-label={`Send the link again to the ${roleWord} examiner`}
            >
              Send the link again
            </button>
          ) : null}
          {linkLive ? (
            <button
              type="button"
              className="button button--danger button--small"
              disabled={busy}
              onClick={() => onAction("revoke")}
              aria-label={`Revoke the links of the ${roleWord} examiner`}
            >
              Revoke links
            </button>
          ) : null}
        </div>
      )}
    </li>
  );
}

function ReportFacts({
  role,
  report,
}: {
  role: ExaminerKind;
  report: NonNullable<Examination["report"]>;
}) {
  const roleWord = EXAMINER_KIND_LABELS[role].toLowerCase();
  const flags = versionFlags(report);
  return (
    <div className="examination-report">
      <p className="examination-report__recommendation">
        Recommends: <strong>{RECOMMENDATION_LABELS[report.recommendation]}</strong>
      </p>
      <p className="examination-report__file">
        <span className="examination-report__name">{report.fileName}</span>
        <br />
        <span className="muted">{versionFacts(report)}</span>
      </p>
      {flags.length > 0 ? (
        <ul className="review-version__flags" aria-label="Warnings">
          {flags.map((flag) => (
            <li key={flag} className="chip chip--red">
              <span aria-hidden="true">⚠</span>
              {flag}
            </li>
          ))}
        </ul>
      ) : null}
      {report.note ? (
        <div className="examination-report__note">
          <p>Note to the school:</p>
          <blockquote>{report.note}</blockquote>
        </div>
      ) : null}
      <a
        className="button button--secondary button--small"
        href={report.href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Open report of the ${roleWord} examiner (PDF, opens in a new tab)`}
      >
        Open report
      </a>
    </div>
  );
}
