import { DOMParser } from "@xmldom/xmldom";
import type { PublishedRecord } from "../server/publication/formats/published-record.js";

/** A final, licensed, public doctoral thesis, as the publication record reads it. */
export function samplePublishedRecord(overrides: Partial<PublishedRecord> = {}): PublishedRecord {
  return {
    submissionId: 42,
    title: "Groundwater recharge in the Volta basin",
    abstract: "We measure recharge across the basin.\n\nThe second paragraph follows.",
    author: { name: "Ama Mensah" },
    keywords: ["hydrology", "groundwater", "Volta"],
    language: "eng",
    degree: { name: "Doctor of Philosophy", abbreviation: "PhD", level: "doctoral" },
    programme: "Earth Science",
    department: "Department of Earth Science",
    supervisors: [
      { name: "Kofi Boateng", orcid: "0000-0002-1825-0097" },
      { name: "Efua Owusu", orcid: null },
    ],
    examinationDate: "2026-05-14",
    awardDate: "2026-07-30",
    licence: { version: 2, text: "I grant the school a non-exclusive licence to distribute." },
    embargo: { choice: "none", until: null },
    filesPublic: true,
    file: { fileName: "thesis.pdf", size: 123456, contentType: "application/pdf" },
    handle: null,
    publishedAt: "2026-08-03T09:15:00.000Z",
    datestamp: "2026-08-03T09:15:00.000Z",
    withdrawn: null,
    ...overrides,
  };
}

/** Parses XML, throwing on any well-formedness error (so a test fails on bad output). */
export function parseXml(xml: string): Document {
  // xmldom's DOM is typed by the DOM library's own interfaces (as server/accounts/sso/saml.ts reads it).
  const problems: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  }).parseFromString(xml, "text/xml");
  if (problems.length > 0 || !doc.documentElement) {
    throw new Error(`not well-formed XML: ${problems.join("; ")}`);
  }
  return doc;
}

/** The text of every element `namespace`:`localName` below `root`, in document order. */
export function textsOf(root: Document | Element, namespace: string, localName: string): string[] {
  const nodes: Element[] = Array.from(root.getElementsByTagNameNS(namespace, localName));
  return nodes.map((node) => node.textContent ?? "");
}
