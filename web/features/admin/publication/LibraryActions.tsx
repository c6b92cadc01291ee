import { useId } from "react";
import type { DepositView } from "../../../../common/deposits.js";
import type { PublicationView } from "../../../../common/publication.js";
import { Alert } from "../../../components/ui/Alert.js";
import { Loading } from "../../../components/ui/Loading.js";
import { messageFor } from "../../../lib/form-errors.js";
import { formatDateTime } from "../../../lib/format.js";
import { LoadError } from "../components/LoadError.js";
import "./library.css";
import {
  EXPORT_FORMAT_LIST,
  EXPORT_LABELS,
  thesisExportUrl,
  useDeposit,
  useRequestDeposit,
} from "./library-api.js";

/**
 * The library's actions on a published thesis (issue 20, items 3 and 4; ADR 026): "Deposit to
 * repository" with the deposit's state (queued, depositing, deposited with its handle, failed
 * with the error and the next try), and the thesis's exports for the library. Rendered by
 * PublicationPanel under the review.
 */
export function PublicationLibraryActions({
  submissionId,
  indexNumber,
  publication,
}: {
  submissionId: number;
  indexNumber: string;
  publication: PublicationView;
}) {
  const headingId = useId();
  const published = publication.state === "published";
  return (
    <section
      className="publication__part"
      aria-labelledby={headingId}
      data-submission-id={submissionId}
    >
      <h4 id={headingId}>Repository and library</h4>
      {published ? (
        <>
          <Deposit indexNumber={indexNumber} />
          <Exports indexNumber={indexNumber} />
        </>
      ) : publication.handle ? (
        <p>
          Deposited: <a href={publication.handle}>{publication.handle}</a>.
        </p>
      ) : (
        <p className="muted">The deposit and the exports open once the thesis is published.</p>
      )}
    </section>
  );
}

function Deposit({ indexNumber }: { indexNumber: string }) {
  const query = useDeposit(indexNumber);
  const request = useRequestDeposit(indexNumber);
  if (query.isPending) return <Loading label="Loading the deposit..." />;
  if (query.isError) {
    return (
      <LoadError error={query.error} what="the deposit" onRetry={() => void query.refetch()} />
    );
  }
  const { configured, deposit } = query.data;
  if (!configured) {
    return (
      <p className="muted">
        No repository is configured (REPOSITORY_SWORD_URL), so theses cannot be deposited from here.
        The exports below still work.
      </p>
    );
  }
  const canRequest = !deposit || deposit.state === "failed";
  return (
    <div>
      <DepositState deposit={deposit} />
      {request.isError ? (
        <Alert tone="error">
          {messageFor(request.error, "The deposit could not be queued. Please try again.")}
        </Alert>
      ) : null}
      {canRequest ? (
        <div className="publication__actions">
          <button
            type="button"
            className="button"
            disabled={request.isPending}
            onClick={() => request.mutate()}
          >
            {deposit?.state === "failed" ? "Try the deposit again" : "Deposit to repository"}
          </button>
        </div>
      ) : null}
    </div>
  );
}

function DepositState({ deposit }: { deposit: DepositView | null }) {
  if (!deposit) return <p className="muted">Not deposited in the repository yet.</p>;
  switch (deposit.state) {
    case "queued":
      return (
        <div role="status">
          <p>
            Queued for deposit
            {deposit.nextAttemptAt ? `; next attempt ${formatDateTime(deposit.nextAttemptAt)}` : ""}
            .
          </p>
          {deposit.lastError ? (
            <p className="muted">
              Attempt {deposit.attempts} failed: {deposit.lastError}
            </p>
          ) : null}
        </div>
      );
    case "depositing":
      return <p role="status">Depositing to the repository now...</p>;
    case "deposited":
      return (
        <p role="status">
          Deposited
          {deposit.depositedAt ? ` on ${formatDateTime(deposit.depositedAt)}` : ""}:{" "}
          {deposit.handle ? (
            <a className="library__handle" href={deposit.handle}>
              {deposit.handle}
            </a>
          ) : (
            "no address yet"
          )}
          . The record is locked; corrections are made in the repository.
        </p>
      );
    case "failed":
      return (
        <Alert tone="error" title="The deposit failed">
          <p>
            After {deposit.attempts} attempts the repository still refused it
            {deposit.lastError ? `: ${deposit.lastError}` : "."}
          </p>
        </Alert>
      );
  }
}

function Exports({ indexNumber }: { indexNumber: string }) {
  const headingId = useId();
  return (
    <div className="publication__part">
      <h5 id={headingId}>Exports for the library</h5>
      <ul aria-labelledby={headingId} className="library__exports">
        {EXPORT_FORMAT_LIST.map((format) => (
          <li key={format}>
            <a href={thesisExportUrl(indexNumber, format)} download>
              {EXPORT_LABELS[format]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
