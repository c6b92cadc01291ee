import { ErrorState } from "../../components/ui/ErrorState.js";
import { Loading } from "../../components/ui/Loading.js";
import { Alert } from "../../components/ui/Alert.js";
import { formatDateTime } from "../../lib/format.js";
import {
  newestFirst,
  useMarkMessageRead,
  useMessages,
  type StudentMessage,
} from "./api/messages.js";

export function MessagesPage() {
  const messages = useMessages();
  const markRead = useMarkMessageRead();

  let content;
  if (messages.isPending) {
    content = <Loading label="Loading your messages..." />;
  } else if (messages.isError) {
    content = (
      <ErrorState
        message="We could not load your messages. Check your connection and try again."
        onRetry={() => void messages.refetch()}
      />
    );
  } else if (messages.data.items.length === 0) {
    content = (
      <div className="empty">
        <p>
          <strong>No messages yet.</strong>
        </p>
        <p>Notices from the School of Graduate Studies about your submission will appear here.</p>
      </div>
    );
  } else {
    const { unreadCount } = messages.data;
    content = (
      <>
        <p className="muted" role="status">
          {unreadCount === 0
            ? "All messages read."
            : `${unreadCount} unread ${unreadCount === 1 ? "message" : "messages"}.`}
        </p>
        {markRead.isError ? (
          <Alert tone="error">We could not mark that message as read. Please try again.</Alert>
        ) : null}
        <ul className="messages">
          {newestFirst(messages.data.items).map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              busy={markRead.isPending && markRead.variables === message.id}
              onRead={() => markRead.mutate(message.id)}
            />
          ))}
        </ul>
      </>
    );
  }

  return (
    <section aria-labelledby="messages-title">
      <h1 id="messages-title">MESSAGES</h1>
      {content}
    </section>
  );
}

function MessageItem({
  message,
  busy,
  onRead,
}: {
  message: StudentMessage;
  busy: boolean;
  onRead: () => void;
}) {
  const titleId = `message-${message.id}-title`;
  return (
    <li className={message.read ? "message" : "message message--unread"}>
      <article aria-labelledby={titleId}>
        <header className="message__header">
          <h2 id={titleId} className="message__title">
            {message.read ? null : <span className="chip chip--navy message__new">Unread</span>}
            {message.title ??
              (message.broadcast ? "Notice to all students" : "About your submission")}
          </h2>
          <p className="message__meta">
            <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
            {message.broadcast ? " · To all students" : null}
          </p>
        </header>
        <p className="message__body">{message.body}</p>
        {message.read ? null : (
          <button
            type="button"
            className="button button--secondary button--small message__mark"
            onClick={onRead}
            disabled={busy}
          >
            {busy ? "Marking..." : "Mark as read"}
          </button>
        )}
      </article>
    </li>
  );
}
