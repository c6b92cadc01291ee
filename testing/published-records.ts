import { DOMParser } from "@xmldom/xmldom";
import type { PublishedRecord } from "../common/publication.js";
import type { Db } from "../server/db/database.js";
import type { FileStorage } from "../server/files/storage.js";
import {
  ensurePublication,
  findCurrentLicence,
  insertDegree,
  insertLicenceVersion,
  updatePublication,
} from "../server/publication/repository.js";
import { addDocumentVersion } from "./documents.js";
import { createUser, makeSubmission } from "./factories.js";

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

export interface PublishThesisOptions {
  studentName?: string;
  title?: string;
  abstract?: string;
  awardDate?: string;
  embargo?: { choice: "none" | "6m" | "1y" | "2y" | "sensitive"; until: string | null };
  /** Without a file: a paper-only thesis (no final PDF on record). */
  withFile?: boolean;
  withdrawn?: boolean;
  /** A thesis not yet published (publication started, published_at null). */
  unpublished?: boolean;
  publishedAt?: string;
}

let degreeCount = 0;

/**
 * A thesis published as pub-core's service leaves it (publications row with published_at, a
 * degree, the current licence accepted, and the final thesis PDF in the file store), written
 * straight through the repositories so export and deposit tests need not walk the whole journey.
 */
export async function publishThesis(
  target: { db: Db; storage: FileStorage },
  options: PublishThesisOptions = {},
): Promise<{ submissionId: number; indexNumber: string; bytes: Buffer | null }> {
  const { db } = target;
  const at = options.publishedAt ?? "2026-08-03T09:15:00.000Z";
  const submission = await makeSubmission(db, {
    studentName: options.studentName ?? "Ama Mensah",
    programme: "MPhil Earth Science",
  });
  await db
    .updateTable("submissions")
    .set({
      thesis_title: options.title ?? "Groundwater recharge in the Volta basin",
      thesis_abstract: options.abstract ?? "We measure recharge across the basin.",
    })
    .where("id", "=", submission.id)
    .execute();
  degreeCount += 1;
  const degreeId = await insertDegree(
    db,
    {
      name: `Doctor of Philosophy ${degreeCount}`,
      abbreviation: "PhD",
      level: "doctoral",
      active: true,
    },
    at,
  );
  const licence =
    (await findCurrentLicence(db))?.version ??
    (await insertLicenceVersion(
      db,
      "I grant the school a licence to distribute my thesis.",
      null,
      at,
    ));
  await ensurePublication(db, submission.id, at);
  const embargo = options.embargo ?? { choice: "none", until: null };
  await updatePublication(
    db,
    submission.id,
    {
      keywords: ["hydrology", "groundwater"],
      language: "eng",
      degreeId,
      department: "Department of Earth Science",
      supervisors: [{ name: "Kofi Boateng", orcid: "0000-0002-1825-0097" }],
      examinationDate: "2026-05-14",
      awardDate: options.awardDate ?? "2026-07-30",
      confirmedAt: at,
      licenceVersion: licence,
      licenceAcceptedAt: at,
      embargoChoice: embargo.choice,
      embargoUntil: embargo.until,
      embargoApproval: embargo.choice === "sensitive" ? "approved" : null,
      publishedAt: options.unpublished ? null : at,
      datestamp: at,
      ...(options.withdrawn
        ? { withdrawnAt: at, withdrawnReason: "Withdrawn at the author's request." }
        : {}),
    },
    at,
  );
  let bytes: Buffer | null = null;
  if (options.withFile !== false) {
    const student = await createUser(db, "student");
    const document = await addDocumentVersion(target, {
      submissionId: submission.id,
      item: "thesis",
      uploadedBy: student.id,
      fileName: "Mensah thesis final.pdf",
      reviewState: "accepted",
    });
    bytes = document.bytes;
  }
  return { submissionId: submission.id, indexNumber: submission.indexNumber, bytes };
}
