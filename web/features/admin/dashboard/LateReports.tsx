import { useState } from "react";
import { Link } from "react-router";
import type { OverdueExamination } from "../../../../common/examiners.js";
import type { DashboardLateReport } from "../../../../common/submissions-api.js";
import { LATE_KNOWN_BY_LABELS } from "../../../../common/reports-constants.js";
import { EXAMINER_STATE_LABELS } from "../../../../common/workflow.js";
import {
  EXAMINATION_STATE_LABELS,
  EXAMINER_KIND_LABELS,
} from "../../../../common/examiners-constants.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { formatDateTime } from "../../../lib/format.js";
import { messageFor } from "../../../lib/form-errors.js";
import { useSendReminder } from "../examiners/api/send-reminder.js";
import { formatDay } from "../examiners/lib/examination.js";
import { submissionsListHref } from "../paths.js";

const describe = (row: OverdueExamination) =>
  `${row.examinerName} (${EXAMINER_KIND_LABELS[row.role].toLowerCase()} examiner of ${row.studentName})`;

/**
 * The one list of late examiner reports (issues 9 and 22): one definition of late (the due date
 * is before today) and, for each report, how that is known: the link's due date, or the day the
 * examiner's state was typed by hand plus the overdue setting. For a link, the reminders already
 * sent and when the examiner last opened it, and a reminder by hand, asked first since it mails the
 * examiner at once.
 */
export function LateReports({
  rows,
  total,
  overdueDays,
}: {
  rows: DashboardLateReport[];
  total: number;
  overdueDays: number;
}) {
  const remind = useSendReminder();
  const [confirming, setConfirming] = useState<OverdueExamination | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const send = (row: OverdueExamination) => {
    setAnnouncement("");
    setProblem(null);
    remind.mutate(
      { examinationId: row.examinationId, submissionId: row.submissionId },
      {
        onSuccess: (reminder) => {
          setConfirming(null);
          setAnnouncement(
            `Reminder sent to ${describe(row)} on ${formatDateTime(reminder.sentAt)}.`,
          );
        },
        onError: (error) => {
          setConfirming(null);
          setProblem(
            `No reminder was sent to ${row.examinerName}. ${messageFor(error, "We could not reach the server; try again.")}`,
          );
        },
      },
    );
  };

  return (
    <section aria-labelledby="late-reports-title" className="card dashboard-section">
      <h2 id="late-reports-title">Late examiner reports</h2>
      <p className="muted">
        Reports past their due date, the latest first
        {total > rows.length ? ` (showing ${rows.length} of ${total})` : ""}. An examiner with a
        link is due by the link&rsquo;s due date; a state typed by hand is due {overdueDays} days
        after it was typed. Reminders also go out by themselves before and after a link&rsquo;s due
        date.
      </p>
      <p role="status" aria-live="polite" className="overdue-examinations__status">
        {announcement}
      </p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      {rows.length === 0 ? (
        <p className="empty">No examiner report is past its due date. Nothing to chase today.</p>
      ) : (
        <div className="table-wrap overdue-table">
          <table className="table">
            <caption className="visually-hidden">Late examiner reports</caption>
            <thead>
              <tr>
                <th scope="col">Student</th>
                <th scope="col">Examiner</th>
                <th scope="col">Known by</th>
                <th scope="col">Due</th>
                <th scope="col">Days late</th>
                <th scope="col">Reminders sent</th>
                <th scope="col">Last reminder</th>
                <th scope="col">Last opened</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const x = row.examination;
                return (
                  <tr key={`${row.submissionId}-${row.role}-${row.knownBy}`}>
                    <td>
                      <Link
                        to={submissionsListHref({ q: row.indexNumber, open: row.submissionId })}
                      >
                        {row.studentName}
                      </Link>
                      <br />
                      <span className="muted">{row.indexNumber}</span>
                    </td>
                    <td>
                      {x ? x.examinerName : `${EXAMINER_KIND_LABELS[row.role]} examiner`}
                      <br />
                      <span className="muted">
                        {x
                          ? `${EXAMINER_KIND_LABELS[row.role]} · ${EXAMINATION_STATE_LABELS[x.state]}`
                          : EXAMINER_STATE_LABELS[row.state]}
                      </span>
                    </td>
                    <td>
                      <span className={x ? "chip" : "chip chip--amber"}>
                        {LATE_KNOWN_BY_LABELS[row.knownBy]}
                      </span>
                    </td>
                    <td>{formatDay(row.dueOn)}</td>
                    <td>
                      <strong>{row.daysLate}</strong>
                    </td>
                    <td>{x ? x.remindersSent : <span className="muted">No link</span>}</td>
                    <td>
                      {x?.lastReminderAt ? (
                        formatDateTime(x.lastReminderAt)
                      ) : (
                        <span className="muted">None</span>
                      )}
                    </td>
                    <td>
                      {x ? (
                        x.lastOpenedAt ? (
                          formatDateTime(x.lastOpenedAt)
                        ) : (
                          <span className="muted">Never</span>
                        )
                      ) : (
                        <span className="muted">No link</span>
                      )}
                    </td>
                    <td>
                      {x ? (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          disabled={remind.isPending}
                          onClick={() => {
                            setAnnouncement("");
                            setProblem(null);
                            setConfirming(x);
                          }}
                          aria-label={`Send reminder to ${describe(x)}`}
                        >
                          Send reminder
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {confirming ? (
        <ConfirmDialog
          title={`Send a reminder to ${confirming.examinerName}?`}
          confirmLabel="Send reminder"
          busy={remind.isPending}
          onConfirm={() => send(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            {confirming.examinerName} gets an email now about the report on {confirming.studentName}
            ’s thesis, due on {formatDay(confirming.dueOn)} ({confirming.daysOverdue}{" "}
            {confirming.daysOverdue === 1 ? "day" : "days"} ago).{" "}
            {confirming.remindersSent === 0
              ? "No reminder has been sent yet."
              : `${confirming.remindersSent} ${confirming.remindersSent === 1 ? "reminder was" : "reminders were"} sent already.`}{" "}
            It is recorded in the history.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
