import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage } from "../files/create-storage.js";
import { parseStorageUrl, type FileStorage } from "../files/storage.js";
import { addDocumentVersion, uniquePdf } from "../../testing/documents.js";
import { createUser, makeSubmission } from "../../testing/factories.js";
import { buildApp } from "../app.js";
import { startS3Server } from "../../testing/s3-server.js";
import { createTestApp, createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { installWriteTrap } from "../../testing/write-trap.js";
import {
  createDocumentsTestApp,
  startStore,
  uploadDocumentFile,
  type DocumentsTestApp,
} from "../../testing/uploads.js";
import { recordPendingUpload } from "../files/pending-uploads.js";
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

  /** Puts bytes into the store as an upload does; returns their key. */
  async function store(bytes: Buffer = uniquePdf()): Promise<string> {
    const key = createHash("sha256").update(bytes).digest("hex");
    const file = path.join(staging, `put-${randomBytes(6).toString("hex")}`);
    fs.writeFileSync(file, bytes);
    await storage.put(key, file);
    fs.rmSync(file, { force: true });
    return key;
  }

  /** What an upload of ours whose transaction never committed leaves: its record and its file. */
  async function abandonUpload(): Promise<string> {
    const bytes = uniquePdf();
    const key = createHash("sha256").update(bytes).digest("hex");
    await recordPendingUpload(database.db, { sha256: key, storedNew: true });
    await store(bytes);
    return key;
  }

  const pendingRecords = () =>
    database.db.selectFrom("pending_uploads").select(["sha256"]).orderBy("id").execute();

  const stagedFile = (name: string, ageMs: number) => {
    const file = path.join(staging, name);
    fs.writeFileSync(file, "partial upload");
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
    return file;
  };
  const uploadStagingName = () => `upload-${randomUUID()}.part`;

  it("removes the file of an upload of its own abandoned past the grace period, and no other", async () => {
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
    const orphan = await abandonUpload();
    // Another installation's upload in the same store: this database has no record of it.
    const foreign = await store();
    const oldStaged = stagedFile(uploadStagingName(), 2 * HOUR);
    const freshStaged = stagedFile(uploadStagingName(), 0);
    // Not a name this code gives its staging files.
    const foreignStaged = stagedFile("another-tool.tmp", 2 * HOUR);

    // Everything is fresh now: an upload in flight may still commit its row.
    const now = await sweepOrphanFiles(db, storage, new Date());
    expect(now).toEqual({ files: 0, stagingFiles: 1 });
    expect(await storage.exists(orphan)).toBe(true);
    expect(fs.existsSync(oldStaged)).toBe(false);
    expect(fs.existsSync(freshStaged)).toBe(true);

    // Two hours on, the abandoned upload is past the grace period; nothing else goes.
    const later = new Date(Date.now() + ORPHAN_GRACE_MS + HOUR);
    const report = await sweepOrphanFiles(db, storage, later);
    expect(report).toEqual({ files: 1, stagingFiles: 1 });
    expect(await storage.exists(orphan)).toBe(false);
    expect(await storage.exists(foreign)).toBe(true);
    expect(await storage.exists(referenced.version.sha256)).toBe(true);
    expect(await storage.exists(earlier.version.sha256)).toBe(true);
    expect(fs.existsSync(freshStaged)).toBe(false);
    expect(fs.existsSync(foreignStaged)).toBe(true);
    expect(await pendingRecords()).toEqual([]);

    const keys: string[] = [];
    for await (const stored of storage.list()) keys.push(stored.key);
    expect(keys).toEqual(
      expect.arrayContaining([foreign, referenced.version.sha256, earlier.version.sha256]),
    );
    expect(keys).not.toContain(orphan);
  });

  it("removes a zip's spooled directory and a SWORD package left by a crash, past the grace period", async () => {
    const hex = () => randomBytes(6).toString("hex");
    const oldSpool = stagedFile(`zip-directory-${hex()}.tmp`, 2 * HOUR);
    const oldPackage = stagedFile(`sword-42-${hex()}.zip`, 2 * HOUR);
    const freshSpool = stagedFile(`zip-directory-${hex()}.tmp`, 0);
    const notOurs = stagedFile(`sword-package.zip`, 2 * HOUR);

    const report = await sweepOrphanFiles(database.db, storage, new Date());
    expect(report.stagingFiles).toBe(2);
    expect(fs.existsSync(oldSpool)).toBe(false);
    expect(fs.existsSync(oldPackage)).toBe(false);
    expect(fs.existsSync(freshSpool)).toBe(true);
    expect(fs.existsSync(notOurs)).toBe(true);
  });

  it("keeps bytes the store had before the upload, and bytes a row refers to: only the record goes", async () => {
    const db = database.db;
    const student = await createUser(db, "student");
    const submission = await makeSubmission(db);
    // Stored already (another installation's, or an earlier upload of ours) when the upload began.
    const before = await store();
    await recordPendingUpload(db, { sha256: before, storedNew: false });
    // Stored new, but a version of ours refers to the same bytes (uploaded again, committed).
    const { version } = await addDocumentVersion(
      { db, storage },
      { submissionId: submission.id, item: "thesis", uploadedBy: student.id },
    );
    await recordPendingUpload(db, { sha256: version.sha256, storedNew: true });

    const report = await sweepOrphanFiles(db, storage, new Date(Date.now() + 2 * HOUR));
    expect(report.files).toBe(0);
    expect(await storage.exists(before)).toBe(true);
    expect(await storage.exists(version.sha256)).toBe(true);
    expect(await pendingRecords()).toEqual([]);
  });

  it("waits while another upload of the same bytes is under way", async () => {
    const db = database.db;
    const key = await abandonUpload();
    const sweepAt = new Date(Date.now() + 2 * HOUR);
    // The same bytes uploaded again just now (relative to the sweep): it may commit a row.
    await recordPendingUpload(db, { sha256: key, storedNew: false }, sweepAt);

    expect((await sweepOrphanFiles(db, storage, sweepAt)).files).toBe(0);
    expect(await storage.exists(key)).toBe(true);
    expect(await pendingRecords()).toEqual([{ sha256: key }, { sha256: key }]);

    // That upload failed too: an hour on, both records are old and the file goes.
    const later = new Date(sweepAt.getTime() + 2 * HOUR);
    expect((await sweepOrphanFiles(db, storage, later)).files).toBe(1);
    expect(await storage.exists(key)).toBe(false);
    expect(await pendingRecords()).toEqual([]);
  });

  it("reads the records in batches: many abandoned uploads and many referenced files", async () => {
    const db = database.db;
    const student = await createUser(db, "student");
    const orphans: string[] = [];
    for (let i = 0; i < 30; i += 1) orphans.push(await abandonUpload());
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
    expect(await pendingRecords()).toEqual([]);
  });
});

