import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "react-router";
import { MIN_STUDENT_PASSWORD_LENGTH } from "../../../common/accounts.js";
import { Alert } from "../../components/ui/Alert.js";
import { Loading } from "../../components/ui/Loading.js";
import { ErrorSummary } from "../../components/form/ErrorSummary.js";
import { TextField } from "../../components/form/Field.js";
import { applyServerFieldErrors, messageFor } from "../../lib/form-errors.js";
import { useMe } from "../../lib/session.js";
import { useChangePassword } from "./api/change-password.js";
import {
  changePasswordFormSchema,
  type ChangePasswordForm,
  type ChangePasswordValues,
} from "./schemas.js";

const FIELD_IDS: Record<keyof ChangePasswordForm, string> = {
  currentPassword: "profile-current-password",
  newPassword: "profile-new-password",
  confirmPassword: "profile-confirm-password",
};

export function ProfilePage() {
  const me = useMe();
  if (me.isPending) return <Loading label="Loading your profile..." />;
  const user = me.data;

  return (
    <section className="profile" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile</h1>
      {user ? (
        <div className="card">
          <h2>Your account</h2>
          <dl className="facts">
            {user.name ? (
              <div>
                <dt>Name</dt>
                <dd>{user.name}</dd>
              </div>
            ) : null}
            <div>
              <dt>Email</dt>
              <dd>{user.email}</dd>
            </div>
            <div>
              <dt>Index Number</dt>
              <dd>{user.indexNumber ?? "Not recorded"}</dd>
            </div>
          </dl>
          <p className="muted">
            To correct these details,{" "}
            <Link to="/help/contact">contact the School of Graduate Studies</Link>.
          </p>
        </div>
      ) : null}
      <ChangePassword hasPassword={user?.hasPassword ?? true} />
    </section>
  );
}

function ChangePassword({ hasPassword }: { hasPassword: boolean }) {
  const change = useChangePassword();
  const [attempt, setAttempt] = useState(0);
  const form = useForm<ChangePasswordForm, unknown, ChangePasswordValues>({
    // The error summary takes focus after a failed submit; its links lead to each field.
    shouldFocusError: false,
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    ({ currentPassword, newPassword }) => {
      change.mutate(
        { newPassword, ...(currentPassword ? { currentPassword } : {}) },
        {
          onSuccess: () => form.reset(),
          onError: (error) => {
            const fields = ["currentPassword", "newPassword"] as const;
            if (applyServerFieldErrors(error, form.setError, [...fields])) setAttempt((n) => n + 1);
          },
        },
      );
    },
    () => setAttempt((n) => n + 1),
  );

  const summary = (Object.keys(FIELD_IDS) as (keyof ChangePasswordForm)[]).flatMap((name) => {
    const message = errors[name]?.message;
    return message ? [{ id: FIELD_IDS[name], message }] : [];
  });

  return (
    <div className="card profile__password">
      <h2 id="password-title">{hasPassword ? "Change your password" : "Set a password"}</h2>
      <p className="muted">
        {hasPassword
          ? "Choose a new password for logging in."
          : "You log in with a code from your email. Set a password if you prefer; you can still ask for a code."}
      </p>
      <ErrorSummary errors={summary} attempt={attempt} />
      {change.isSuccess ? <Alert tone="success">{change.data.message}</Alert> : null}
      {change.isError && summary.length === 0 ? (
        <Alert tone="error">
          {messageFor(change.error, "An error occurred. Please try again.")}
        </Alert>
      ) : null}
      <form
        className="form"
        noValidate
        onSubmit={onSubmit}
        aria-labelledby="password-title"
        aria-busy={change.isPending}
      >
        {hasPassword ? (
          <TextField
            id={FIELD_IDS.currentPassword}
            label="Current password"
            type="password"
            autoComplete="current-password"
            hint="Leave empty if you logged in with a code from your email."
            error={errors.currentPassword?.message}
            {...form.register("currentPassword")}
          />
        ) : null}
        <TextField
          id={FIELD_IDS.newPassword}
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_STUDENT_PASSWORD_LENGTH} characters.`}
          error={errors.newPassword?.message}
          {...form.register("newPassword")}
        />
        <TextField
          id={FIELD_IDS.confirmPassword}
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register("confirmPassword")}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={change.isPending}>
            {change.isPending ? "Saving..." : "Save password"}
          </button>
        </div>
      </form>
    </div>
  );
}
