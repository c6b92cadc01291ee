import {
  degreeGrantor,
  embargoedUntil,
  type FormatLinks,
  handleUrl,
  publicPageUrl,
} from "./links.js";
import type { PublishedRecord } from "../../../common/publication.js";
import { type Attributes, element, textElement } from "./xml.js";

export const MARC_NAMESPACE = "http://www.loc.gov/MARC21/slim";
export const MARC_SCHEMA = "http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

/**
 * The leader: a new record (05 n) of language material (06 a), a monograph (07 m), in Unicode
 * (09 a), at minimal level (17 7) without ISBD punctuation (18 c). The record length and base
 * address (00-04, 12-16) only mean something in binary MARC; MARCXML writes zeros.
 */
export const MARC_LEADER = "00000nam a22000007c 4500";

type Subfield = [code: string, value: string];

/**
 * One record in MARCXML (MARC 21 bibliographic): leader, 001 and 008, then 041 language, 100 the
 * author, 245 the title, 264 its year, 300 the extent, 502 the dissertation note (degree,
 * grantor, year), 506 the embargo while it holds, 520 the abstract, 650 the programme as a
 * subject (second indicator 4: source not given), 653 the keywords (uncontrolled), 700 the
 * supervisors (with the ORCID iD as a URI in $1), 710 the degree-granting university and
 * department, 856 the public page and the repository item.
 */
export function marcXml(record: PublishedRecord, links: FormatLinks): string {
  return marcRecord(record, links, {
    xmlns: MARC_NAMESPACE,
    "xmlns:xsi": XSI_NAMESPACE,
    "xsi:schemaLocation": `${MARC_NAMESPACE} ${MARC_SCHEMA}`,
  });
}

/** The opening of a MARCXML `collection`; records inside it are written without their own namespace. */
export const MARC_COLLECTION_START = `<collection xmlns="${MARC_NAMESPACE}" xmlns:xsi="${XSI_NAMESPACE}" xsi:schemaLocation="${MARC_NAMESPACE} ${MARC_SCHEMA}">`;
export const MARC_COLLECTION_END = "</collection>";

/** A `record` for inside a collection (the namespace is the collection's). */
export function marcXmlInCollection(record: PublishedRecord, links: FormatLinks): string {
  return marcRecord(record, links, {});
}

function marcRecord(record: PublishedRecord, links: FormatLinks, attributes: Attributes): string {
  const year = record.awardDate.slice(0, 4);
  const until = embargoedUntil(record);
  const fields = [
    textElement("leader", MARC_LEADER),
    controlField("001", `ets-${record.submissionId}`),
    controlField("008", fixedLengthData(record)),
    dataField("041", " ", " ", [["a", marcLanguage(record.language)]]),
    dataField("100", "1", " ", [
      ["a", record.author.name],
      ["e", "author"],
    ]),
    dataField("245", "1", "0", [["a", record.title]]),
    dataField("264", " ", "0", [["c", year]]),
    dataField("300", " ", " ", [["a", "1 online resource"]]),
    dataField("502", " ", " ", [
      ["b", record.degree.name],
      ["c", degreeGrantor(links, record)],
      ["d", year],
    ]),
    ...(until ? [dataField("506", "1", " ", [["a", `Files under embargo until ${until}.`]])] : []),
    ...abstractParts(record.abstract).map((part) => dataField("520", "3", " ", [["a", part]])),
    dataField("650", " ", "4", [["a", record.programme]]),
    ...record.keywords.map((keyword) => dataField("653", " ", " ", [["a", keyword]])),
    ...record.supervisors.map((supervisor) =>
      dataField("700", "1", " ", [
        ["a", supervisor.name],
        ["e", "thesis advisor"],
        ...(supervisor.orcid ? [["1", `https://orcid.org/${supervisor.orcid}`] as Subfield] : []),
      ]),
    ),
    degreeGrantingBody(record, links),
    dataField("856", "4", "0", [
      ["u", publicPageUrl(links, record)],
      ["z", "The thesis's public page"],
    ]),
    ...(record.handle
      ? [
          dataField("856", "4", "0", [
            ["u", handleUrl(record.handle)],
            ["z", "The repository's item"],
          ]),
        ]
      : []),
  ];
  return element("record", fields, attributes);
}

/**
 * 710 2_ the degree-granting body: the university with the department as its subordinate unit
 * ($b), or the department alone when the university's name is not set; $e its relationship (RDA).
 */
function degreeGrantingBody(record: PublishedRecord, links: FormatLinks): string {
  const university = links.universityName?.trim();
  const names: Subfield[] = university
    ? [
        ["a", university],
        ["b", record.department],
      ]
    : [["a", record.department]];
  return dataField("710", "2", " ", [...names, ["e", "degree granting institution"]]);
}

/**
 * 008 for books (40 characters): date entered (YYMMDD, when it became public), a single known
 * date (s) with the award year, place unknown (xx), an online item (23 o), a thesis (24 m), not a
 * conference, festschrift or index, not fiction, the language, and cataloguing source "other" (d).
 */
export function fixedLengthData(record: PublishedRecord): string {
  const entered =
    record.publishedAt.slice(2, 4) +
    record.publishedAt.slice(5, 7) +
    record.publishedAt.slice(8, 10);
  const year = record.awardDate.slice(0, 4);
  const value =
    entered + // 00-05
    "s" + // 06
    year + // 07-10
    "    " + // 11-14
    "xx " + // 15-17
    "    " + // 18-21
    " " + // 22
    "o" + // 23
    "m   " + // 24-27
    " " + // 28
    "0" + // 29
    "0" + // 30
    "0" + // 31
    " " + // 32
    "0" + // 33
    " " + // 34
    marcLanguage(record.language) + // 35-37
    " " + // 38
    "d"; // 39
  return value;
}

/** A three-letter language code, or "und" (undetermined) for anything else. */
function marcLanguage(code: string): string {
  return /^[a-z]{3}$/.test(code) ? code : "und";
}

/**
 * A field of binary MARC holds at most 9,999 bytes, so a long abstract (up to 5,000 characters,
 * up to three bytes each) goes in several 520s, cut between words.
 */
const MAX_ABSTRACT_PART = 3000;

export function abstractParts(abstract: string): string[] {
  const parts: string[] = [];
  let rest = marcValue(abstract);
  while (rest.length > MAX_ABSTRACT_PART) {
    const space = rest.lastIndexOf(" ", MAX_ABSTRACT_PART);
    const cut = space > 0 ? space : MAX_ABSTRACT_PART;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest.length > 0) parts.push(rest);
  return parts;
}

/**
 * MARC field values carry no control characters: a paragraph break in an abstract, a tab in a
 * title, become one space.
 */
function marcValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- matching the control characters is the point
  return value.replace(/[\u0000-\u001F\u007F]+/g, " ").trim();
}

function controlField(tag: string, value: string): string {
  return textElement("controlfield", value, { tag });
}

function dataField(tag: string, ind1: string, ind2: string, subfields: Subfield[]): string {
  return element(
    "datafield",
    subfields.map(([code, value]) => textElement("subfield", marcValue(value), { code })),
    { tag, ind1, ind2 },
  );
}
