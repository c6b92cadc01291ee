import { useEffect, useRef, useState } from "react";
import { useForm, useWatch, type Control } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "react-router";
import type { SubmissionDto, SubmissionInput } from "../../../../common/submissions-api.js";
import { toStatusView, type Submission } from "../../../../common/submission.js";
import {
  EXAMINER_STATES,
  EXAMINER_STATE_LABELS,
  SGS_STAGES,
  SGS_STAGE_LABELS,
} from "../../../../common/workflow.js";
import { ErrorSummary, type SummaryError } from "../../../components/form/ErrorSummary.js";
import { SelectField, TextField } from "../../../components/form/Field.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ApiError } from "../../../lib/api-client.js";
import { applyServerFieldErrors, messageFor } from "../../../lib/form-errors.js";
import { adminPaths, submissionsListHref } from "../paths.js";
import { useCreateSubmission } from "./api/create-submission.js";
import { DocumentChecklistFields } from "./components/DocumentChecklistFields.js";
import { ProgressLines } from "./components/ProgressLines.js";
import { ThesisStatusSuggestions } from "./components/ThesisStatusSuggestions.js";
import {
  FIELD_LABELS,
  emptyFormValues,
  fieldMessage,
  newSubmissionFormSchema,
  type SubmissionFormValues,
} from "./lib/submission-form.js";
import "./submissions.css";
import { FactList } from "../../../components/ui/FactList.js";

/*
 * How the prototype's new_submission fields map onto the one submission model (common/submission.ts):
 *
 *   Student Name, Index Number, Programme, Contact  → studentName, indexNumber, programme, contact
 *   Awaiting Review, Sent to Department,
 *   Nominations Ready (and Sent to Examiners)       → sgsStage: ONE ordered stage, so these are the
 *                                                     options of the "SGS Admin stage" choice, each
 *                                                     label shown as a radio button
 *   Sent to Internal + Internal Report              → internalExaminer: not set = not sent yet;
 *                                                     Awaiting / Received / Report Submitted
 *   Sent to External + External Report              → externalExaminer, the same way
 *   Thesis Status                                   → thesisStatus (free text, with suggestions)
 *   (added) Student email, Effective date, and the document checklist (Thesis, Turnitin report,
 *   Supervisor form, Statement of Result, Financial Clearance, each ticked with a date).
 *
 * The eight status lines the student will read are previewed beside the form, computed by the
 * same function the server uses (toStatusView), so every label of the prototype stays in view.
 */

const EXAMINER_OPTIONS = (who: "internal" | "external") => [
  { value: "", label: `Not sent to the ${who} examiner yet` },
  ...EXAMINER_STATES.map((state) => ({
    value: state as string,
    label: EXAMINER_STATE_LABELS[state],
  })),
];

type RequiredField = "studentName" | "indexNumber" | "programme";
const FORM_FIELDS = [
  "studentName",
  "indexNumber",
  "programme",
  "contact",
  "studentEmail",
  "thesisStatus",
  "effectiveDate",
] as const;

