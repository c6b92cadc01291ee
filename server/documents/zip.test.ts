import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDocumentVersion } from "../../testing/documents.js";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { startS3Server, type S3TestServer } from "../../testing/s3-server.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { zipEntryName, zipFileName } from "./zip.js";

describe("zip entry names", () => {
  it("number the item, name it, and keep the student's file name", () => {
    expect(zipEntryName("thesis", "thesis-final.pdf")).toBe("01 Thesis - thesis-final.pdf");
    expect(zipEntryName("financialClearance", "Clearance.PDF")).toBe(
      "05 Financial Clearance - Clearance.pdf",
    );
    expect(zipEntryName("turnitinReport", "report")).toBe("02 Turnitin report - report.pdf");
  });

  it("never make folders, hidden files or control characters", () => {
    const names = [
      zipEntryName("thesis", "../../etc/passwd"),
      zipEntryName("thesis", "..\\..\\boot.ini"),
      zipEntryName("supervisorForm", ".hidden.pdf"),
      zipEntryName("thesis", "a\u0000b\nc\td\u001b.pdf"),
      zipEntryName("thesis", "cod\u202eFDP.exe.pdf"),
      zipEntryName("thesis", 'what: "*?<>|.pdf'),
    ];
    for (const name of names) {
      expect(name).not.toMatch(/[/\\:*?"<>|]/);
      expect(/[\p{Cc}\p{Cf}]/u.test(name)).toBe(false);
      expect(name.startsWith(".")).toBe(false);
      expect(name.endsWith(".pdf")).toBe(true);
    }
    expect(names[0]).toBe("01 Thesis - _.._etc_passwd.pdf");
    expect(names[2]).toBe("03 Supervisor form - hidden.pdf");
    expect(names[3]).toBe("01 Thesis - ab c d.pdf");
    expect(zipEntryName("thesis", "...")).toBe("01 Thesis - document.pdf");
    expect(zipEntryName("thesis", "x".repeat(500)).length).toBeLessThan(150);
  });

  it("name the zip after the index number, without slashes", () => {
    expect(zipFileName("PG/1234/25")).toBe("PG-1234-25-documents.zip");
  });
});

interface Backend {
  kind: string;
  start(): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    kind: "file",
    start: async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "ets-zip-"));
      return {
        env: { STORAGE_URL: `file:${root}` },
        stop: async () => fs.rmSync(root, { recursive: true, force: true }),
      };
    },
  },
  {
    kind: "s3",
    start: async () => {
      const server: S3TestServer = await startS3Server();
      return { env: { STORAGE_URL: server.url }, stop: () => server.stop() };
    },
  },
];

describe.each(backends)(
  "GET /api/admin/submissions/:id/documents.zip ($kind storage)",
  (backend) => {
    let t: TestApp;
    let admin: TestUser;
    let student: TestUser;
    let stop: () => Promise<void>;

    beforeAll(async () => {
      const started = await backend.start();
      stop = started.stop;
      t = await createTestApp(started.env);
      admin = await createUser(t.db, "admin");
      student = await createUser(t.db, "student");
    });
    afterAll(async () => {
      await t.close();
      await stop();
    });

    const add = (
      submissionId: number,
      item: "thesis" | "turnitinReport" | "statementOfResult",
      fileName: string,
      reviewState?: "returned",
    ) =>
      addDocumentVersion(
        { db: t.db, storage: t.app.storage },
        {
          submissionId,
          item,
          uploadedBy: student.id,
          fileName,
          ...(reviewState ? { reviewState } : {}),
        },
      );

    const download = (id: number) =>
      t.app.inject({
        method: "GET",
        url: `/api/admin/submissions/${id}/documents.zip`,
        headers: admin.headers,
      });

    it("holds every item's current version, stored as uploaded, in checklist order", async () => {
      const s = await makeSubmission(t.db, { indexNumber: "PG/1234/25" });
      await add(s.id, "thesis", "draft.pdf");
      const thesis = await add(s.id, "thesis", "thesis-final.pdf");
      const result = await add(s.id, "statementOfResult", "result.pdf", "returned");
      const report = await add(s.id, "turnitinReport", "../report.pdf");

      const res = await download(s.id);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/zip");
      expect(res.headers["content-disposition"]).toBe(
        'attachment; filename="PG-1234-25-documents.zip"',
      );
      expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");

      const zip = await JSZip.loadAsync(res.rawPayload);
      const names = Object.keys(zip.files);
      expect(names).toEqual([
        "01 Thesis - thesis-final.pdf",
        "02 Turnitin report - _report.pdf",
        "04 Statement of Result - result.pdf",
      ]);
      const bytes = async (name: string) => {
        const entry = zip.file(name);
        if (!entry) throw new Error(`no entry ${name}`);
        return entry.async("nodebuffer");
      };
      expect((await bytes(names[0] ?? "")).equals(thesis.bytes)).toBe(true);
      expect((await bytes(names[1] ?? "")).equals(report.bytes)).toBe(true);
      expect((await bytes(names[2] ?? "")).equals(result.bytes)).toBe(true);
      // Stored, not deflated: the PDF's bytes stand in the zip as they are.
      expect(res.rawPayload.includes(thesis.bytes)).toBe(true);
    });

    it("answers 404 for a submission that does not exist or has no uploads", async () => {
      const missing = await download(99999);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe("There is no submission with this id.");
      const s = await makeSubmission(t.db);
      const empty = await download(s.id);
      expect(empty.statusCode).toBe(404);
      expect(empty.json()).toMatchObject({
        code: "not_found",
        message: "No documents have been uploaded for this submission yet.",
      });
    });

    it("says which file is missing from the store before sending anything", async () => {
      const s = await makeSubmission(t.db);
      const { version } = await add(s.id, "thesis", "lost.pdf");
      await t.app.storage.delete(version.sha256);
      const res = await download(s.id);
      expect(res.statusCode).toBe(500);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.json().message).toContain("The file of the Thesis (lost.pdf) is missing");
    });
  },
);
