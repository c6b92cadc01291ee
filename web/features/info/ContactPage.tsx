import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Link } from "react-router";
import { contactSchema, type ContactInput } from "../../../common/accounts.js";
import { Alert } from "../../components/ui/Alert.js";
import { ErrorSummary } from "../../components/form/ErrorSummary.js";
import { TextAreaField, TextField } from "../../components/form/Field.js";
import { applyServerFieldErrors, messageFor } from "../../lib/form-errors.js";
import { useMe } from "../../lib/session.js";
import { useSendContactMessage } from "./api/send-contact-message.js";
import "./info.css";

type ContactForm = z.input<typeof contactSchema>;

const FIELD_IDS: Record<keyof ContactForm, string> = {
  email: "contact-email",
  message: "contact-message",
};

export function ContactPage() {
  const me = useMe();
  const send = useSendContactMessage();
  const [attempt, setAttempt] = useState(0);
  const confirmationRef = useRef<HTMLDivElement>(null);
  const form = useForm<ContactForm, unknown, ContactInput>({
    // The error summary takes focus after a failed submit; its links lead to each field.
    shouldFocusError: false,
    resolver: zodResolver(contactSchema),
    // A signed-in student need not type their email again.
    values: { email: me.data?.email ?? "", message: "" },
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = form.formState;

  // The confirmation replaces the form: move focus there so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (send.isSuccess) confirmationRef.current?.focus();
  }, [send.isSuccess]);

  const onSubmit = form.handleSubmit(
    (input) => {
      send.mutate(input, {
        onSuccess: () => {
          form.reset({ email: input.email, message: "" });
        },
        onError: (error) => {
          if (applyServerFieldErrors(error, form.setError, ["email", "message"])) {
            setAttempt((n) => n + 1);
          }
        },
      });
    },
    () => setAttempt((n) => n + 1),
  );

  const summary = (Object.keys(FIELD_IDS) as (keyof ContactForm)[]).flatMap((name) => {
    const message = errors[name]?.message;
    return message ? [{ id: FIELD_IDS[name], message }] : [];
  });

  if (send.isSuccess) {
    return (
      <article className="info page--narrow" aria-labelledby="contact-sent-title">
        <div ref={confirmationRef} tabIndex={-1} className="confirmation">
          <h1 id="contact-sent-title">Message sent</h1>
          <p>{send.data.message}</p>
          <p>We reply to the email address you gave, usually within three working days.</p>
        </div>
        <p className="actions">
          <button type="button" className="button button--secondary" onClick={() => send.reset()}>
            Send another message
          </button>
          <Link to="/help/faq">Read the FAQ</Link>
        </p>
      </article>
    );
  }

  return (
    <article className="info page--narrow" aria-labelledby="contact-title">
      <h1 id="contact-title">Send us a message</h1>
      <p className="lead">
        Questions about your submission, your account or this service go to the School of Graduate
        Studies. Include your index number if you have one.
      </p>

      <ErrorSummary errors={summary} attempt={attempt} />
      {send.isError && summary.length === 0 ? (
        <Alert tone="error">
          {messageFor(send.error, "Your message could not be sent. Please try again.")}
        </Alert>
      ) : null}

      <form className="form card" noValidate onSubmit={onSubmit} aria-busy={send.isPending}>
        <TextField
          id={FIELD_IDS.email}
          label="Email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          hint="We reply to this address."
          error={errors.email?.message}
          {...form.register("email")}
        />
        <TextAreaField
          id={FIELD_IDS.message}
          label="Message"
          required
          rows={6}
          error={errors.message?.message}
          {...form.register("message")}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={send.isPending}>
            {send.isPending ? "Sending..." : "Submit"}
          </button>
        </div>
      </form>
    </article>
  );
}
