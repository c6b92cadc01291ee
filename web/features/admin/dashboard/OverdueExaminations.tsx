import { useState } from "react";
import { Link } from "react-router";
import type { OverdueExamination } from "../../../../common/examiners.js";
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
 * Examiner reports past their due date (issue 9): when each was due, how late it is, the reminders
 * already sent and when the examiner last opened the link, so the school sees who to chase; and a
 * reminder by hand, asked first since it mails the examiner at once.
 */
export function OverdueExaminations({
  rows,
  total,
}: {
  rows: OverdueExamination[];
  total: number;
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
    <section aria-labelledby="overdue-examinations-title" className="card dashboard-section">
      <h2 id="overdue-examinations-title">Reports past their due date</h2>
      <p className="muted">
        Examiners who have the link and whose report is late, the latest first
        {total > rows.length ? ` (showing ${rows.length} of ${total})` : ""}. Reminders also go out
        by themselves before and after the due date.
      </p>
      <p role="status" aria-live="polite" className="overdue-examinations__status">
        {announcement}
      </p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      {rows.length === 0 ? (
        <p className="empty">No report is past its due date.</p>
      ) : (
        <div className="table-wrap overdue-table">
          <table className="table">
            <caption className="visually-hidden">Examiner reports past their due date</caption>
            <thead>
              <tr>
                <th scope="col">Student</th>
                <th scope="col">Examiner</th>
                <th scope="col">Due</th>
                <th scope="col">Days overdue</th>
                <th scope="col">Reminders sent</th>
                <th scope="col">Last reminder</th>
                <th scope="col">Last opened</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.examinationId}>
                  <td>
                    <Link to={submissionsListHref({ q: row.indexNumber, open: row.submissionId })}>
                      {row.studentName}
                    </Link>
                    <br />
                    <span className="muted">{row.indexNumber}</span>
                  </td>
                  <td>
                    {row.examinerName}
                    <br />
                    <span className="muted">
                      {EXAMINER_KIND_LABELS[row.role]} · {EXAMINATION_STATE_LABELS[row.state]}
                    </span>
                  </td>
                  <td>{formatDay(row.dueOn)}</td>
                  <td>
                    <strong>{row.daysOverdue}</strong>
                  </td>
                  <td>{row.remindersSent}</td>
                  <td>
                    {row.lastReminderAt ? (
                      formatDateTime(row.lastReminderAt)
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                  <td>
                    {row.lastOpenedAt ? (
                      formatDateTime(row.lastOpenedAt)
                    ) : (
                      <span className="muted">Never</span>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      disabled={remind.isPending}
                      onClick={() => {
                        setAnnouncement("");
                        setProblem(null);
                        setConfirming(row);
                      }}
                      aria-label={`Send reminder to ${describe(row)}`}
                    >
                      Send reminder
                    </button>
                  </td>
                </tr>
              ))}
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
