import { useEffect, useId, useRef, useState } from "react";
import type { Examination, ExaminerRecord } from "../../../../common/examiners.js";
import {
  EXAMINER_KINDS,
  EXAMINER_KIND_LABELS,
  type ExaminerKind,
} from "../../../../common/examiners-constants.js";
import { SGS_STAGE_LABELS, type SgsStage } from "../../../../common/workflow.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { Loading } from "../../../components/ui/Loading.js";
import { formatDate, formatDateTime } from "../../../lib/format.js";
import { messageFor } from "../../../lib/form-errors.js";
import { LoadError } from "../components/LoadError.js";
import { useExamination, type AdminExamination } from "./api/get-examination.js";
import { useNominateExaminer } from "./api/nominate-examiner.js";
import { useRevokeLink } from "./api/revoke-link.js";
import { useSendReminder } from "./api/send-reminder.js";
import { readSendRefusal, useSendToExaminers } from "./api/send-to-examiners.js";
import { ExaminationRole, type RoleAction } from "./components/ExaminationRole.js";
import { ExaminerPicker } from "./components/ExaminerPicker.js";
import { OutcomeSection } from "./components/OutcomeSection.js";
import { formatDay } from "./lib/examination.js";
import "./examination.css";

/** A question the panel asks before an action that mails someone or stops a link. */
type Question =
  | { kind: "replace"; role: ExaminerKind; current: Examination; next: ExaminerRecord }
  | { kind: "send"; roles: ExaminerKind[] }
  | {
      kind: "skip";
      roles: ExaminerKind[] | undefined;
      names: string;
      message: string;
      skipped: SgsStage[];
    }
  | { kind: "resend"; examination: Examination }
  | { kind: "revoke"; examination: Examination }
  | { kind: "remind"; examination: Examination };

const roleWord = (role: ExaminerKind) => EXAMINER_KIND_LABELS[role].toLowerCase();

/**
 * A submission's examination in the details panel (issue 9): per role, the nominated examiner and
 * where their examination stands, with nominate/replace, the due date, reminders, the report and
 * the link's actions; "Send to examiners"; and the outcome. Every action that mails someone or
 * stops a link asks first. Results are announced in a status region, refusals in an alert, and
 * focus lands on the role acted on, since its buttons change under the pointer.
 */
