import { useRef, useState, type FormEvent } from "react";
import {
  API_TOKEN_SCOPES,
  API_TOKEN_SCOPE_LABELS,
  apiTokenCreateSchema,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenScope,
} from "../../../../common/api-tokens.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { Loading } from "../../../components/ui/Loading.js";
import { SecretShownOnce } from "../../../components/ui/SecretShownOnce.js";
import { ApiError } from "../../../lib/api-client.js";
import { formatDateTime } from "../../../lib/format.js";
import { messageFor } from "../../../lib/form-errors.js";
import { LoadError } from "../components/LoadError.js";
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from "./api/tokens.js";
import "./tokens.css";

const EXPIRY_CHOICES = [
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 180, label: "180 days" },
  { days: 366, label: "1 year" },
] as const;

type Field = "name" | "scopes" | "expiresInDays";
type Feedback = { tone: "success" | "error"; text: string };

/**
 * API tokens for the university's systems (issue 21): the list with each token's last use, a
 * form to create one (shown once), and revocation after a question.
 */
export function TokensPage() {
  const [page, setPage] = useState(1);
  const tokens = useApiTokens(page);
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiTokenScope[]>([]);
  const [expiresInDays, setExpiresInDays] = useState<number>(90);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [confirming, setConfirming] = useState<ApiToken | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const scopesRef = useRef<HTMLInputElement>(null);

  const toggleScope = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) =>
      on ? [...current.filter((s) => s !== scope), scope] : current.filter((s) => s !== scope),
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFeedback(null);
    const input = { name, scopes, expiresInDays };
    const parsed = apiTokenCreateSchema.safeParse(input);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      (found.name ? nameRef : scopesRef).current?.focus();
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        setCreated(answer);
        setName("");
        setScopes([]);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields.length > 0) {
          const found: Partial<Record<Field, string>> = {};
          for (const problem of error.fields) found[problem.field as Field] = problem.message;
          setErrors(found);
        }
        setFeedback({
          tone: "error",
          text: `${messageFor(error, "We could not reach the server.")} No token was created.`,
        });
      },
    });
  };

  const doRevoke = (token: ApiToken) =>
    revoke.mutate(token.id, {
      onSuccess: () => {
        setConfirming(null);
        setFeedback({
          tone: "success",
          text: `The token “${token.name}” has been revoked. Every request with it is refused from now on.`,
        });
      },
      onError: (error) => {
        setConfirming(null);
        setFeedback({
          tone: "error",
          text: `${messageFor(error, "We could not reach the server.")} The token “${token.name}” was not revoked.`,
        });
      },
    });

  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`token-${field}-error`} className="field__error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <section aria-labelledby="tokens-title" className="tokens">
      <header className="page__header">
        <h1 id="tokens-title">API tokens</h1>
      </header>
      <p className="muted">
        A token lets one of the university’s systems (the registrar, the finance office) call the
        API with exactly the scopes you tick, until it expires or you revoke it. It is sent as{" "}
        <code>Authorization: Bearer …</code> and never opens a page.
      </p>

      {created ? (
        <SecretShownOnce
          title={<>Token “{created.data.name}” created</>}
          label="The new token"
          value={created.token}
          copyLabel="Copy token"
          onDone={() => setCreated(null)}
        >
          <p>
            <strong>Copy it now: you will not see it again.</strong> We keep only a fingerprint of
            it, so nobody can show it to you later.
          </p>
        </SecretShownOnce>
      ) : null}

      {feedback ? (
        <Alert tone={feedback.tone}>
          <p>{feedback.text}</p>
        </Alert>
      ) : null}

      <h2>Create a token</h2>
      <form
        className="form tokens-form"
        noValidate
        onSubmit={onSubmit}
        aria-busy={create.isPending}
      >
        <div className={errors.name ? "field field--error" : "field"}>
          <label htmlFor="token-name">Name</label>
          <p id="token-name-hint" className="field__hint">
            The system that will use it, as you want to see it in the audit log and on checklists
            (for example “Finance office ERP”).
          </p>
          {fieldError("name")}
          <input
            id="token-name"
            ref={nameRef}
            value={name}
            maxLength={80}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "token-name-hint token-name-error" : "token-name-hint"}
            onChange={(event) => setName(event.target.value)}
          />
        </div>

        <fieldset
          className={errors.scopes ? "field field--error" : "field"}
          aria-describedby={errors.scopes ? "token-scopes-error" : undefined}
        >
          <legend>Scopes</legend>
          {fieldError("scopes")}
          {API_TOKEN_SCOPES.map((scope, index) => (
            <label key={scope} className="checkbox">
              <input
                type="checkbox"
                ref={index === 0 ? scopesRef : undefined}
                checked={scopes.includes(scope)}
                onChange={(event) => toggleScope(scope, event.target.checked)}
              />
              <span>
                <code>{scope}</code> — {API_TOKEN_SCOPE_LABELS[scope]}
              </span>
            </label>
          ))}
        </fieldset>

        <div className={errors.expiresInDays ? "field field--error" : "field"}>
          <label htmlFor="token-expiry">Expires after</label>
          {fieldError("expiresInDays")}
          <select
            id="token-expiry"
            value={expiresInDays}
            aria-invalid={errors.expiresInDays ? true : undefined}
            aria-describedby={errors.expiresInDays ? "token-expiresInDays-error" : undefined}
            onChange={(event) => setExpiresInDays(Number(event.target.value))}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.days} value={choice.days}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>

        <div className="actions">
          <button type="submit" className="button" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </button>
        </div>
      </form>

      <h2>Tokens</h2>
      {tokens.isPending ? (
        <Loading label="Loading tokens…" />
      ) : tokens.isError ? (
        <LoadError error={tokens.error} what="the tokens" onRetry={() => void tokens.refetch()} />
      ) : tokens.data.items.length === 0 ? (
        <div className="empty">
          <p>No API token has been created yet.</p>
        </div>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table tokens-table">
              <caption className="visually-hidden">API tokens, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">State</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.items.map((token) => (
                  <tr key={token.id}>
                    <td>
                      {token.name}
                      <div className="muted">
                        <code>{token.prefix}…</code>
                      </div>
                    </td>
                    <td>
                      <ul className="tokens-table__scopes">
                        {token.scopes.map((scope) => (
                          <li key={scope}>
                            <code>{scope}</code>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>
                      <span
                        className={token.state === "active" ? "chip chip--green" : "chip chip--red"}
                      >
                        {token.state === "active"
                          ? "Active"
                          : token.state === "expired"
                            ? "Expired"
                            : "Revoked"}
                      </span>
                    </td>
                    <td>{formatDateTime(token.expiresAt)}</td>
                    <td>
                      {token.lastUsedAt ? (
                        <>
                          {formatDateTime(token.lastUsedAt)}
                          <div className="muted">
                            from {token.lastUsedFrom ?? "an unknown address"}
                          </div>
                        </>
                      ) : (
                        <span className="muted">Never</span>
                      )}
                    </td>
                    <td>
                      {token.state === "active" ? (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          disabled={revoke.isPending}
                          onClick={() => setConfirming(token)}
                          aria-label={`Revoke ${token.name}`}
                        >
                          Revoke
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {tokens.data.total > tokens.data.pageSize ? (
            <nav className="actions" aria-label="Pages of tokens">
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={page === 1}
                onClick={() => setPage((p) => Math.max(1, p - 1))}
              >
                Newer tokens
              </button>
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={page * tokens.data.pageSize >= tokens.data.total}
                onClick={() => setPage((p) => p + 1)}
              >
                Older tokens
              </button>
            </nav>
          ) : null}
        </>
      )}

      {confirming ? (
        <ConfirmDialog
          title={`Revoke ${confirming.name}?`}
          confirmLabel="Revoke token"
          tone="danger"
          busy={revoke.isPending}
          onConfirm={() => doRevoke(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            Every request made with this token will be refused from now on. This cannot be undone:
            the system using it will need a new token.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
