import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pg from "pg";
import type { DocumentItem } from "../common/workflow.js";
import { buildApp } from "../server/app.js";
import { readTestEnv, type Config } from "../server/config.js";
import type { Db } from "../server/db/database.js";
import { createStorage } from "../server/files/create-storage.js";
import { parseStorageUrl, type FileStorage } from "../server/files/storage.js";
import { startS3Server } from "./s3-server.js";
import { createTestDatabase, testConfig, type TestDatabase } from "./test-app.js";

/**
 * Helpers for the document tests: a store on either backend (a temporary folder, or a fresh
 * bucket on a real S3-protocol server), an app wired to it with a staging folder of its own, and
 * multipart bodies built byte by byte the way a browser sends them.
 */

export const STORAGE_BACKENDS = ["file", "s3"] as const;
export type StorageBackend = (typeof STORAGE_BACKENDS)[number];

export interface TestStore {
  /** A STORAGE_URL for it. */
  url: string;
  stop(): Promise<void>;
}

export async function startStore(backend: StorageBackend): Promise<TestStore> {
  if (backend === "s3") return startS3Server();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-files-"));
  return {
    url: `file:${dir}`,
    stop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface DocumentsTestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  database: TestDatabase;
  storage: FileStorage;
  /** This app's own staging folder: uploads stream here before they are stored. */
  stagingDir: string;
  close(): Promise<void>;
}

/**
 * An app on a fresh database, storing in `storageUrl`; env adds or overrides settings, logStream
 * captures the log (with a LOG_LEVEL in env).
 */
export async function createDocumentsTestApp(
  storageUrl: string,
  env: Record<string, string> = {},
  options: { logStream?: { write(line: string): void } } = {},
): Promise<DocumentsTestApp> {
  const database = await createTestDatabase();
  const config = testConfig({ DATABASE_URL: database.url, STORAGE_URL: storageUrl, ...env });
  const stagingDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-staging-"));
  const storage = createStorage(parseStorageUrl(storageUrl), { stagingDir });
  const app = await buildApp(config, {
    db: database.db,
    storage,
    webRoot: path.join(os.tmpdir(), "ets-no-web"),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    database,
    storage,
    stagingDir,
    close: async () => {
      await app.close();
      await storage.close();
      await database.db.destroy();
      if (database.kind === "postgres") await waitForConnectionsToEnd(database.url);
      await database.drop();
      fs.rmSync(stagingDir, { recursive: true, force: true });
    },
  };
}

/**
 * The pool's clients close asynchronously after destroy(). Dropping the database while one is
 * still closing terminates it, and the pool (which has no error listener) turns that into an
 * uncaught error in whatever test runs next; so wait until the server has let them all go.
 */
async function waitForConnectionsToEnd(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const serverUrl = readTestEnv().databaseUrl ?? databaseUrl;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await client.query<{ open: number }>(
        "select count(*)::int as open from pg_stat_activity where datname = $1",
        [name],
      );
      if ((rows[0]?.open ?? 0) === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

/** Every key in the store. */
export async function storedKeys(storage: FileStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

/** What is left in a staging folder (nothing, once every upload has finished). */
export function stagingFiles(stagingDir: string): string[] {
  return fs.existsSync(stagingDir) ? fs.readdirSync(stagingDir) : [];
}

export interface MultipartPart {
  name: string;
  /** Given for a file part. */
  fileName?: string;
  contentType?: string;
  content: Buffer | string;
}

/** A multipart/form-data body and its Content-Type, as a browser's FormData would send it. */
export function multipartBody(parts: MultipartPart[]): {
  payload: Buffer;
  contentType: string;
} {
  const boundary = `----etsTestBoundary${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.fileName === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.fileName.replace(/"/g, "%22")}"`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.contentType) headers.push(`Content-Type: ${part.contentType}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join("\r\n")}\r\n\r\n`, "utf8"));
    chunks.push(typeof part.content === "string" ? Buffer.from(part.content) : part.content);
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POSTs one file as the multipart field "file" to the item's upload route. */
export async function uploadDocumentFile(
  app: FastifyInstance,
  headers: Record<string, string>,
  indexNumber: string,
  item: DocumentItem,
  fileName: string,
  content: Buffer,
): Promise<LightMyRequestResponse> {
  const body = multipartBody([{ name: "file", fileName, contentType: "application/pdf", content }]);
  return app.inject({
    method: "POST",
    url: `/api/submissions/${indexNumber}/documents/${item}`,
    headers: { ...headers, "content-type": body.contentType },
    payload: body.payload,
  });
}

/** Saves a thesis title and abstract, which the thesis upload needs first. */
export async function saveThesisDetailsFor(
  app: FastifyInstance,
  headers: Record<string, string>,
  indexNumber: string,
  details: { title: string; abstract: string } = {
    title: "Rainfall and maize yields in the Volta basin",
    abstract: "A study of rainfall variability and its effect on maize yields, 1990-2020.",
  },
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "PUT",
    url: `/api/submissions/${indexNumber}/thesis`,
    headers,
    payload: details,
  });
}
