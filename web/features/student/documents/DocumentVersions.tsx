import type { DocumentVersion } from "../../../../common/documents.js";
import { formatBytes, REVIEW_STATE_LABELS } from "../../../../common/documents-constants.js";
import { formatDate } from "../../../lib/format.js";

function pages(count: number): string {
  return count === 1 ? "1 page" : `${count} pages`;
}

function downloadHref(href: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}download=1`;
}

/** The file's name opens the PDF in a new tab; the browser shows it inline. */
function FileLink({ version }: { version: DocumentVersion }) {
  return (
    <a className="document__file-link" href={version.href} target="_blank" rel="noopener">
      {version.fileName} <span className="visually-hidden">(opens in a new tab)</span>
    </a>
  );
}

export function CurrentVersion({ version }: { version: DocumentVersion }) {
  return (
    <div className="document__current">
      <p className="document__file">
        <FileLink version={version} />
      </p>
      <p className="document__meta">
        Version {version.version} · {formatBytes(version.sizeBytes)} · {pages(version.pageCount)} ·
        uploaded <time dateTime={version.uploadedAt}>{formatDate(version.uploadedAt)}</time>
      </p>
      <p className="document__download">
        <a href={downloadHref(version.href)} download>
          Download <span className="visually-hidden">{version.fileName}</span>
        </a>
      </p>
    </div>
  );
}

/** Older uploads, folded away under the current one, newest first as the server sends them. */
export function EarlierVersions({ versions }: { versions: DocumentVersion[] }) {
  if (versions.length === 0) return null;
  return (
    <details className="document__earlier">
      <summary>Earlier versions ({versions.length})</summary>
      <ol className="versions">
        {versions.map((version) => (
          <li key={version.id} className="versions__item">
            <p className="versions__name">
              <FileLink version={version} />
            </p>
            <p className="versions__meta">
              Version {version.version} · {formatBytes(version.sizeBytes)} ·{" "}
              {pages(version.pageCount)} · uploaded{" "}
              <time dateTime={version.uploadedAt}>{formatDate(version.uploadedAt)}</time> ·{" "}
              <strong>{REVIEW_STATE_LABELS[version.reviewState]}</strong>
              {version.reviewedAt && version.reviewState !== "superseded" ? (
                <> on {formatDate(version.reviewedAt)}</>
              ) : null}
            </p>
            {version.returnReason ? (
              <p className="versions__reason">
                <span className="versions__reason-label">Reason: </span>
                {version.returnReason}
              </p>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
