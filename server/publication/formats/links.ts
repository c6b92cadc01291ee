import type { PublishedRecord } from "../../../common/publication.js";

/**
 * What the formats need besides the record: where the public pages live, and the university's
 * name. `Config` has this shape (its `publicUrl`, PUBLIC_URL without a trailing slash, and
 * `universityName`, ETS_INSTITUTION), so callers pass `app.config`.
 */
export interface FormatLinks {
  publicUrl: string;
  /** The university that grants the degree; absent or null, the record's department stands in. */
  universityName?: string | null;
}

/** Who grants the degree: the university when its name is set, else the record's department. */
export function degreeGrantor(
  links: FormatLinks,
  record: Pick<PublishedRecord, "department">,
): string {
  const name = links.universityName?.trim();
  return name ? name : record.department;
}

/** The thesis's public page (`/theses/:id`, served by the public pages). */
export function publicPageUrl(
  links: FormatLinks,
  record: Pick<PublishedRecord, "submissionId">,
): string {
  return `${links.publicUrl.replace(/\/+$/, "")}/theses/${record.submissionId}`;
}

/**
 * The repository's item address as a URL: a handle such as `123456789/42` becomes
 * `https://hdl.handle.net/123456789/42`; an address that is already a URL stays as it is.
 */
export function handleUrl(handle: string): string {
  if (/^https?:\/\//i.test(handle)) return handle;
  return `https://hdl.handle.net/${handle.replace(/^hdl:/i, "")}`;
}

/** The embargo's end while it still holds files back, else null. */
export function embargoedUntil(record: PublishedRecord): string | null {
  return record.filesPublic ? null : record.embargo.until;
}