export function NewSubmissionPage() {
  const create = useCreateSubmission();
  const [created, setCreated] = useState<SubmissionDto | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const form = useForm<SubmissionFormValues, unknown, SubmissionInput>({
    resolver: zodResolver(newSubmissionFormSchema),
    defaultValues: emptyFormValues(),
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    (input) => {
      setProblem(null);
      create.mutate(input, {
        onSuccess: (submission) => setCreated(submission),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            const duplicate = error.fields.find((f) => f.field === "indexNumber");
            form.setError("indexNumber", {
              type: "server",
              message:
                duplicate?.message && /^[A-Z]/.test(duplicate.message)
                  ? duplicate.message
                  : `A submission with index number ${input.indexNumber} already exists. Check the number, or find that submission in All Submissions.`,
            });
            return;
          }
          // The error summary takes focus and links to each field.
          const placed =
            error instanceof ApiError &&
            error.status === 400 &&
            applyServerFieldErrors(error, form.setError, FORM_FIELDS);
          setProblem(
            placed
              ? "The server did not accept some fields. Correct them and submit again."
              : `${messageFor(error, "We could not reach the server.")} Nothing was saved; your entries are still in the form — try again.`,
          );
        },
      });
    },
    () => {
      setProblem(null);
      setAttempt((n) => n + 1);
    },
  );

  if (created) {
    return (
      <Confirmation
        submission={created}
        onAnother={() => {
          setCreated(null);
          form.reset(emptyFormValues());
        }}
      />
    );
  }

  const required = (field: RequiredField) => {
    const message = errors[field]?.message;
    // An empty index number fails the format rule too; "is required" says what is actually wrong.
    if (message && errors[field]?.type !== "server" && form.getValues(field).trim() === "") {
      return `${FIELD_LABELS[field]} is required`;
    }
    return fieldMessage(FIELD_LABELS[field], message);
  };
  const summary: SummaryError[] = [];
  for (const field of FORM_FIELDS) {
    const message =
      field === "studentName" || field === "indexNumber" || field === "programme"
        ? required(field)
        : fieldMessage(FIELD_LABELS[field], errors[field]?.message);
    if (message) summary.push({ id: `new-submission-${field}`, message });
  }
  const busy = create.isPending;

  return (
    <section aria-labelledby="new-submission-title" className="new-submission">
      <header className="page__header">
        <h1 id="new-submission-title">Add New Submission</h1>
        <Link to={adminPaths.import}>Adding many? Import a spreadsheet</Link>
      </header>
      <ErrorSummary errors={summary} attempt={attempt} />
      {problem ? <Alert tone="error">{problem}</Alert> : null}

      <div className="new-submission__layout">
        <form className="form new-submission__form" noValidate onSubmit={onSubmit} aria-busy={busy}>
          <fieldset>
            <legend>Student</legend>
            <div className="form">
              <TextField
                id="new-submission-studentName"
                label="Student Name"
                autoComplete="off"
                error={required("studentName")}
                {...form.register("studentName")}
              />
              <TextField
                id="new-submission-indexNumber"
                label="Index Number"
                autoComplete="off"
                spellCheck={false}
                hint="4 to 20 letters, digits, / or -, as on the student's ID card."
                error={required("indexNumber")}
                {...form.register("indexNumber")}
              />
              <TextField
                id="new-submission-programme"
                label="Programme"
                autoComplete="off"
                error={required("programme")}
                {...form.register("programme")}
              />
              <TextField
                id="new-submission-contact"
                label="Contact"
                type="tel"
                autoComplete="off"
                hint="Optional. A phone number."
                error={fieldMessage("Contact", errors.contact?.message)}
                {...form.register("contact")}
              />
              <TextField
                id="new-submission-studentEmail"
                label="Student email"
                type="email"
                autoComplete="off"
                spellCheck={false}
                hint="Optional. Progress notices go to this address."
                error={fieldMessage("Student email", errors.studentEmail?.message)}
                {...form.register("studentEmail")}
              />
            </div>
          </fieldset>

          <DocumentChecklistFields form={form} idPrefix="new-submission" />

          <fieldset>
            <legend>Progress</legend>
            <div className="form">
              <fieldset className="stage-radios">
                <legend>SGS Admin stage</legend>
                <p className="field__hint">Where the school has got to with this thesis.</p>
                <label className="checkbox">
                  <input type="radio" value="" {...form.register("sgsStage")} />
                  Not started yet
                </label>
                {SGS_STAGES.map((stage) => (
                  <label key={stage} className="checkbox">
                    <input type="radio" value={stage} {...form.register("sgsStage")} />
                    {SGS_STAGE_LABELS[stage]}
                  </label>
                ))}
              </fieldset>
              <SelectField
                id="new-submission-internalExaminer"
                label="Sent to Internal · Internal Report"
                hint="Choose the report's state once the thesis has been sent to the internal examiner."
                options={EXAMINER_OPTIONS("internal")}
                {...form.register("internalExaminer")}
              />
              <SelectField
                id="new-submission-externalExaminer"
                label="Sent to External · External Report"
                hint="Choose the report's state once the thesis has been sent to the external examiner."
                options={EXAMINER_OPTIONS("external")}
                {...form.register("externalExaminer")}
              />
              <TextField
                id="new-submission-thesisStatus"
                label="Thesis Status"
                list="new-submission-thesis-statuses"
                hint="For example Initial Submission."
                error={fieldMessage("Thesis Status", errors.thesisStatus?.message)}
                {...form.register("thesisStatus")}
              />
              <ThesisStatusSuggestions id="new-submission-thesis-statuses" />
              <TextField
                id="new-submission-effectiveDate"
                label="Effective date"
                type="date"
                hint="Optional."
                error={fieldMessage("Effective date", errors.effectiveDate?.message)}
                {...form.register("effectiveDate")}
              />
            </div>
          </fieldset>

          <div className="actions">
            <button type="submit" className="button" disabled={busy}>
              {busy ? "Submitting…" : "Submit"}
            </button>
          </div>
        </form>

        <StudentPreview control={form.control} />
      </div>
    </section>
  );
}

