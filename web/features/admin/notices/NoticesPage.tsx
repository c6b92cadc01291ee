import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { useSearchParams } from "react-router";
import { sendMessageSchema, type SendMessage } from "../../../../common/submissions-api.js";
import { ErrorSummary, type SummaryError } from "../../../components/form/ErrorSummary.js";
import { TextAreaField, TextField } from "../../../components/form/Field.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { ApiError } from "../../../lib/api-client.js";
import { messageFor } from "../../../lib/form-errors.js";
import { useSendNotice } from "./api/send-notice.js";
import "./notices.css";

interface NoticeFormValues {
  audience: "one" | "all";
  indexNumber: string;
  title: string;
  body: string;
}

/** The form's choice of audience mapped onto the API's payload, validated by its schema. */
const noticeFormSchema = z.preprocess(
  (values: NoticeFormValues) => ({
    indexNumber: values.audience === "one" ? values.indexNumber : undefined,
    broadcast: values.audience === "all" ? true : undefined,
    title: values.title,
    body: values.body,
  }),
  sendMessageSchema,
);

/** Notices to students: to one student about their submission, or a broadcast to all of them. */
export function NoticesPage() {
  const [params] = useSearchParams();
  const send = useSendNotice();
  const [sent, setSent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [confirmBroadcast, setConfirmBroadcast] = useState<SendMessage | null>(null);
  const form = useForm<NoticeFormValues, unknown, SendMessage>({
    resolver: zodResolver(noticeFormSchema),
    defaultValues: {
      audience: "one",
      indexNumber: params.get("indexNumber") ?? "",
      title: "",
      body: "",
    },
  });
  const { errors } = form.formState;
  const audience = useWatch({ control: form.control, name: "audience" });

  const deliver = (message: SendMessage) => {
    setProblem(null);
    send.mutate(message, {
      onSuccess: () => {
        setConfirmBroadcast(null);
        setSent(
          message.broadcast
            ? "Your notice has been sent to every student. They will see it under Messages."
            : `Your notice has been sent to the student with index number ${message.indexNumber}. They will see it under Messages.`,
        );
        form.reset({ ...form.getValues(), title: "", body: "" });
      },
      onError: (error) => {
        setConfirmBroadcast(null);
        if (
          error instanceof ApiError &&
          (error.status === 404 || error.fields.some((f) => f.field === "indexNumber"))
        ) {
          form.setError(
            "indexNumber",
            {
              type: "server",
              message:
                error.fields.find((f) => f.field === "indexNumber")?.message ??
                (error.message || "No student has this index number. Check it and try again."),
            },
            { shouldFocus: true },
          );
          return;
        }
        setProblem(
          `${messageFor(error, "We could not reach the server.")} The notice was not sent; try again.`,
        );
      },
    });
  };

  const onSubmit = form.handleSubmit(
    (message) => {
      setSent(null);
      if (message.broadcast) setConfirmBroadcast(message);
      else deliver(message);
    },
    () => {
      setSent(null);
      setAttempt((n) => n + 1);
    },
  );

  const indexError =
    errors.indexNumber &&
    form.getValues("indexNumber").trim() === "" &&
    errors.indexNumber.type !== "server"
      ? "Enter the student's index number."
      : errors.indexNumber?.message && /^[a-z]/.test(errors.indexNumber.message)
        ? `Index number ${errors.indexNumber.message}`
        : errors.indexNumber?.message;
  const bodyError = errors.body?.message
    ? /^[a-z]/.test(errors.body.message)
      ? `Message ${errors.body.message}`
      : errors.body.message
    : undefined;
  const titleError = errors.title?.message ? `Title ${errors.title.message}` : undefined;
  const summary: SummaryError[] = [
    ...(indexError ? [{ id: "notice-indexNumber", message: indexError }] : []),
    ...(titleError ? [{ id: "notice-title", message: titleError }] : []),
    ...(bodyError ? [{ id: "notice-body", message: bodyError }] : []),
  ];
  const busy = send.isPending;

  return (
    <section aria-labelledby="notices-title" className="page--narrow">
      <h1 id="notices-title">Notices</h1>
      <p className="muted">Students read notices on their dashboard under Messages.</p>
      <ErrorSummary errors={summary} attempt={attempt} />
      {sent ? (
        <Alert tone="success" title="Notice sent">
          <p>{sent}</p>
        </Alert>
      ) : null}
      {problem ? <Alert tone="error">{problem}</Alert> : null}

      <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <fieldset className="notice-audience">
          <legend>Send to</legend>
          <label className="checkbox">
            <input type="radio" value="one" {...form.register("audience")} />
            One student, by index number
          </label>
          <label className="checkbox">
            <input type="radio" value="all" {...form.register("audience")} />
            Every student (broadcast)
          </label>
        </fieldset>
        {audience === "one" ? (
          <TextField
            id="notice-indexNumber"
            label="Index number"
            autoComplete="off"
            spellCheck={false}
            error={indexError}
            {...form.register("indexNumber")}
          />
        ) : null}
        <TextField
          id="notice-title"
          label="Title (optional)"
          autoComplete="off"
          error={titleError}
          {...form.register("title")}
        />
        <TextAreaField
          id="notice-body"
          label="Message"
          rows={6}
          error={bodyError}
          {...form.register("body")}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Sending…" : audience === "all" ? "Send to every student" : "Send notice"}
          </button>
        </div>
      </form>

      {confirmBroadcast ? (
        <ConfirmDialog
          title="Send this notice to every student?"
          confirmLabel="Yes, send to everyone"
          busy={busy}
          onConfirm={() => deliver(confirmBroadcast)}
          onCancel={() => setConfirmBroadcast(null)}
        >
          <p>Every student with an account will see it under Messages. It cannot be unsent.</p>
          {confirmBroadcast.title ? (
            <p className="notice-preview__title">{confirmBroadcast.title}</p>
          ) : null}
          <p className="notice-preview">{confirmBroadcast.body}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
