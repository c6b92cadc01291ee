import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage } from "../files/create-storage.js";
import { parseStorageUrl, type FileStorage } from "../files/storage.js";
import { addDocumentVersion, uniquePdf } from "../testing/documents.js";
import { createUser, makeSubmission } from "../testing/factories.js";
import { buildApp } from "../app.js";
import { startS3Server } from "../testing/s3-server.js";
import { createTestApp, createTestDatabase, type TestDatabase } from "../testing/test-app.js";
import { ORPHAN_GRACE_MS, sweepOrphanFiles } from "./sweep.js";

interface Backend {
  kind: string;
  start(staging: string): Promise<{ storage: FileStorage; stop(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    kind: "file",
    start: async (staging) => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sweep-"));
      return {
        storage: createStorage({ kind: "file", root }, { stagingDir: staging }),
        stop: async () => fs.rmSync(root, { recursive: true, force: true }),
      };
    },
  },
  {
    kind: "s3",
    start: async (staging) => {
      const server = await startS3Server();
      const storage = createStorage(parseStorageUrl(server.url), { stagingDir: staging });
      return {
        storage,
        stop: async () => {
          await storage.close();
          await server.stop();
        },
      };
    },
  },
];

const HOUR = 60 * 60 * 1000;

describe.each(backends)("sweepOrphanFiles ($kind storage)", (backend) => {
  let database: TestDatabase;
  let storage: FileStorage;
  let staging: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    database = await createTestDatabase();
    staging = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sweep-staging-"));
    const started = await backend.start(staging);
    storage = started.storage;
    stop = started.stop;
  });
  afterAll(async () => {
    await stop();
    await database.drop();
    fs.rmSync(staging, { recursive: true, force: true });
  });

  /** Stores bytes as an upload whose transaction never committed would leave them. */
  async function storeOrphan(): Promise<string> {
    const bytes = uniquePdf();
    const key = createHash("sha256").update(bytes).digest("hex");
    const file = path.join(staging, `orphan-${randomBytes(6).toString("hex")}`);
    fs.writeFileSync(file, bytes);
    await storage.put(key, file);
    fs.rmSync(file, { force: true });
    return key;
  }

  const stagedFile = (name: string, ageMs: number) => {
    const file = path.join(staging, name);
    fs.writeFileSync(file, "partial upload");
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
    return file;
  };

  it("removes old unreferenced files, keeps referenced and fresh ones", async () => {
    const db = database.db;
    const student = await createUser(db, "student");
    const submission = await makeSubmission(db);
    const referenced = await addDocumentVersion(
      { db, storage },
      { submissionId: submission.id, item: "thesis", uploadedBy: student.id },
    );
    // An older version stays referenced too: earlier versions remain readable.
    const earlier = await addDocumentVersion(
      { db, storage },
      { submissionId: submission.id, item: "turnitinReport", uploadedBy: student.id },
    );
    await addDocumentVersion(
      { db, storage },
      { submissionId: submission.id, item: "turnitinReport", uploadedBy: student.id },
    );
    const orphan = await storeOrphan();
    const oldStaged = stagedFile("upload-old", 2 * HOUR);
    const freshStaged = stagedFile("upload-fresh", 0);

    // Everything is fresh now: an upload in flight may still commit its row.
    const now = await sweepOrphanFiles(db, storage, new Date());
    expect(now).toEqual({ files: 0, stagingFiles: 1 });
    expect(await storage.exists(orphan)).toBe(true);
    expect(fs.existsSync(oldStaged)).toBe(false);
    expect(fs.existsSync(freshStaged)).toBe(true);

    // Two hours on, the orphan is past the grace period; the referenced files stay.
    const later = new Date(Date.now() + ORPHAN_GRACE_MS + HOUR);
    const report = await sweepOrphanFiles(db, storage, later);
    expect(report).toEqual({ files: 1, stagingFiles: 1 });
    expect(await storage.exists(orphan)).toBe(false);
    expect(await storage.exists(referenced.version.sha256)).toBe(true);
    expect(await storage.exists(earlier.version.sha256)).toBe(true);
    expect(fs.existsSync(freshStaged)).toBe(false);

    const keys: string[] = [];
    for await (const stored of storage.list()) keys.push(stored.key);
    expect(keys).toHaveLength(3);
  });

  it("checks references in batches: many orphans and many referenced files", async () => {
    const db = database.db;
    const student = await createUser(db, "student");
    const orphans: string[] = [];
    for (let i = 0; i < 30; i += 1) orphans.push(await storeOrphan());
    const kept: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const s = await makeSubmission(db);
      const { version } = await addDocumentVersion(
        { db, storage },
        { submissionId: s.id, item: "thesis", uploadedBy: student.id },
      );
      kept.push(version.sha256);
    }
    const report = await sweepOrphanFiles(db, storage, new Date(Date.now() + 2 * HOUR), {
      batchSize: 7,
    });
    expect(report.files).toBe(30);
    for (const key of orphans) expect(await storage.exists(key)).toBe(false);
    for (const key of kept) expect(await storage.exists(key)).toBe(true);
  });
});

describe("the hourly housekeeping", () => {
  it("sweeps orphaned files when the server starts", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sweep-app-"));
    const t = await createTestApp({ STORAGE_URL: `file:${root}` }, { mailWorker: true });
    try {
      const bytes = uniquePdf();
      const key = createHash("sha256").update(bytes).digest("hex");
      const staged = path.join(t.app.storage.stagingDir, "orphan");
      fs.writeFileSync(staged, bytes);
      await t.app.storage.put(key, staged);
      // The local store keeps key ab12… at ab/12/ab12…; aged past the grace period by hand.
      const stored = path.join(root, key.slice(0, 2), key.slice(2, 4), key);
      const old = new Date(Date.now() - 2 * HOUR);
      fs.utimesSync(stored, old, old);
      // createTestApp is ready already; a second app over the same database and store starts again.
      const app = await buildApp(t.config, { db: t.db });
      await app.ready();
      await app.close();
      expect(fs.existsSync(stored)).toBe(false);
    } finally {
      await t.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
