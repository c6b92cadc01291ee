import { Loading } from "../../../../components/ui/Loading.js";
import { formatDateTime } from "../../../../lib/format.js";
import { LoadError } from "../../components/LoadError.js";
import { useSubmissionEvents } from "../api/get-submission-events.js";
import { describeEvent, eventKindLabel } from "../lib/describe.js";

/** The record's history, newest first: what changed, when, by whom, and whether it was out of order. */
export function SubmissionTimeline({ submissionId }: { submissionId: number }) {
  const events = useSubmissionEvents(submissionId);
  if (events.isPending) return <Loading label="Loading the history…" />;
  if (events.isError) {
    return (
      <LoadError
        error={events.error}
        what="this submission's history"
        onRetry={() => void events.refetch()}
      />
    );
  }
  if (events.data.length === 0) {
    return <p className="muted">No changes have been recorded for this submission yet.</p>;
  }
  const newestFirst = [...events.data].sort((a, b) =>
    a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id,
  );
  return (
    <ol className="timeline">
      {newestFirst.map((event) => (
        <li key={event.id} className="timeline__item">
          <p className="timeline__what">{describeEvent(event)}</p>
          <p className="timeline__meta">
            <time dateTime={event.at}>{formatDateTime(event.at)}</time>
            {" · "}
            {event.actor ? (event.actor.name ?? event.actor.email) : "System"}
            {" · "}
            <span className="chip">{eventKindLabel(event.kind)}</span>
            {event.confirmedOutOfOrder ? (
              <span className="chip chip--amber">Confirmed out of order</span>
            ) : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
