import type { PublishedRecord } from "../../../common/publication.js";
import {
  degreeGrantor,
  embargoedUntil,
  type FormatLinks,
  handleUrl,
  publicPageUrl,
} from "./links.js";
import { ETDMS_DEGREE_LEVEL } from "./etdms.js";
import { element, textElement } from "./xml.js";

/**
 * DSpace's own metadata files, as its Simple Archive Format (and the METS SIP's DIM) take them:
 * `dublin_core.xml` (schema "dc") and `metadata_etdms.xml` (schema "etdms", the thesis's degree),
 * each a `dublin_core` root of `dcvalue` elements named by element and qualifier.
 */

type DcValue = [element: string, qualifier: string, value: string];

function dspaceFile(schema: string, values: DcValue[]): string {
  return element(
    "dublin_core",
    values.map(([name, qualifier, value]) =>
      textElement("dcvalue", value, { element: name, qualifier }),
    ),
    { schema },
  );
}

/** The "dc" values DSpace's default registry knows. */
export function dspaceDcValues(record: PublishedRecord, links: FormatLinks): DcValue[] {
  const until = embargoedUntil(record);
  return [
    ["title", "none", record.title],
    ["contributor", "author", record.author.name],
    ...record.supervisors.map((s): DcValue => ["contributor", "advisor", s.name]),
    ...record.keywords.map((k): DcValue => ["subject", "none", k]),
    ["description", "abstract", record.abstract],
    ["date", "issued", record.awardDate],
    ["language", "iso", record.language],
    ["type", "none", "Thesis"],
    ["publisher", "none", record.department],
    ["identifier", "uri", publicPageUrl(links, record)],
    ["identifier", "other", `ets:${record.submissionId}`],
    ...(record.handle ? [["identifier", "uri", handleUrl(record.handle)] as DcValue] : []),
    // DSpace's embargo setter reads the end date from the field its embargo.field.terms names;
    // dc.embargo.terms is the usual one (ADR 026).
    ...(until ? [["embargo", "terms", until] as DcValue] : []),
  ];
}

/** The thesis's degree, in the "etdms" schema (degree.name, .level, .discipline, .grantor). */
export function dspaceEtdmsValues(record: PublishedRecord, links: FormatLinks): DcValue[] {
  return [
    ["degree", "name", record.degree.name],
    ["degree", "level", ETDMS_DEGREE_LEVEL[record.degree.level]],
    ["degree", "discipline", record.programme],
    ["degree", "grantor", degreeGrantor(links, record)],
  ];
}

export function dspaceDublinCore(record: PublishedRecord, links: FormatLinks): string {
  return dspaceFile("dc", dspaceDcValues(record, links));
}

export function dspaceEtdms(record: PublishedRecord, links: FormatLinks): string {
  return dspaceFile("etdms", dspaceEtdmsValues(record, links));
}