describe("two installations sharing one store", () => {
  it("keep each other's uploads; each removes only what its own failed upload left", async () => {
    const store = await startStore("file");
    const a = await createDocumentsTestApp(store.url);
    const b = await createDocumentsTestApp(store.url);
    try {
      const upload = async (t: DocumentsTestApp, indexNumber: string, fileName: string) => {
        await makeSubmission(t.db, { indexNumber });
        const student = await createUser(t.db, "student", { indexNumber });
        const bytes = uniquePdf();
        const res = await uploadDocumentFile(
          t.app,
          student.headers,
          indexNumber,
          "turnitinReport",
          fileName,
          bytes,
        );
        return { res, key: createHash("sha256").update(bytes).digest("hex") };
      };
      const inA = await upload(a, "71000001", "turnitin.pdf");
      const inB = await upload(b, "71000002", "turnitin.pdf");
      expect([inA.res.statusCode, inB.res.statusCode]).toEqual([201, 201]);
      // A committed upload's record goes with its commit.
      expect(await a.db.selectFrom("pending_uploads").selectAll().execute()).toEqual([]);
      expect(await b.db.selectFrom("pending_uploads").selectAll().execute()).toEqual([]);
      // An upload in A whose transaction fails after its file was stored.
      await installWriteTrap(a.db, "submission_documents", "file_name", "fails.pdf");
      const failed = await upload(a, "71000003", "fails.pdf");
      expect(failed.res.statusCode).toBe(500);
      expect(await a.storage.exists(failed.key)).toBe(true);

      const later = new Date(Date.now() + 2 * HOUR);
      expect((await sweepOrphanFiles(a.db, a.storage, later)).files).toBe(1);
      expect((await sweepOrphanFiles(b.db, b.storage, later)).files).toBe(0);
      expect(await a.storage.exists(inA.key)).toBe(true);
      expect(await a.storage.exists(inB.key)).toBe(true);
      expect(await a.storage.exists(failed.key)).toBe(false);
      expect(await a.db.selectFrom("pending_uploads").selectAll().execute()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await store.stop();
    }
  });
});

describe("the hourly housekeeping", () => {
  it("sweeps orphaned files when the server starts", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ets-sweep-app-"));
    // The test's own app runs no background work: its start-up sweep, still under way on a busy
    // machine, could settle the upload record below before the file is stored (a CI run on
    // PostgreSQL saw the file stay). Only the second app, the server starting, sweeps.
    const t = await createTestApp({ STORAGE_URL: `file:${root}` });
    try {
      const bytes = uniquePdf();
      const key = createHash("sha256").update(bytes).digest("hex");
      const staged = path.join(t.app.storage.stagingDir, "orphan");
      fs.writeFileSync(staged, bytes);
      // An upload of this installation's that never committed, begun two hours ago.
      await recordPendingUpload(
        t.db,
        { sha256: key, storedNew: true },
        new Date(Date.now() - 2 * HOUR),
      );
      await t.app.storage.put(key, staged);
      // The local store keeps key ab12… at ab/12/ab12…; aged past the grace period by hand.
      const stored = path.join(root, key.slice(0, 2), key.slice(2, 4), key);
      const old = new Date(Date.now() - 2 * HOUR);
      fs.utimesSync(stored, old, old);
      // A second app over the same database and store starts, with its background work.
      const app = await buildApp({ ...t.config, mailWorker: true }, { db: t.db });
      await app.ready();
      await app.close();
      expect(fs.existsSync(stored)).toBe(false);
    } finally {
      await t.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
