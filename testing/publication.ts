import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { nowIso, type Db } from "../server/db/database.js";
import { insertOutcome } from "../server/examiners/repository.js";
import { insertDegree, insertLicenceVersion } from "../server/publication/repository.js";
import {
  submissionWithThesis,
  type ExaminerTestTarget,
  type ReadySubmission,
} from "./examiners.js";
import { createUser, type TestUser } from "./factories.js";

/**
 * Factories for publication's tests (issue 20): a final thesis (its outcome released as Pass),
 * the school's degree list and licence, and request helpers. The student's and the school's
 * answers go through the routes, so their rules and audit rows apply.
 */

export interface PublicationFixture extends ReadySubmission {
  admin: TestUser;
  degreeId: number;
  licenceVersion: number;
}

/** The school's list and licence, once per database. */
export async function schoolSetUp(db: Db): Promise<{ degreeId: number; licenceVersion: number }> {
  const at = nowIso();
  const existing = await db.selectFrom("degrees").select("id").orderBy("id").executeTakeFirst();
  const degreeId =
    existing?.id ??
    (await insertDegree(
      db,
      { name: "Master of Philosophy", abbreviation: "MPhil", level: "masters", active: true },
      at,
    ));
  const licence = await db
    .selectFrom("licence_versions")
    .select("version")
    .orderBy("version", "desc")
    .executeTakeFirst();
  const licenceVersion =
    licence?.version ??
    (await insertLicenceVersion(
      db,
      "I grant the university the non-exclusive right to keep and distribute my thesis.",
      null,
      at,
    ));
  return { degreeId: Number(degreeId), licenceVersion: Number(licenceVersion) };
}

/** A thesis uploaded and accepted; `final` releases a Pass outcome (Thesis Status "Pass"). */
export async function publicationFixture(
  t: ExaminerTestTarget,
  options: { final?: boolean } = {},
): Promise<PublicationFixture> {
  const ready = await submissionWithThesis(t, {
    thesisStatus: options.final === false ? "Initial Submission" : "Pass",
  });
  if (options.final !== false) {
    await insertOutcome(t.db, {
      submissionId: ready.submission.id,
      decision: "pass",
      corrections: null,
      releasedBy: null,
      releasedAt: nowIso(),
      thesisVersionAtRelease: ready.thesis.version.version,
    });
  }
  const admin = await createUser(t.db, "admin");
  return { ...ready, admin, ...(await schoolSetUp(t.db)) };
}

export async function send(
  app: FastifyInstance,
  method: "GET" | "PUT" | "POST" | "PATCH",
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers,
    ...(payload !== undefined && { payload: payload as object }),
  });
}

export const GOOD_METADATA = {
  keywords: ["maize", "rainfall", "Northern Savannah"],
  language: "eng",
  supervisors: [
    { name: "Prof. Kofi Mensah", orcid: "0000-0002-1825-0097" },
    { name: "Dr. Ama Owusu", orcid: "" },
  ],
};

/** The student fills everything, accepts the licence and chooses `choice`; the school confirms. */
export async function publish(
  app: FastifyInstance,
  f: PublicationFixture,
  options: {
    choice?: "none" | "6m" | "1y" | "2y";
    awardDate?: string;
  } = {},
): Promise<void> {
  const index = f.submission.indexNumber;
  const base = `/api/submissions/${index}/publication`;
  const steps: [string, string, Record<string, string>, unknown][] = [
    ["PUT", base, f.student.headers, GOOD_METADATA],
    ["POST", `${base}/licence`, f.student.headers, { version: f.licenceVersion }],
    ["PUT", `${base}/embargo`, f.student.headers, { choice: options.choice ?? "none" }],
    [
      "PUT",
      `/api/admin/submissions/${index}/publication`,
      f.admin.headers,
      {
        degreeId: f.degreeId,
        department: "Department of Agricultural Economics",
        examinationDate: "2026-05-04",
        awardDate: options.awardDate ?? "2026-07-20",
        confirm: true,
      },
    ],
  ];
  for (const [method, url, headers, payload] of steps) {
    const res = await send(app, method as "PUT" | "POST", url, headers, payload);
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  }
}

export async function createStudent(db: Db, indexNumber: string | null): Promise<TestUser> {
  return createUser(db, "student", { indexNumber });
}
