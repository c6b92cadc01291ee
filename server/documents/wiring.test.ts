import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DocumentVersion } from "../../common/documents.js";
import { buildApp } from "../app.js";
import { createTestDatabase, testConfig } from "../../testing/test-app.js";
import { createUser, makeSubmission } from "../../testing/factories.js";
import { validPdf } from "../../testing/pdf-fixtures.js";
import { createDocumentsTestApp, startStore, uploadDocumentFile } from "../../testing/uploads.js";

function logCapture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

describe("wiring the file store and the scanner", () => {
  it("logs where documents are stored without the store's secret, and that nothing is scanned", async () => {
    const database = await createTestDatabase();
    const log = logCapture();
    const config = testConfig({
      DATABASE_URL: database.url,
      LOG_LEVEL: "info",
      STORAGE_URL:
        "s3://AKIDEXAMPLE:TopSecretValue123@ets-files?endpoint=http://127.0.0.1:9&region=eu-west-1",
    });
    const app = await buildApp(config, {
      db: database.db,
      webRoot: path.join(os.tmpdir(), "ets-no-web"),
      logStream: log.stream,
    });
    try {
      await app.ready();
      expect(app.storage.kind).toBe("s3");
      expect(app.scanner).toBeNull();
      const all = log.lines.join("");
      expect(all).not.toContain("TopSecretValue123");
      const stored = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(stored).toContainEqual(
        expect.objectContaining({
          storage: "s3",
          storageUrl: "s3://AKIDEXAMPLE:***@ets-files?endpoint=http://127.0.0.1:9&region=eu-west-1",
        }),
      );
      expect(stored).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: "CLAMD_URL is not set: uploaded documents are not scanned for viruses",
        }),
      );
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it("builds a scanner from CLAMD_URL", async () => {
    const store = await startStore("file");
    const t = await createDocumentsTestApp(store.url, { CLAMD_URL: "tcp://127.0.0.1:3310" });
    try {
      expect(t.app.scanner).not.toBeNull();
      expect(t.app.storage.kind).toBe("file");
    } finally {
      await t.close();
      await store.stop();
    }
  });

  it("answers 404 with a plain message and logs an error when a version's stored file is gone", async () => {
    const store = await startStore("file");
    const log = logCapture();
    const t = await createDocumentsTestApp(
      store.url,
      { LOG_LEVEL: "info" },
      { logStream: log.stream },
    );
    try {
      await makeSubmission(t.db, { indexNumber: "85000001" });
      const student = await createUser(t.db, "student", { indexNumber: "85000001" });
      const admin = await createUser(t.db, "admin");
      const pdf = validPdf({ pages: 14 });
      const res = await uploadDocumentFile(
        t.app,
        student.headers,
        "85000001",
        "turnitinReport",
        "lost.pdf",
        pdf,
      );
      const version = (res.json() as { data: DocumentVersion }).data;
      const row = await t.db
        .selectFrom("submission_documents")
        .select("sha256")
        .where("id", "=", version.id)
        .executeTakeFirstOrThrow();
      await t.storage.delete(row.sha256);

      const read = await t.app.inject({ method: "GET", url: version.href, headers: admin.headers });
      expect(read.statusCode).toBe(404);
      expect(read.json()).toEqual({
        success: false,
        code: "not_found",
        message: "The file is missing from the store; ask the school.",
      });
      const errors = log.lines
        .map((l) => JSON.parse(l) as { level: number; msg: string; documentId?: number })
        .filter((l) => l.level >= 50);
      expect(errors).toContainEqual(
        expect.objectContaining({
          msg: "a document's stored file is missing",
          documentId: version.id,
        }),
      );
    } finally {
      await t.close();
      await store.stop();
    }
  });
});
