import { embargoedUntil, type FormatLinks, handleUrl, publicPageUrl } from "./links.js";
import type { PublishedRecord } from "../../../common/publication.js";
import { element, textElement } from "./xml.js";

export const OAI_DC_NAMESPACE = "http://www.openarchives.org/OAI/2.0/oai_dc/";
export const DC_NAMESPACE = "http://purl.org/dc/elements/1.1/";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";
export const OAI_DC_SCHEMA = "http://www.openarchives.org/OAI/2.0/oai_dc.xsd";

/**
 * The record as unqualified Dublin Core in the OAI-PMH container (`oai_dc:dc`), the format every
 * harvester must understand. Elements are written in the order of the oai_dc schema's own list
 * (title, creator, subject, description, publisher, contributor, date, type, format, identifier,
 * language, rights), which any order would satisfy but reads best.
 */
export function dublinCore(record: PublishedRecord, links: FormatLinks): string {
  return element("oai_dc:dc", dublinCoreElements(record, links, "dc:"), {
    "xmlns:oai_dc": OAI_DC_NAMESPACE,
    "xmlns:dc": DC_NAMESPACE,
    "xmlns:xsi": XSI_NAMESPACE,
    "xsi:schemaLocation": `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA}`,
  });
}

/** The fifteen-element vocabulary's values for the record, each `prefix`ed (ETD-MS uses it too). */
export function dublinCoreElements(
  record: PublishedRecord,
  links: FormatLinks,
  prefix: string,
): string[] {
  const dc = (name: string, value: string): string => textElement(`${prefix}${name}`, value);
  const until = embargoedUntil(record);
  return [
    dc("title", record.title),
    dc("creator", record.author.name),
    ...record.keywords.map((keyword) => dc("subject", keyword)),
    dc("description", record.abstract),
    dc("publisher", record.department),
    ...record.supervisors.map((supervisor) => dc("contributor", supervisor.name)),
    dc("date", record.awardDate),
    dc("type", "Text"),
    dc("type", "Thesis"),
    ...(record.file ? [dc("format", record.file.contentType)] : []),
    dc("identifier", publicPageUrl(links, record)),
    ...(record.handle ? [dc("identifier", handleUrl(record.handle))] : []),
    dc("language", record.language),
    ...(until ? [dc("rights", `The files are under embargo until ${until}.`)] : []),
  ];
}
