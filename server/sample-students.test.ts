import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentSlot, SubmissionDocumentsResponse } from "../common/documents.js";
import type {
  AdminExaminationResponse,
  StudentExamination,
  StudentExaminationResponse,
} from "../common/examiners.js";
import { inspectPdf } from "./files/pdf.js";
import { signedInAdmin, signInAs, signUpStudent } from "../testing/accounts.js";
import { readmeSampleStudent, readmeSampleStudents } from "../testing/sample-students.js";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../testing/test-app.js";
import type { PublicationView } from "../common/publication.js";
import { readPublishedRecord } from "./publication/repository.js";
import { loadSampleData } from "./sample-data.js";
import { SAMPLE_STATES, type SampleState } from "./sample-journeys.js";

/**
 * The sample students a newcomer can become (issue 23, item 5): the README's table names index
 * numbers per state; each is signed up as a newcomer would (email and index number, the code from
 * the mail, sign-in) and read through the same API the student's screens read. The state is
 * decided from those answers, never from the fixture.
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await loadSampleData(t.db, { storage: t.app.storage, config: t.config });
  admin = await signedInAdmin(t.app, "sample-admin@school.test");
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** What the student's screens show, put in the README's words. */
function stateShown(items: DocumentSlot[], examination: StudentExamination): SampleState | null {
  const { outcome } = examination;
  if (outcome) {
    if (outcome.decision === "pass" || outcome.correctionState === "approved") return "final";
    return outcome.correctionState === "to_upload" ? "corrections_to_upload" : null;
  }
  if (examination.internal.sentOn !== null || examination.external.sentOn !== null) {
    return "with_examiners";
  }
  if (items.some((i) => i.state === "returned")) return "returned";
  if (items.some((i) => i.state === "with_school")) return "waiting_for_review";
  if (items.every((i) => i.state === "to_upload" && i.current === null && i.earlier.length === 0)) {
    return "nothing_received";
  }
  const uploaded = items.some((i) => i.current !== null);
  return uploaded && items.some((i) => i.state === "to_upload") ? "partly_uploaded" : null;
}

async function getJson<T>(app: FastifyInstance, url: string, cookie: string): Promise<T> {
  const res = await app.inject({ method: "GET", url, headers: { cookie } });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
}

