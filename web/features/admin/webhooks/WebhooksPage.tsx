import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEventType,
} from "../../../../common/webhooks.js";
import { ErrorSummary, type SummaryError } from "../../../components/form/ErrorSummary.js";
import { TextField } from "../../../components/form/Field.js";
import { Alert } from "../../../components/ui/Alert.js";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.js";
import { Loading } from "../../../components/ui/Loading.js";
import { SecretShownOnce } from "../../../components/ui/SecretShownOnce.js";
import { ApiError } from "../../../lib/api-client.js";
import { messageFor } from "../../../lib/form-errors.js";
import { LoadError } from "../components/LoadError.js";
import { DeliveryLog } from "./DeliveryLog.js";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useSwitchWebhook,
  useWebhooks,
} from "./api/webhooks.js";
import "./webhooks.css";

type Feedback = { tone: "success" | "error"; text: string };

/**
 * Webhooks (issue 21): the school's systems told of changes as they happen. Administrators add an
 * endpoint (its address and the events it wants), copy its secret once, switch it off or delete
 * it, and read each endpoint's delivery log, sending a delivery again.
 */
export function WebhooksPage() {
  const [params, setParams] = useSearchParams();
  const before = Number(params.get("before")) || undefined;
  const selected = Number(params.get("endpoint")) || null;
  const webhooks = useWebhooks(before);
  const create = useCreateWebhook();
  const switcher = useSwitchWebhook();
  const remover = useDeleteWebhook();

  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const [attempt, setAttempt] = useState(0);
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);

  const setParam = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });

  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) =>
      on
        ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || current.includes(t))
        : current.filter((t) => t !== type),
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFeedback(null);
    setSecret(null);
    const found: { url?: string; events?: string } = {};
    if (url.trim() === "")
      found.url = "Enter the endpoint's address, e.g. https://example.org/hooks.";
    if (events.length === 0) found.events = "Choose at least one event.";
    setErrors(found);
    if (found.url || found.events) {
      setAttempt((n) => n + 1);
      return;
    }
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (created) => {
          setSecret({ url: created.endpoint.url, value: created.secret });
          setUrl("");
          setEvents([]);
          setParam({ before: null });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields.length > 0) {
            const urlError = error.fields.find((f) => f.field === "url")?.message;
            const eventsError = error.fields.find((f) => f.field.startsWith("events"))?.message;
            setErrors({
              ...(urlError ? { url: urlError } : {}),
              ...(eventsError ? { events: eventsError } : {}),
            });
            setAttempt((n) => n + 1);
            return;
          }
          setFeedback({
            tone: "error",
            text: `${messageFor(error, "We could not reach the server.")} The webhook was not added; try again.`,
          });
        },
      },
    );
  };

  const doSwitch = (endpoint: WebhookEndpoint) =>
    switcher.mutate(
      { id: endpoint.id, active: !endpoint.active },
      {
        onSuccess: () =>
          setFeedback({
            tone: "success",
            text: endpoint.active
              ? `The webhook to ${endpoint.url} is disabled: its deliveries wait until it is enabled.`
              : `The webhook to ${endpoint.url} is enabled.`,
          }),
        onError: (error) =>
          setFeedback({
            tone: "error",
            text: `${messageFor(error, "We could not reach the server.")} Nothing changed; try again.`,
          }),
      },
    );

  const doDelete = (endpoint: WebhookEndpoint) =>
    remover.mutate(endpoint.id, {
      onSuccess: () => {
        setDeleting(null);
        if (selected === endpoint.id) setParam({ endpoint: null });
        setFeedback({
          tone: "success",
          text: `The webhook to ${endpoint.url} and its delivery log were deleted.`,
        });
      },
      onError: (error) => {
        setDeleting(null);
        setFeedback({
          tone: "error",
          text: `${messageFor(error, "We could not reach the server.")} The webhook was not deleted.`,
        });
      },
    });

  const summary: SummaryError[] = [
    ...(errors.url ? [{ id: "webhook-url", message: errors.url }] : []),
    ...(errors.events
      ? [{ id: `webhook-event-${WEBHOOK_EVENT_TYPES[0]}`, message: errors.events }]
      : []),
  ];
  const endpoint = webhooks.data?.items.find((e) => e.id === selected) ?? null;

  return (
    <section aria-labelledby="webhooks-title" className="webhooks-page">
      <h1 id="webhooks-title">Webhooks</h1>
      <p className="muted">
        The school&rsquo;s other systems can be told of changes as they happen. Each delivery is
        signed with the webhook&rsquo;s secret; see the API documentation for how to check it.
      </p>

      {secret ? (
        <SecretShownOnce
          title="Webhook added"
          label="Signing secret"
          value={secret.value}
          copyLabel="Copy secret"
          onDone={() => setSecret(null)}
        >
          <p>
            This is the secret of the webhook to {secret.url}. Copy it now and keep it in the
            receiving system: it is not shown again.
          </p>
        </SecretShownOnce>
      ) : null}
      {feedback ? (
        <Alert tone={feedback.tone}>
          <p>{feedback.text}</p>
        </Alert>
      ) : null}

      <h2>Add a webhook</h2>
      <ErrorSummary errors={summary} attempt={attempt} />
      <form
        className="form webhook-form"
        noValidate
        onSubmit={onSubmit}
        aria-busy={create.isPending}
      >
        <TextField
          id="webhook-url"
          label="Endpoint address"
          hint="An https:// address of the receiving system. Addresses on this machine or a private network are refused unless the server's WEBHOOK_ALLOWED_HOSTS names them."
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          className="input"
          value={url}
          error={errors.url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <fieldset
          className={errors.events ? "field field--error webhook-events" : "field webhook-events"}
          aria-describedby={errors.events ? "webhook-events-error" : undefined}
        >
          <legend>Events to send</legend>
          {errors.events ? (
            <p id="webhook-events-error" className="field__error">
              <span className="visually-hidden">Error: </span>
              {errors.events}
            </p>
          ) : null}
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="checkbox" htmlFor={`webhook-event-${type}`}>
              <input
                id={`webhook-event-${type}`}
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => toggle(type, e.target.checked)}
              />
              {WEBHOOK_EVENT_LABELS[type]}
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="button" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add webhook"}
          </button>
        </div>
      </form>

      <h2>Webhooks</h2>
      {webhooks.isPending ? (
        <Loading label="Loading webhooks…" />
      ) : webhooks.isError ? (
        <LoadError
          error={webhooks.error}
          what="the webhooks"
          onRetry={() => void webhooks.refetch()}
        />
      ) : webhooks.data.items.length === 0 ? (
        <div className="empty">
          <p>No webhook yet. Add one above to tell another system of changes.</p>
        </div>
      ) : (
        <>
          <div className="table-wrap webhooks-wrap">
            <table className="table webhooks-table">
              <caption className="visually-hidden">Webhooks</caption>
              <thead>
                <tr>
                  <th scope="col">Address</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Waiting / given up</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {webhooks.data.items.map((item) => (
                  <tr key={item.id} aria-current={item.id === selected ? "true" : undefined}>
                    <td className="webhook-url">{item.url}</td>
                    <td>{item.events.map((t) => WEBHOOK_EVENT_LABELS[t]).join(", ")}</td>
                    <td>
                      <span className={item.active ? "chip chip--green" : "chip chip--amber"}>
                        {item.active ? "Active" : "Disabled"}
                      </span>
                    </td>
                    <td>
                      {item.pending} / {item.failed}
                    </td>
                    <td className="webhook-actions">
                      <button
                        type="button"
                        className="button button--small"
                        aria-label={`Delivery log of ${item.url}`}
                        aria-pressed={item.id === selected}
                        onClick={() =>
                          setParam({
                            endpoint: item.id === selected ? null : String(item.id),
                            log: null,
                          })
                        }
                      >
                        Delivery log
                      </button>
                      <button
                        type="button"
                        className="button button--small button--secondary"
                        disabled={switcher.isPending}
                        aria-label={`${item.active ? "Disable" : "Enable"} ${item.url}`}
                        onClick={() => doSwitch(item)}
                      >
                        {item.active ? "Disable" : "Enable"}
                      </button>
                      <button
                        type="button"
                        className="button button--small button--danger"
                        aria-label={`Delete ${item.url}`}
                        onClick={() => setDeleting(item)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages of webhooks">
            {before ? (
              <button
                type="button"
                className="button button--small button--secondary"
                onClick={() => setParam({ before: null })}
              >
                Newest webhooks
              </button>
            ) : null}
            {webhooks.data.nextBefore ? (
              <button
                type="button"
                className="button button--small button--secondary"
                onClick={() => setParam({ before: String(webhooks.data.nextBefore) })}
              >
                Older webhooks
              </button>
            ) : null}
          </nav>
        </>
      )}

      {selected !== null ? <DeliveryLog endpointId={selected} url={endpoint?.url ?? null} /> : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Yes, delete it"
          tone="danger"
          busy={remover.isPending}
          onConfirm={() => doDelete(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            {deleting.url} will get no more deliveries, and its delivery log is deleted with it.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