export function ExaminationPanel({
  submissionId,
  indexNumber,
}: {
  submissionId: number;
  indexNumber: string;
}) {
  const headingId = useId();
  const examination = useExamination(submissionId, indexNumber);
  const nominate = useNominateExaminer(submissionId);
  const send = useSendToExaminers(submissionId);
  const revoke = useRevokeLink(submissionId);
  const remind = useSendReminder();
  const [announcement, setAnnouncement] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [picking, setPicking] = useState<ExaminerKind | null>(null);
  const [question, setQuestion] = useState<Question | null>(null);
  // The turn makes a second action on the same role move focus again.
  const [acted, setActed] = useState<{ role: ExaminerKind; turn: number } | null>(null);
  const headings = useRef(new Map<ExaminerKind, HTMLHeadingElement>());

  useEffect(() => {
    if (acted) headings.current.get(acted.role)?.focus();
  }, [acted]);

  const busy = nominate.isPending || send.isPending || revoke.isPending || remind.isPending;

  const start = () => {
    setAnnouncement("");
    setProblem(null);
  };
  const done = (role: ExaminerKind | null, message: string) => {
    setQuestion(null);
    setAnnouncement(message);
    if (role) setActed((last) => ({ role, turn: (last?.turn ?? 0) + 1 }));
  };
  const failed = (what: string) => (error: unknown) => {
    setQuestion(null);
    setProblem(`${messageFor(error, "We could not reach the server; try again.")} ${what}`);
  };

  const doNominate = (role: ExaminerKind, next: ExaminerRecord, current: Examination | null) => {
    start();
    nominate.mutate(
      { indexNumber, role, examinerId: next.id },
      {
        onSuccess: () => {
          setPicking(null);
          done(
            role,
            current
              ? `${next.name} replaces ${current.examiner.name} as the ${roleWord(role)} examiner. ${current.examiner.name}’s link no longer works.`
              : `${next.name} is nominated as the ${roleWord(role)} examiner.`,
          );
        },
        onError: failed(`${next.name} was not nominated.`),
      },
    );
  };

  const doSend = (roles: ExaminerKind[] | undefined, names: string, confirmed = false) => {
    start();
    send.mutate(
      {
        indexNumber,
        ...(roles ? { roles } : {}),
        ...(confirmed ? { confirmOutOfOrder: true } : {}),
      },
      {
        onSuccess: () =>
          done(
            roles?.length === 1 ? roles[0]! : null,
            roles
              ? `A new link has been sent to ${names}. The links they had keep working until they expire.`
              : `The link has been sent to ${names}. Their due dates are set.`,
          ),
        onError: (error) => {
          // Sending would skip earlier stages: ask, as a manual skip does, then send again.
          const refusal = confirmed ? null : readSendRefusal(error);
          if (refusal) {
            setQuestion({ kind: "skip", roles, names, ...refusal });
            return;
          }
          failed("Nothing was sent.")(error);
        },
      },
    );
  };

  const doRevoke = (current: Examination) => {
    start();
    revoke.mutate(current.id, {
      onSuccess: () =>
        done(
          current.role,
          `${current.examiner.name}’s links no longer work. Send the link again to give them a new one.`,
        ),
      onError: failed("The link was not revoked."),
    });
  };

  const doRemind = (current: Examination) => {
    start();
    remind.mutate(
      { examinationId: current.id, submissionId },
      {
        onSuccess: (reminder) =>
          done(
            current.role,
            `Reminder sent to ${current.examiner.name} on ${formatDateTime(reminder.sentAt)}.`,
          ),
        onError: failed("No reminder was sent."),
      },
    );
  };

  const onRoleAction = (data: AdminExamination, role: ExaminerKind, action: RoleAction) => {
    const current = data[role];
    start();
    if (action === "nominate" || action === "replace") setPicking(role);
    else if (current) setQuestion({ kind: action, examination: current });
  };

  const onChoose = (data: AdminExamination, role: ExaminerKind, next: ExaminerRecord) => {
    const current = data[role];
    if (current) setQuestion({ kind: "replace", role, current, next });
    else doNominate(role, next, null);
  };

  const data = examination.data;
  return (
    <section aria-labelledby={headingId} className="examination">
      <h3 id={headingId}>Examination</h3>
      <p role="status" aria-live="polite" className="examination__status">
        {announcement}
      </p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}

      {examination.isPending ? (
        <Loading label="Loading the examination…" />
      ) : examination.isError ? (
        <LoadError
          error={examination.error}
          what="the examination"
          onRetry={() => void examination.refetch()}
        />
      ) : data ? (
        <>
          {!data.internal && !data.external ? (
            <p className="muted">
              Nominate one internal and one external examiner, then send them the link to the
              thesis. Their states then move by themselves.
            </p>
          ) : null}
          <ul className="examination__roles">
            {EXAMINER_KINDS.map((role) => (
              <ExaminationRole
                key={role}
                submissionId={submissionId}
                role={role}
                examination={data[role]}
                headingRef={(heading) => {
                  if (heading) headings.current.set(role, heading);
                  else headings.current.delete(role);
                }}
                busy={busy}
                canReplace={data.outcome === null}
                picker={
                  picking === role ? (
                    <ExaminerPicker
                      role={role}
                      currentExaminerId={data[role]?.examiner.id ?? null}
                      busy={nominate.isPending}
                      onChoose={(next) => onChoose(data, role, next)}
                      onCancel={() => {
                        setPicking(null);
                        setActed((last) => ({ role, turn: (last?.turn ?? 0) + 1 }));
                      }}
                    />
                  ) : null
                }
                onAction={(action) => onRoleAction(data, role, action)}
                onAnnounce={(message) => done(role, message)}
              />
            ))}
          </ul>

          <SendControls
            data={data}
            busy={busy}
            onSend={() => {
              start();
              setQuestion({
                kind: "send",
                roles: EXAMINER_KINDS.filter((role) => data[role]?.state === "nominated"),
              });
            }}
          />

          <OutcomeSection
            submissionId={submissionId}
            indexNumber={indexNumber}
            outcome={data.outcome}
            canRelease={data.canReleaseOutcome}
            examinations={EXAMINER_KINDS.flatMap((role) => data[role] ?? [])}
            onAnnounce={(message) => done(null, message)}
          />

          {data.replaced.length > 0 ? (
            <details className="examination__replaced">
              <summary>Replaced examiners ({data.replaced.length})</summary>
              <ul>
                {data.replaced.map((old) => (
                  <li key={old.id}>
                    {old.examiner.name} ({roleWord(old.role)}), nominated{" "}
                    {formatDate(old.nominatedAt)}
                    {old.replacedAt ? `, replaced ${formatDate(old.replacedAt)}` : ""}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}

          {question ? (
            <QuestionDialog
              question={question}
              data={data}
              busy={busy}
              onCancel={() => setQuestion(null)}
              onConfirm={() => {
                switch (question.kind) {
                  case "replace":
                    doNominate(question.role, question.next, question.current);
                    break;
                  case "send":
                    doSend(undefined, namesOf(data, question.roles));
                    break;
                  case "resend":
                    doSend([question.examination.role], question.examination.examiner.name);
                    break;
                  case "skip":
                    doSend(question.roles, question.names, true);
                    break;
                  case "revoke":
                    doRevoke(question.examination);
                    break;
                  case "remind":
                    doRemind(question.examination);
                    break;
                }
              }}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function namesOf(data: AdminExamination, roles: ExaminerKind[]): string {
  const names = roles.flatMap((role) => {
    const current = data[role];
    return current ? [`${current.examiner.name} (${roleWord(role)})`] : [];
  });
  return names.length > 0 ? names.join(" and ") : "the nominated examiners";
}

function SendControls({
  data,
  busy,
  onSend,
}: {
  data: AdminExamination;
  busy: boolean;
  onSend: () => void;
}) {
  const reasonId = useId();
  const blocked = !data.canSend;
  return (
    <div className="examination-send">
      <button
        type="button"
        className="button"
        disabled={blocked || busy}
        aria-describedby={blocked && data.sendBlockedReason ? reasonId : undefined}
        onClick={onSend}
      >
        Send to examiners
      </button>
      {blocked && data.sendBlockedReason ? (
        <p id={reasonId} className="examination-send__reason">
          {data.sendBlockedReason}
        </p>
      ) : null}
    </div>
  );
}

function QuestionDialog({
  question,
  data,
  busy,
  onCancel,
  onConfirm,
}: {
  question: Question;
  data: AdminExamination;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  switch (question.kind) {
    case "replace":
      return (
        <ConfirmDialog
          title={`Replace ${question.current.examiner.name}?`}
          confirmLabel={`Replace with ${question.next.name}`}
          tone="danger"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
        >
          <p>
            {question.next.name} becomes the {roleWord(question.role)} examiner.{" "}
            <strong>{question.current.examiner.name}’s link will stop working at once.</strong>
          </p>
          <p>Send the link to {question.next.name} afterwards with “Send to examiners”.</p>
        </ConfirmDialog>
      );
    case "send":
      return (
        <ConfirmDialog
          title="Send to examiners?"
          confirmLabel="Send the links"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
        >
          <p>
            {namesOf(data, question.roles)} will each get an email now with a personal link to the
            thesis. Their report due dates start today.
          </p>
        </ConfirmDialog>
      );
    case "skip":
      return (
        <ConfirmDialog
          title="Skip stages and send to examiners?"
          confirmLabel="Yes, skip them and send"
          cancelLabel="No, go back"
          tone="danger"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
        >
          <p>{question.message}</p>
          <p>Stages it skips:</p>
          <ul>
            {question.skipped.map((stage) => (
              <li key={stage}>{SGS_STAGE_LABELS[stage]}</li>
            ))}
          </ul>
          <p>The skip is recorded in the history as confirmed by you.</p>
        </ConfirmDialog>
      );
    case "resend":
      return (
        <ConfirmDialog
          title={`Send the link again to ${question.examination.examiner.name}?`}
          confirmLabel="Send a new link"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
        >
          <p>
            A new link goes to {question.examination.examiner.email} now. The links they had keep
            working until they expire; revoke them to stop them.
          </p>
        </ConfirmDialog>
      );
    case "revoke":
      return (
        <ConfirmDialog
          title={`Revoke ${question.examination.examiner.name}’s links?`}
          confirmLabel="Revoke links"
          tone="danger"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
        >
          <p>
            Every link mailed to {question.examination.examiner.name} (the invitation’s and the
            reminders’) will stop working at once; opening one shows the school’s contact instead.
            Send the link again to give them a new one.
          </p>
        </ConfirmDialog>
      );
    case "remind":
      return (
        <ConfirmDialog
          title={`Send a reminder to ${question.examination.examiner.name}?`}
          confirmLabel="Send reminder"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
        >
          <p>
            {question.examination.examiner.name} gets an email now asking for the{" "}
            {roleWord(question.examination.role)} examiner’s report
            {question.examination.dueOn ? `, due on ${formatDay(question.examination.dueOn)}` : ""}.
            It is recorded in the history.
          </p>
        </ConfirmDialog>
      );
  }
}
