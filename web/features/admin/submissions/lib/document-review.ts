import type {
  DocumentSlot,
  DocumentVersion,
  ReviewState,
  SlotState,
} from "../../../../../common/documents.js";
import { formatBytes } from "../../../../../common/documents-constants.js";
import { formatDate, formatDateTime } from "../../../../lib/format.js";

/**
 * The reviewer's words for documents. The contract's labels speak to the student ("With the
 * school"); the school reads the same states as work to do ("Waiting for review"). Each state has
 * an icon as well as a colour, so neither carries the meaning alone.
 */
export const SLOT_STATE_WORDS: Record<SlotState, string> = {
  to_upload: "Not uploaded",
  with_school: "Waiting for review",
  accepted: "Accepted",
  returned: "Returned to the student",
};

export const SLOT_STATE_ICONS: Record<SlotState, string> = {
  to_upload: "✗",
  with_school: "◐",
  accepted: "✓",
  returned: "↩",
};

export const SLOT_STATE_TONES: Record<SlotState, string> = {
  to_upload: "chip--red",
  with_school: "chip--amber",
  accepted: "chip--green",
  returned: "chip--navy",
};

export const REVIEW_STATE_WORDS: Record<ReviewState, string> = {
  pending: "Waiting for review",
  accepted: "Accepted",
  returned: "Returned",
  superseded: "Replaced before review",
};

/** "Accepted 3 March 2025", "Paper copy received 3 March 2025", "Waiting for review". */
export function slotStateText(
  slot: Pick<DocumentSlot, "state" | "paperCopy" | "receivedOn">,
): string {
  if (slot.state === "accepted" && slot.paperCopy) {
    return slot.receivedOn
      ? `Paper copy received ${formatDate(slot.receivedOn)}`
      : "Paper copy received";
  }
  if (slot.state === "accepted" && slot.receivedOn) {
    return `Accepted ${formatDate(slot.receivedOn)}`;
  }
  return SLOT_STATE_WORDS[slot.state];
}

/**
 * What the reviewer may decide on the current version: accept one that waits for review; return
 * one that waits, or one already accepted (the only way to undo an acceptance).
 */
export function reviewActions(slot: Pick<DocumentSlot, "current">): {
  accept: boolean;
  return: boolean;
} {
  const state = slot.current?.reviewState;
  return { accept: state === "pending", return: state === "pending" || state === "accepted" };
}

/** "12 pages · 840 KB · uploaded 3 Mar 2025, 10:00". */
export function versionFacts(
  version: Pick<DocumentVersion, "pageCount" | "sizeBytes" | "uploadedAt">,
): string {
  const pages = `${version.pageCount} ${version.pageCount === 1 ? "page" : "pages"}`;
  return `${pages} · ${formatBytes(version.sizeBytes)} · uploaded ${formatDateTime(version.uploadedAt)}`;
}

/** What the PDF carries that a reviewer should know before opening it. */
export function versionFlags(
  version: Pick<DocumentVersion, "hasJavaScript" | "hasEmbeddedFiles">,
): string[] {
  return [
    ...(version.hasJavaScript ? ["Contains scripts"] : []),
    ...(version.hasEmbeddedFiles ? ["Contains attachments"] : []),
  ];
}

/** The same PDF as an attachment rather than shown in the browser. */
export function downloadHref(href: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}download=1`;
}
