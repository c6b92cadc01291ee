import type { PublicationView } from "../../../../common/publication.js";

/**
 * The library's actions on a published thesis: "Deposit to repository" with its state, and the
 * exports (issue 20, items 3 and 4). This file is the slot the publication library slice
 * (pub-library) fills in; until then it shows what the record knows of the deposit: the
 * repository's item address once deposited. Rendered by PublicationPanel under the review.
 */
export function PublicationLibraryActions({
  submissionId,
  publication,
}: {
  submissionId: number;
  publication: PublicationView;
}) {
  return (
    <div className="publication__part" data-submission-id={submissionId}>
      <h4>Repository</h4>
      {publication.handle ? (
        <p>
          Deposited: <a href={publication.handle}>{publication.handle}</a>. The record is locked;
          corrections are made in the repository.
        </p>
      ) : (
        <p className="muted">Not deposited in the repository yet.</p>
      )}
    </div>
  );
}