/** The eight status lines as the student will read them, from what is in the form now. */
function StudentPreview({
  control,
}: {
  control: Control<SubmissionFormValues, unknown, SubmissionInput>;
}) {
  const values = useWatch({ control });
  const now = new Date().toISOString();
  const draft: Submission = {
    id: 0,
    createdAt: now,
    updatedAt: now,
    version: 1,
    studentName: values.studentName ?? "",
    indexNumber: values.indexNumber ?? "",
    programme: values.programme ?? "",
    contact: values.contact || null,
    studentEmail: values.studentEmail || null,
    documents: {
      thesis: { submitted: values.documents?.thesis?.submitted ?? false, receivedOn: null },
      turnitinReport: {
        submitted: values.documents?.turnitinReport?.submitted ?? false,
        receivedOn: null,
      },
      supervisorForm: {
        submitted: values.documents?.supervisorForm?.submitted ?? false,
        receivedOn: null,
      },
      statementOfResult: {
        submitted: values.documents?.statementOfResult?.submitted ?? false,
        receivedOn: null,
      },
      financialClearance: {
        submitted: values.documents?.financialClearance?.submitted ?? false,
        receivedOn: null,
      },
    },
    sgsStage: values.sgsStage || null,
    internalExaminer: values.internalExaminer || null,
    externalExaminer: values.externalExaminer || null,
    thesisStatus: values.thesisStatus || null,
    effectiveDate: values.effectiveDate || null,
    thesisTitle: null,
    thesisAbstract: null,
  };
  const { status } = toStatusView(draft);
  const lines: [string, string][] = [
    ["Awaiting Review", status.awaitingReview],
    ["Sent to Department", status.sentToDepartment],
    ["Nominations Ready", status.nominationsReady],
    ["Sent to Internal", status.sentToInternal],
    ["Sent to External", status.sentToExternal],
    ["Internal Report", status.internalReport],
    ["External Report", status.externalReport],
    ["Thesis Status", status.thesisStatus ?? "Not set"],
  ];
  return (
    <aside className="card new-submission__preview" aria-labelledby="student-preview-title">
      <h2 id="student-preview-title">What the student will see</h2>
      <FactList
        className="details-list"
        facts={lines.map(([label, value]) => ({ label, value }))}
      />
    </aside>
  );
}

function Confirmation({
  submission,
  onAnother,
}: {
  submission: SubmissionDto;
  onAnother: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <section aria-labelledby="submission-created-title" className="page--narrow">
      <div className="confirmation-panel">
        <h1 id="submission-created-title" ref={headingRef} tabIndex={-1}>
          Submission added
        </h1>
        <p>
          {submission.studentName} · {submission.indexNumber}
        </p>
      </div>
      <FactList
        className="details-list"
        facts={[
          { label: "Name", value: submission.studentName },
          { label: "Index Number", value: submission.indexNumber },
          { label: "Programme", value: submission.programme },
          { label: "Contact", value: submission.contact },
          { label: "Student email", value: submission.studentEmail },
          { label: "Thesis Status", value: submission.thesisStatus },
        ]}
      />
      <ProgressLines submission={submission} />
      <h2 className="confirmation-next">What next</h2>
      <ul className="confirmation-links">
        <li>
          <Link to={submissionsListHref({ q: submission.indexNumber, open: submission.id })}>
            Open this submission in All Submissions
          </Link>
        </li>
        <li>
          <button type="button" className="button button--link" onClick={onAnother}>
            Add another submission
          </button>
        </li>
        <li>
          <Link to={adminPaths.home}>Back to the dashboard</Link>
        </li>
      </ul>
    </section>
  );
}