/** The PDF a URL answers passes the product's own PDF checks with the page count shown. */
async function expectPdf(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  pages: number,
): Promise<void> {
  const res = await app.inject({ method: "GET", url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/pdf/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sample-pdf-"));
  try {
    const file = path.join(dir, "file.pdf");
    fs.writeFileSync(file, res.rawPayload);
    const inspection = await inspectPdf(file);
    expect(inspection).toMatchObject({ ok: true, pageCount: pages });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One newcomer per index number (the first sign-up takes it), signed in: their cookie. */
const newcomers = new Map<string, string>();

/** Signs up with the index number as a newcomer does and reads what their screens read. */
async function asNewcomer(indexNumber: string) {
  let cookie = newcomers.get(indexNumber);
  if (cookie === undefined) {
    const ip = `198.51.100.${newcomers.size + 1}`;
    const email = `newcomer-${newcomers.size + 1}@students.school.test`;
    const code = await signUpStudent(t.app, email, indexNumber, ip);
    cookie = await signInAs(t.app, email, code, ip);
    newcomers.set(indexNumber, cookie);
  }
  const documents = await getJson<SubmissionDocumentsResponse>(
    t.app,
    `/api/submissions/${indexNumber}/documents`,
    cookie,
  );
  const examination = await getJson<StudentExaminationResponse>(
    t.app,
    `/api/submissions/${indexNumber}/examination`,
    cookie,
  );
  return { cookie, items: documents.data.items, examination: examination.data };
}

describe("the sample students", () => {
  it("names at least one index number for every state in the README", () => {
    const table = readmeSampleStudents();
    for (const state of SAMPLE_STATES) expect(table.get(state)?.length ?? 0).toBeGreaterThan(0);
  });

  it("shows a newcomer who signs up with each README index number that state", async () => {
    for (const [state, indexNumbers] of readmeSampleStudents()) {
      for (const indexNumber of indexNumbers) {
        const { items, examination } = await asNewcomer(indexNumber);
        expect(stateShown(items, examination), `${indexNumber} (README: ${state})`).toBe(state);

        switch (state) {
          case "nothing_received":
            expect(items.every((i) => i.canUpload && !i.paperCopy)).toBe(true);
            break;
          case "partly_uploaded":
            expect(items.some((i) => i.current?.reviewState === "accepted")).toBe(true);
            expect(items.some((i) => i.canUpload)).toBe(true);
            break;
          case "returned": {
            const returned = items.find((i) => i.state === "returned");
            expect(returned?.current?.returnReason ?? "").not.toBe("");
            expect(returned?.canUpload).toBe(true);
            break;
          }
          case "corrections_to_upload":
            expect(examination.outcome?.corrections ?? "").not.toBe("");
            expect(items.find((i) => i.item === "thesis")?.canUpload).toBe(true);
            break;
          case "final":
            expect(items.every((i) => i.state === "accepted" && !i.canUpload)).toBe(true);
            break;
          case "waiting_for_review":
          case "with_examiners":
            break;
        }
      }
    }
  }, 120_000);

  it("serves every sample upload to its student and every report to an administrator as a valid PDF", async () => {
    let uploads = 0;
    let reports = 0;
    for (const indexNumbers of readmeSampleStudents().values()) {
      for (const indexNumber of indexNumbers) {
        const { cookie, items } = await asNewcomer(indexNumber);
        for (const version of items.flatMap((i) => (i.current ? [i.current, ...i.earlier] : []))) {
          await expectPdf(t.app, version.href, { cookie }, version.pageCount);
          uploads += 1;
        }
        const view = await getJson<AdminExaminationResponse>(
          t.app,
          `/api/admin/submissions/${indexNumber}/examination`,
          admin,
        );
        for (const examination of [view.data.internal, view.data.external]) {
          if (!examination?.report) continue;
          await expectPdf(
            t.app,
            `/api/admin/examinations/${examination.id}/report`,
            { cookie: admin },
            examination.report.pageCount,
          );
          reports += 1;
        }
      }
    }
    expect(uploads).toBeGreaterThan(0);
    expect(reports).toBeGreaterThan(0);
  }, 120_000);

  it("has examiners invited by link, whose new link opens the examiner's page and the thesis", async () => {
    const indexNumber = readmeSampleStudent("with_examiners");
    const view = await getJson<AdminExaminationResponse>(
      t.app,
      `/api/admin/submissions/${indexNumber}/examination`,
      admin,
    );
    for (const examination of [view.data.internal, view.data.external]) {
      expect(examination?.sentAt).not.toBeNull();
      expect(Date.parse(examination?.linkExpiresAt ?? "")).toBeGreaterThan(Date.now());
    }
    expect(view.data.outcome).toBeNull();

    // What the README tells a newcomer to do: send one examiner the link again, read the mail.
    const external = view.data.external;
    if (!external) throw new Error("no external examiner");
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/admin/submissions/${indexNumber}/examination/send`,
      headers: { cookie: admin, ...SAME_ORIGIN },
      payload: { roles: ["external"] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await t.db
      .selectFrom("outbox")
      .select("text_body")
      .where("to_address", "=", external.examiner.email)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const token = /\/examiner#([A-Za-z0-9_-]{43})/.exec(mail.text_body)?.[1];
    if (!token) throw new Error(`No link in the mail: ${mail.text_body}`);
    const authorization = `Examiner ${token}`;

    const assignment = await t.app.inject({
      method: "GET",
      url: "/api/examiner/assignment",
      headers: { authorization },
    });
    expect(assignment.statusCode, assignment.body).toBe(200);
    const thesis = assignment.json<{ data: { thesis: { file: { pageCount: number } | null } } }>()
      .data.thesis.file;
    expect(thesis).not.toBeNull();
    await expectPdf(t.app, "/api/examiner/thesis", { authorization }, thesis?.pageCount ?? 0);
  }, 60_000);

  it("shows the final sample students their thesis published: one under a 1-year embargo, one open (issue 20)", async () => {
    const seen: {
      state: string;
      embargo: string | null;
      filesPublic: boolean;
      path: string | null;
    }[] = [];
    for (const indexNumber of readmeSampleStudents().get("final") ?? []) {
      const { cookie } = await asNewcomer(indexNumber);
      const view = await getJson<{ data: PublicationView }>(
        t.app,
        `/api/submissions/${indexNumber}/publication`,
        cookie,
      );
      seen.push({
        state: view.data.state,
        embargo: view.data.embargo?.choice ?? null,
        filesPublic: view.data.filesPublic,
        path: view.data.publicPath,
      });
      const record = await readPublishedRecord(
        t.db,
        view.data.submissionId,
        new Date().toISOString(),
      );
      expect(record?.licence.version).toBe(1);
      expect(record?.keywords.length ?? 0).toBeGreaterThan(0);
    }
    expect(seen.map((s) => s.state)).toEqual(["published", "published"]);
    expect(seen.map((s) => [s.embargo, s.filesPublic])).toEqual([
      ["1y", false],
      ["none", true],
    ]);
    expect(seen.every((s) => s.path?.startsWith("/theses/"))).toBe(true);
  });
});
