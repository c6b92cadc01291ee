import { DC_NAMESPACE, dublinCoreElements } from "./dublin-core.js";
import { degreeGrantor, type FormatLinks } from "./links.js";
import type { PublishedRecord } from "../../../common/publication.js";
import { element, textElement } from "./xml.js";

export const ETDMS_NAMESPACE = "http://www.ndltd.org/standards/metadata/etdms/1.1/";
export const ETDMS_SCHEMA = "http://www.ndltd.org/standards/metadata/etdms/1-1/etdms11.xsd";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

/** ETD-MS `degree.level`: 0 bachelor's or equivalent, 1 master's or equivalent, 2 doctoral. */
export const ETDMS_DEGREE_LEVEL = { masters: "1", doctoral: "2" } as const;

/**
 * The record in ETD-MS 1.1 (NDLTD's metadata standard for theses): a `thesis` root in the
 * ETD-MS namespace holding the Dublin Core elements (in the dc namespace, as 1.1 takes them) and
 * the thesis's own `degree` (name, level, discipline, grantor). The grantor is the university
 * (ETS_INSTITUTION); unset, the record's department stands in. The discipline is the programme.
 */
export function etdms(record: PublishedRecord, links: FormatLinks): string {
  const degree = element("degree", [
    textElement("name", record.degree.name),
    textElement("level", ETDMS_DEGREE_LEVEL[record.degree.level]),
    textElement("discipline", record.programme),
    textElement("grantor", degreeGrantor(links, record)),
  ]);
  return element("thesis", [...dublinCoreElements(record, links, "dc:"), degree], {
    xmlns: ETDMS_NAMESPACE,
    "xmlns:dc": DC_NAMESPACE,
    "xmlns:xsi": XSI_NAMESPACE,
    "xsi:schemaLocation": `${ETDMS_NAMESPACE} ${ETDMS_SCHEMA}`,
  });
}
