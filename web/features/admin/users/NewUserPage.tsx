import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Link } from "react-router";
import {
  MIN_ADMIN_PASSWORD_LENGTH,
  newAdminSchema,
  type AdminUser,
  type NewAdminInput,
} from "../../../../common/accounts.js";
import { ErrorSummary, type SummaryError } from "../../../components/form/ErrorSummary.js";
import { TextField } from "../../../components/form/Field.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ApiError } from "../../../lib/api-client.js";
import { applyServerFieldErrors, messageFor } from "../../../lib/form-errors.js";
import { adminPaths } from "../paths.js";
import { useCreateAdmin } from "./api/create-admin.js";
import "./users.css";

type NewAdminForm = z.input<typeof newAdminSchema>;
const FIELDS = ["name", "email", "passcode"] as const;

/** The prototype's new_user_entry: an administrator account with a passcode chosen here. */
export function NewUserPage() {
  const create = useCreateAdmin();
  const [created, setCreated] = useState<AdminUser | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [showPasscode, setShowPasscode] = useState(false);
  const form = useForm<NewAdminForm, unknown, NewAdminInput>({
    resolver: zodResolver(newAdminSchema),
    defaultValues: { name: "", email: "", passcode: "" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    (input) => {
      setProblem(null);
      create.mutate(input, {
        onSuccess: ({ user }) => setCreated(user),
        onError: (error) => {
          const placed = applyServerFieldErrors(error, form.setError, [...FIELDS]);
          if (placed) return;
          if (error instanceof ApiError && error.status === 409) {
            form.setError(
              "email",
              {
                type: "server",
                message: error.message || "An account with this email already exists.",
              },
              { shouldFocus: true },
            );
            return;
          }
          setProblem(
            `${messageFor(error, "We could not reach the server.")} The user was not added; try again.`,
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
        user={created}
        onAnother={() => {
          setCreated(null);
          form.reset({ name: "", email: "", passcode: "" });
        }}
      />
    );
  }

  const summary: SummaryError[] = FIELDS.flatMap((field) => {
    const message = errors[field]?.message;
    return message ? [{ id: `new-user-${field}`, message }] : [];
  });
  const busy = create.isPending;

  return (
    <section aria-labelledby="new-user-title" className="page--narrow">
      <h1 id="new-user-title">Add a new Super User</h1>
      <p className="muted">
        A Super User is an administrator: they can see and change every submission. Give the
        passcode to them in person; they can change it after signing in.
      </p>
      <ErrorSummary errors={summary} attempt={attempt} />
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id="new-user-name"
          label="Name"
          autoComplete="off"
          error={errors.name?.message}
          {...form.register("name")}
        />
        <TextField
          id="new-user-email"
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
          error={errors.email?.message}
          {...form.register("email")}
        />
        <TextField
          id="new-user-passcode"
          label="Passcode"
          type={showPasscode ? "text" : "password"}
          autoComplete="new-password"
          spellCheck={false}
          hint={`At least ${MIN_ADMIN_PASSWORD_LENGTH} characters.`}
          error={errors.passcode?.message}
          {...form.register("passcode")}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            checked={showPasscode}
            onChange={(event) => setShowPasscode(event.target.checked)}
          />
          Show passcode
        </label>
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Submitting…" : "Submit"}
          </button>
        </div>
      </form>
    </section>
  );
}

function Confirmation({ user, onAnother }: { user: AdminUser; onAnother: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <section aria-labelledby="user-created-title" className="page--narrow">
      <div className="user-confirmation">
        <h1 id="user-created-title" ref={headingRef} tabIndex={-1}>
          Super User added
        </h1>
        <p>
          {user.name ?? user.email} can now log in as an administrator with{" "}
          <strong>{user.email}</strong> and the passcode you chose.
        </p>
      </div>
      <ul className="user-confirmation__links">
        <li>
          <button type="button" className="button button--link" onClick={onAnother}>
            Add another Super User
          </button>
        </li>
        <li>
          <Link to={adminPaths.users}>See all users</Link>
        </li>
        <li>
          <Link to={adminPaths.home}>Back to the dashboard</Link>
        </li>
      </ul>
    </section>
  );
}
