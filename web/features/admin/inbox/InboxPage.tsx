import { Loading } from "../../../components/ui/Loading.js";
import { formatDateTime } from "../../../lib/format.js";
import { LoadError } from "../components/LoadError.js";
import { useContactMessages } from "./api/get-contact-messages.js";
import { useFailedMail } from "./api/get-failed-mail.js";
import "./inbox.css";

/** What needs a person's attention: messages from the contact form, and mail that could not be delivered. */
export function InboxPage() {
  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">Inbox</h1>
      <div className="inbox-grid">
        <ContactMessages />
        <FailedMail />
      </div>
    </section>
  );
}

function ContactMessages() {
  const messages = useContactMessages();
  return (
    <section aria-labelledby="contact-messages-title" className="card">
      <h2 id="contact-messages-title">
        Contact messages
        {messages.data ? <span className="inbox-count"> ({messages.data.length})</span> : null}
      </h2>
      {messages.isPending ? (
        <Loading label="Loading contact messages…" />
      ) : messages.isError ? (
        <LoadError
          error={messages.error}
          what="the contact messages"
          onRetry={() => void messages.refetch()}
        />
      ) : messages.data.length === 0 ? (
        <p className="empty">No one has written through the contact form yet.</p>
      ) : (
        <ol className="inbox-list">
          {[...messages.data]
            .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
            .map((message) => (
              <li key={message.id} className="inbox-item">
                <p className="inbox-item__meta">
                  <a
                    href={`mailto:${message.email}?subject=${encodeURIComponent("Your message to the School of Graduate Studies")}`}
                  >
                    {message.email}
                  </a>
                  {" · "}
                  <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                </p>
                <p className="inbox-item__body">{message.message}</p>
              </li>
            ))}
        </ol>
      )}
    </section>
  );
}

function FailedMail() {
  const mail = useFailedMail();
  return (
    <section aria-labelledby="failed-mail-title" className="card">
      <h2 id="failed-mail-title">
        Failed mail{mail.data ? <span className="inbox-count"> ({mail.data.length})</span> : null}
      </h2>
      <p className="muted">
        These emails could not be delivered after several attempts. Contact the person another way,
        or check the address on their account.
      </p>
      {mail.isPending ? (
        <Loading label="Loading failed mail…" />
      ) : mail.isError ? (
        <LoadError error={mail.error} what="the failed mail" onRetry={() => void mail.refetch()} />
      ) : mail.data.length === 0 ? (
        <p className="empty">Every email has been delivered.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Emails that could not be delivered</caption>
            <thead>
              <tr>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Queued</th>
              </tr>
            </thead>
            <tbody>
              {mail.data.map((item) => (
                <tr key={item.id}>
                  <td>{item.to}</td>
                  <td>{item.subject}</td>
                  <td>{item.attempts}</td>
                  <td className="inbox-error">{item.lastError ?? "—"}</td>
                  <td>
                    <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
