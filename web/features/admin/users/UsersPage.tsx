import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { AdminUser, Role } from "../../../../common/accounts.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { Loading } from "../../../components/ui/Loading.js";
import { formatDateTime } from "../../../lib/format.js";
import { messageFor } from "../../../lib/form-errors.js";
import { useMe } from "../../../lib/session.js";
import { DebouncedInput } from "../components/DebouncedInput.js";
import { LoadError } from "../components/LoadError.js";
import { adminPaths, submissionsListHref } from "../paths.js";
import { useDeactivateUser } from "./api/deactivate-user.js";
import { useUsers } from "./api/get-users.js";
import { useReactivateUser } from "./api/reactivate-user.js";
import { useResendCode } from "./api/resend-code.js";
import "./users.css";

type Feedback = { tone: "success" | "error"; text: string };

/** Accounts: administrators (deactivate / reactivate) and students (their submission, a new code). */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const role: Role = params.get("role") === "student" ? "student" : "admin";
  const q = params.get("q") ?? "";
  const users = useUsers({ role, q: q || undefined });
  const me = useMe();
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const resend = useResendCode();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [confirming, setConfirming] = useState<AdminUser | null>(null);

  const setParam = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key === "q" },
    );

  const who = (user: AdminUser) => user.name ?? user.email;
  const failed = (what: string) => (error: unknown) =>
    setFeedback({
      tone: "error",
      text: `${messageFor(error, "We could not reach the server.")} ${what} Try again.`,
    });

  const doDeactivate = (user: AdminUser) =>
    deactivate.mutate(user.id, {
      onSuccess: () => {
        setConfirming(null);
        setFeedback({
          tone: "success",
          text: `${who(user)} has been deactivated and signed out everywhere.`,
        });
      },
      onError: (error) => {
        setConfirming(null);
        failed(`${who(user)} was not deactivated.`)(error);
      },
    });
  const doReactivate = (user: AdminUser) =>
    reactivate.mutate(user.id, {
      onSuccess: () => setFeedback({ tone: "success", text: `${who(user)} can sign in again.` }),
      onError: failed(`${who(user)} was not reactivated.`),
    });
  const doResend = (user: AdminUser) =>
    resend.mutate(user.id, {
      onSuccess: ({ message }) =>
        setFeedback({
          tone: "success",
          text: message || `A new code has been sent to ${user.email}.`,
        }),
      onError: failed(`No code was sent to ${user.email}.`),
    });

  const busy = deactivate.isPending || reactivate.isPending || resend.isPending;

  return (
    <section aria-labelledby="users-title">
      <header className="page__header">
        <h1 id="users-title">Users</h1>
        <Link className="button button--small" to={adminPaths.newUser}>
          Add New User
        </Link>
      </header>

      <nav className="tabs" aria-label="Kind of account">
        <Link
          to="?role=admin"
          className={role === "admin" ? "active" : undefined}
          aria-current={role === "admin" ? "page" : undefined}
        >
          Administrators
        </Link>
        <Link
          to="?role=student"
          className={role === "student" ? "active" : undefined}
          aria-current={role === "student" ? "page" : undefined}
        >
          Students
        </Link>
      </nav>

      <div className="field users-search">
        <label htmlFor="users-search">
          Search by name, email{role === "student" ? " or index number" : ""}
        </label>
        <DebouncedInput
          id="users-search"
          type="search"
          className="input"
          autoComplete="off"
          value={q}
          onCommit={(value) => setParam("q", value.trim() || null)}
        />
      </div>

      {feedback ? (
        <Alert tone={feedback.tone}>
          <p>{feedback.text}</p>
        </Alert>
      ) : null}

      {users.isPending ? (
        <Loading label="Loading accounts…" />
      ) : users.isError ? (
        <LoadError error={users.error} what="the accounts" onRetry={() => void users.refetch()} />
      ) : users.data.length === 0 ? (
        <div className="empty">
          {q ? (
            <p>No account matches “{q}”. Check the spelling, or clear the search.</p>
          ) : role === "admin" ? (
            <p>
              There are no administrators besides the built-in one.{" "}
              <Link to={adminPaths.newUser}>Add a new Super User</Link>.
            </p>
          ) : (
            <p>
              No student has created an account yet. Students sign up with their institutional email
              and index number.
            </p>
          )}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table users-table">
            <caption className="visually-hidden">
              {role === "admin" ? "Administrators" : "Students"}
            </caption>
            <thead>
              <tr>
                <th scope="col">{role === "admin" ? "Name" : "Email"}</th>
                {role === "admin" ? <th scope="col">Email</th> : <th scope="col">Index number</th>}
                {role === "student" ? <th scope="col">Submission</th> : null}
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user) => {
                const isMe = me.data?.id === user.id;
                return (
                  <tr key={user.id}>
                    <td>
                      {role === "admin"
                        ? (user.name ?? <span className="muted">No name</span>)
                        : user.email}
                    </td>
                    <td>{role === "admin" ? user.email : (user.indexNumber ?? "—")}</td>
                    {role === "student" ? (
                      <td>
                        {user.submission ? (
                          <Link
                            to={submissionsListHref({
                              q: user.indexNumber ?? "",
                              open: user.submission.id,
                            })}
                          >
                            {user.submission.studentName}
                          </Link>
                        ) : (
                          <span className="muted">No submission on file</span>
                        )}
                      </td>
                    ) : null}
                    <td>
                      <span className={user.active ? "chip chip--green" : "chip chip--red"}>
                        {user.active ? "Active" : "Deactivated"}
                      </span>
                    </td>
                    <td>
                      {user.lastSignInAt ? (
                        formatDateTime(user.lastSignInAt)
                      ) : (
                        <span className="muted">Never</span>
                      )}
                    </td>
                    <td>
                      <div className="users-table__actions">
                        {role === "student" && user.active ? (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            disabled={busy}
                            onClick={() => doResend(user)}
                            aria-label={`Resend code to ${user.email}`}
                          >
                            Resend code
                          </button>
                        ) : null}
                        {isMe ? (
                          <span className="muted">This is you</span>
                        ) : user.active ? (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            disabled={busy}
                            onClick={() => setConfirming(user)}
                            aria-label={`Deactivate ${who(user)}`}
                          >
                            Deactivate
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            disabled={busy}
                            onClick={() => doReactivate(user)}
                            aria-label={`Reactivate ${who(user)}`}
                          >
                            Reactivate
                          </button>
                        )}
                      </div>
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
          title={`Deactivate ${who(confirming)}?`}
          confirmLabel="Deactivate"
          tone="danger"
          busy={deactivate.isPending}
          onConfirm={() => doDeactivate(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            {confirming.email} will be signed out everywhere and cannot sign in until reactivated.
            Their records stay as they are.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
