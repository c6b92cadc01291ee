import { useState } from "react";
import { WEBHOOK_EVENT_LABELS, type WebhookEventType } from "../../../../common/webhooks.js";
import { Alert } from "../../../components/ui/Alert.js";
import { Loading } from "../../../components/ui/Loading.js";
import { formatDateTime } from "../../../lib/format.js";
import { messageFor } from "../../../lib/form-errors.js";
import { LoadError } from "../components/LoadError.js";
import { useDeliveries, useSendAgain } from "./api/webhooks.js";

const STATUS_LABELS = { pending: "Waiting", delivered: "Delivered", failed: "Given up" } as const;
const STATUS_CHIPS = {
  pending: "chip chip--amber",
  delivered: "chip chip--green",
  failed: "chip chip--red",
} as const;

/** One endpoint's delivery log, newest first, a page at a time, with "Send again". */
export function DeliveryLog({ endpointId, url }: { endpointId: number; url: string | null }) {
  const [before, setBefore] = useState<number[]>([]);
  const cursor = before[before.length - 1];
  const deliveries = useDeliveries(endpointId, cursor);
  const sendAgain = useSendAgain();
  const [feedback, setFeedback] = useState<{ tone: "success" | "error"; text: string } | null>(
    null,
  );

  const label = (type: string) => WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? type;

  return (
    <section aria-labelledby="delivery-log-title" className="delivery-log">
      <h2 id="delivery-log-title">Delivery log{url ? ` of ${url}` : ""}</h2>
      {feedback ? (
        <Alert tone={feedback.tone}>
          <p>{feedback.text}</p>
        </Alert>
      ) : null}
      {deliveries.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <LoadError
          error={deliveries.error}
          what="the delivery log"
          onRetry={() => void deliveries.refetch()}
        />
      ) : deliveries.data.items.length === 0 ? (
        <div className="empty">
          <p>Nothing has been sent to this webhook yet.</p>
        </div>
      ) : (
        <>
          <div className="table-wrap webhooks-wrap">
            <table className="table deliveries-table">
              <caption className="visually-hidden">Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.items.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      {label(delivery.type)}
                      {delivery.submissionId !== null ? (
                        <span className="muted"> · submission {delivery.submissionId}</span>
                      ) : null}
                      <br />
                      <code className="muted">{delivery.eventId}</code>
                      {delivery.redeliveryOf !== null ? (
                        <span className="muted"> · sent again</span>
                      ) : null}
                    </td>
                    <td>
                      <span className={STATUS_CHIPS[delivery.status]}>
                        {STATUS_LABELS[delivery.status]}
                      </span>
                      {delivery.nextAttemptAt && delivery.attempts > 0 ? (
                        <div className="muted">
                          Next try {formatDateTime(delivery.nextAttemptAt)}
                        </div>
                      ) : null}
                    </td>
                    <td>
                      {delivery.attemptLog.length === 0 ? (
                        <span className="muted">Not tried yet</span>
                      ) : (
                        <ol className="attempt-log" reversed>
                          {delivery.attemptLog.map((a, i) => (
                            <li key={i}>
                              {formatDateTime(a.at)}:{" "}
                              {a.statusCode !== null ? `HTTP ${a.statusCode}` : "no answer"}
                              {a.error ? ` — ${a.error}` : ""}
                            </li>
                          ))}
                        </ol>
                      )}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button--small button--secondary"
                        disabled={sendAgain.isPending}
                        aria-label={`Send again ${delivery.eventId}`}
                        onClick={() =>
                          sendAgain.mutate(
                            { id: endpointId, deliveryId: delivery.id },
                            {
                              onSuccess: () =>
                                setFeedback({
                                  tone: "success",
                                  text: `${label(delivery.type)} (${delivery.eventId}) will be sent again shortly.`,
                                }),
                              onError: (error) =>
                                setFeedback({
                                  tone: "error",
                                  text: `${messageFor(error, "We could not reach the server.")} It was not queued; try again.`,
                                }),
                            },
                          )
                        }
                      >
                        Send again
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages of the delivery log">
            {before.length > 0 ? (
              <button
                type="button"
                className="button button--small button--secondary"
                onClick={() => setBefore((b) => b.slice(0, -1))}
              >
                Newer deliveries
              </button>
            ) : null}
            {deliveries.data.nextBefore ? (
              <button
                type="button"
                className="button button--small button--secondary"
                onClick={() => setBefore((b) => [...b, deliveries.data.nextBefore!])}
              >
                Older deliveries
              </button>
            ) : null}
          </nav>
        </>
      )}
    </section>
  );
}
