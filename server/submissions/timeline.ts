import type { Submission } from "../../common/submission.js";
import type { TimelineItem } from "../../common/submissions-api.js";
import {
  DOCUMENTS,
  DOCUMENT_LABELS,
  WORKFLOW_FIELDS,
  describeWorkflowMove,
  type DocumentItem,
} from "../../common/workflow.js";
import { documentValue, isWorkflowField } from "./changes.js";

/** The parts of a stored event the timeline reads; who made the change stays out of it. */
export interface TimelineEvent {
  at: string;
  field: string;
  from: string | null;
  to: string | null;
  /** Tells a review's acceptance ("accept") from its return ("return"). */
  kind: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The student's timeline: dated milestones in plain words, oldest first. Built from the
 * submission's events; what the record shows without an event behind it (sample data, imports of
 * records that already had a stage) is dated from when the record was created.
 */
export function buildTimeline(s: Submission, events: TimelineEvent[]): TimelineItem[] {
  const items: TimelineItem[] = [{ at: s.createdAt, label: "Submission recorded" }];

  // What each field held when the record was created: the first event's "from", else today's value.
  const firstFrom = new Map<string, string | null>();
  for (const event of events) {
    if (!firstFrom.has(event.field)) firstFrom.set(event.field, event.from);
  }
  const initial = (field: string, current: string | null) =>
    firstFrom.has(field) ? (firstFrom.get(field) ?? null) : current;

  for (const item of DOCUMENTS) {
    const value = initial(`documents.${item}`, documentValue(s.documents[item]));
    if (value !== null) {
      items.push({
        at: receivedAt(value, s.createdAt),
        label: `${DOCUMENT_LABELS[item]} received`,
      });
    }
  }
  for (const field of WORKFLOW_FIELDS) {
    const value = initial(field, s[field]);
    if (value !== null) {
      items.push({ at: s.createdAt, label: describeWorkflowMove(field, null, value) });
    }
  }
  const status = initial("thesisStatus", s.thesisStatus);
  if (status !== null) items.push({ at: s.createdAt, label: `Thesis status: ${status}` });

  // A review sets or clears its checklist item at the same moment; its own milestone ("Thesis
  // accepted", "Thesis returned: …") says it, so the item's change adds nothing.
  const reviewed = new Set(
    events.filter((e) => e.field.startsWith("review.")).map((e) => reviewKey(e.field, e.at)),
  );

  for (const event of events) {
    const upload = documentOf(event.field, "upload.");
    const review = documentOf(event.field, "review.");
    if (upload) {
      items.push({ at: event.at, label: `${DOCUMENT_LABELS[upload]} uploaded` });
    } else if (review && event.kind === "accept") {
      items.push({ at: event.at, label: `${DOCUMENT_LABELS[review]} accepted` });
    } else if (review && event.kind === "return") {
      items.push({ at: event.at, label: `${DOCUMENT_LABELS[review]} returned: ${event.to ?? ""}` });
    } else if (isWorkflowField(event.field)) {
      items.push({ at: event.at, label: describeWorkflowMove(event.field, event.from, event.to) });
    } else if (event.field.startsWith("documents.")) {
      const item = event.field.slice("documents.".length);
      if (!isDocumentItem(item)) continue;
      if (reviewed.has(reviewKey(`review.${item}`, event.at))) continue;
      if (event.to !== null && event.from === null) {
        items.push({
          at: receivedAt(event.to, event.at),
          label: `${DOCUMENT_LABELS[item]} received`,
        });
      } else if (event.to === null) {
        items.push({ at: event.at, label: `${DOCUMENT_LABELS[item]} marked as not received` });
      }
    } else if (event.field === "thesisStatus" && event.to !== null) {
      items.push({ at: event.at, label: `Thesis status: ${event.to}` });
    }
  }

  // Stable: milestones of the same moment keep the order they were recorded in.
  return items
    .map((item, position) => ({ item, position }))
    .sort((a, b) => compareText(a.item.at, b.item.at) || a.position - b.position)
    .map(({ item }) => item);
}

/** A document's value is its received date when known: that is the milestone's date. */
function receivedAt(value: string, otherwise: string): string {
  return DATE_ONLY.test(value) ? value : otherwise;
}

/** The item of an "upload.<item>" or "review.<item>" field, or null. */
function documentOf(field: string, prefix: "upload." | "review."): DocumentItem | null {
  if (!field.startsWith(prefix)) return null;
  const item = field.slice(prefix.length);
  return isDocumentItem(item) ? item : null;
}

function reviewKey(field: string, at: string): string {
  return `${field} ${at}`;
}

function isDocumentItem(value: string): value is DocumentItem {
  return (DOCUMENTS as readonly string[]).includes(value);
}

/** ISO times and dates order as plain strings (a date before any time of that day). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
