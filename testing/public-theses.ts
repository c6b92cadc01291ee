import fs from "node:fs";
import { validateXML } from "xmllint-wasm";
import type { Db } from "../server/db/database.js";
import { nowIso } from "../server/db/database.js";
import type { FileStorage } from "../server/files/storage.js";
import type { EmbargoChoice } from "../common/publication.js";
import { addDocumentVersion } from "./documents.js";
import { createUser } from "./factories.js";
import { makeSubmission } from "./factories.js";
import { resolveFromRoot } from "../server/paths.js";

/**
 * Published theses for the public side's tests (OAI-PMH, the public pages, downloads), written
 * straight into the tables pub-core's publication service fills: a degree, a licence version and
 * a `publications` row with `published_at` set, which is what `readPublishedRecord` reads.
 */

export interface PublishOptions {
  studentName?: string;
  title?: string;
  abstract?: string;
  programme?: string;
  degree?: { name: string; abbreviation: string; level: "masters" | "doctoral" };
  keywords?: string[];
  embargo?: EmbargoChoice;
  embargoUntil?: string | null;
  awardDate?: string;
  publishedAt?: string;
  datestamp?: string;
  withdrawn?: { at: string; reason: string } | null;
  /** Store a thesis PDF (these bytes, or a unique valid PDF). */
  file?: Buffer | true;
}

const DEFAULT_DEGREE = {
  name: "Master of Philosophy",
  abbreviation: "MPhil",
  level: "masters",
} as const;

async function degreeId(db: Db, degree: PublishOptions["degree"]): Promise<number> {
  const d = degree ?? DEFAULT_DEGREE;
  const found = await db
    .selectFrom("degrees")
    .select("id")
    .where("name", "=", d.name)
    .executeTakeFirst();
  if (found) return Number(found.id);
  const at = nowIso();
  const row = await db
    .insertInto("degrees")
    .values({
      name: d.name,
      abbreviation: d.abbreviation,
      level: d.level,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function licenceVersion(db: Db): Promise<number> {
  const found = await db.selectFrom("licence_versions").select("version").executeTakeFirst();
  if (found) return Number(found.version);
  await db
    .insertInto("licence_versions")
    .values({
      version: 1,
      text: "I grant the school a non-exclusive licence to distribute my thesis.",
      created_by: null,
      created_at: nowIso(),
    })
    .execute();
  return 1;
}

let uploader: { db: Db; id: number } | null = null;

/** A published thesis; returns its submission id. */
export async function publishThesis(
  target: { db: Db; app: { storage: FileStorage } },
  options: PublishOptions = {},
): Promise<number> {
  const { db } = target;
  const submission = await makeSubmission(db, {
    ...(options.studentName ? { studentName: options.studentName } : {}),
    programme: options.programme ?? "MPhil Economics",
    thesisStatus: "Pass",
  });
  const id = submission.id;
  await db
    .updateTable("submissions")
    .set({
      thesis_title: options.title ?? `A study of markets ${id}`,
      thesis_abstract: options.abstract ?? `The abstract of thesis ${id}.`,
    })
    .where("id", "=", id)
    .execute();
  if (options.file) {
    if (uploader === null || uploader.db !== db) {
      uploader = { db, id: (await createUser(db, "admin")).id };
    }
    await addDocumentVersion(
      { db, storage: target.app.storage },
      {
        submissionId: id,
        item: "thesis",
        uploadedBy: uploader.id,
        ...(options.file === true ? {} : { bytes: options.file }),
        fileName: "thesis.pdf",
        reviewState: "accepted",
      },
    );
  }
  const at = options.publishedAt ?? nowIso();
  const embargo = options.embargo ?? "none";
  await db
    .insertInto("publications")
    .values({
      submission_id: id,
      keywords: JSON.stringify(options.keywords ?? ["markets", "trade"]),
      language: "eng",
      degree_id: await degreeId(db, options.degree),
      department: "Department of Economics",
      supervisors: JSON.stringify([{ name: "Kofi Boateng", orcid: "0000-0002-1825-0097" }]),
      examination_date: "2026-05-14",
      award_date: options.awardDate ?? "2026-07-30",
      confirmed_at: at,
      licence_version: await licenceVersion(db),
      licence_accepted_at: at,
      embargo_choice: embargo,
      embargo_approval: embargo === "sensitive" ? "approved" : null,
      embargo_until: embargo === "none" ? null : (options.embargoUntil ?? "2027-03-12"),
      published_at: at,
      datestamp: options.datestamp ?? at,
      withdrawn_at: options.withdrawn?.at ?? null,
      withdrawn_reason: options.withdrawn?.reason ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** Changes a published record as pub-core's service does: a new datestamp with every change. */
export async function touchPublication(db: Db, id: number, datestamp = nowIso()): Promise<void> {
  await db
    .updateTable("publications")
    .set({ datestamp, updated_at: datestamp, department: `Department changed at ${datestamp}` })
    .where("submission_id", "=", id)
    .execute();
}

const OAI_XSD = fs.readFileSync(resolveFromRoot("testing", "schemas", "OAI-PMH.xsd"), "utf8");

/** Validates an OAI-PMH answer against the protocol's schema (testing/schemas/OAI-PMH.xsd). */
export async function oaiSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: "answer.xml", contents: xml }],
    schema: [{ fileName: "OAI-PMH.xsd", contents: OAI_XSD }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
