import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startS3Server, type S3TestServer } from "../../testing/s3-server.js";
import { createStorage } from "./create-storage.js";
import {
  FileMissingError,
  isStorageKey,
  parseStorageUrl,
  redactStorageUrl,
  type FileStorage,
} from "./storage.js";

/** One backend under test: a fresh, empty store per test, and one that cannot be reached. */
interface Backend {
  storage: FileStorage;
  /** A storage of the same kind whose every I/O would fail. */
  unreachable: () => FileStorage;
  /** The same kind pointed at a place that does not exist, for check(). */
  broken: () => FileStorage;
  cleanup(): Promise<void>;
}

const backends: { kind: "file" | "s3"; start: () => Promise<Backend> }[] = [
  {
    kind: "file",
    async start() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-files-"));
      const root = path.join(dir, "files");
      const notAFolder = path.join(dir, "plain-file");
      fs.writeFileSync(notAFolder, "not a folder");
      return {
        storage: createStorage({ kind: "file", root }),
        unreachable: () => createStorage({ kind: "file", root: path.join(notAFolder, "files") }),
        broken: () => createStorage({ kind: "file", root: path.join(notAFolder, "files") }),
        async cleanup() {
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    kind: "s3",
    async start() {
      const server: S3TestServer = await startS3Server();
      const staging = fs.mkdtempSync(path.join(os.tmpdir(), "ets-staging-"));
      const location = parseStorageUrl(server.url);
      if (location.kind !== "s3") throw new Error("startS3Server gave a non-S3 URL");
      const others: FileStorage[] = [];
      const other = (change: Partial<typeof location>) => {
        const storage = createStorage({ ...location, ...change }, { stagingDir: staging });
        others.push(storage);
        return storage;
      };
      return {
        storage: createStorage(location, { stagingDir: staging }),
        // Port 1 on the loopback refuses connections: every request would fail with ECONNREFUSED.
        unreachable: () => other({ endpoint: "http://127.0.0.1:1" }),
        broken: () => other({ bucket: "no-such-bucket-here" }),
        async cleanup() {
          await Promise.all(others.map((s) => s.close()));
          await server.stop();
          fs.rmSync(staging, { recursive: true, force: true });
        },
      };
    },
  },
];

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Writes bytes where an upload would stream them, and returns their key and the file. */
function stage(storage: FileStorage, bytes: Buffer): { key: string; file: string } {
  const file = path.join(storage.stagingDir, `upload-${randomBytes(8).toString("hex")}`);
  fs.writeFileSync(file, bytes);
  return { key: sha256(bytes), file };
}

async function listAll(storage: FileStorage) {
  const found = [];
  for await (const stored of storage.list()) found.push(stored);
  return found;
}

const NOT_KEYS = [
  "../../etc/passwd",
  "",
  "a".repeat(63),
  "a".repeat(65),
  "A".repeat(64),
  `${"a".repeat(62)}/x`,
  `../${"a".repeat(61)}`,
  `${"a".repeat(63)}g`,
];

describe.each(backends)("$kind storage", ({ kind, start }) => {
  let backend: Backend;
  let storage: FileStorage;

  beforeEach(async () => {
    backend = await start();
    storage = backend.storage;
  });

  afterEach(async () => {
    await storage.close();
    await backend.cleanup();
  });

  it("reports its kind and passes its reachability check", async () => {
    expect(storage.kind).toBe(kind);
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it("makes its staging folder when asked for it", () => {
    fs.rmSync(storage.stagingDir, { recursive: true, force: true });
    expect(fs.statSync(storage.stagingDir).isDirectory()).toBe(true);
  });

  it("gives back the same bytes and size that were put", async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const { key, file } = stage(storage, bytes);

    await storage.put(key, file);

    expect(await storage.exists(key)).toBe(true);
    const { stream, size } = await storage.read(key);
    expect(size).toBe(bytes.length);
    const back = await readAll(stream);
    expect(back.length).toBe(bytes.length);
    expect(sha256(back)).toBe(key);
  });

  it("throws FileMissingError when reading a key that was never stored", async () => {
    const key = sha256(Buffer.from("never stored"));

    await expect(storage.read(key)).rejects.toBeInstanceOf(FileMissingError);
    expect(await storage.exists(key)).toBe(false);
  });

  it("keeps the bytes and renews the modified time when the same key is put again", async () => {
    const bytes = randomBytes(64 * 1024);
    const first = stage(storage, bytes);
    await storage.put(first.key, first.file);
    const [before] = await listAll(storage);
    expect(before?.key).toBe(first.key);
    const firstTime = before!.modifiedAt.getTime();

    // S3 keeps LastModified to the second: wait for the clock to pass it so a renewal shows.
    while (Date.now() < firstTime + 1100) await new Promise((r) => setTimeout(r, 100));
    const second = stage(storage, bytes);
    await storage.put(second.key, second.file);

    const after = await listAll(storage);
    expect(after.map((f) => f.key)).toEqual([first.key]);
    expect(after[0]!.modifiedAt.getTime()).toBeGreaterThan(firstTime);
    const { stream } = await storage.read(first.key);
    expect(sha256(await readAll(stream))).toBe(first.key);
  });

  it("deletes a key, and deleting again or deleting a key never stored is no error", async () => {
    const { key, file } = stage(storage, randomBytes(1024));
    await storage.put(key, file);

    await storage.delete(key);

    expect(await storage.exists(key)).toBe(false);
    await expect(storage.read(key)).rejects.toBeInstanceOf(FileMissingError);
    await expect(storage.delete(key)).resolves.toBeUndefined();
    await expect(storage.delete(sha256(Buffer.from("never")))).resolves.toBeUndefined();
  });

  it("lists exactly the stored keys with their modified times, not staged uploads", async () => {
    const startedAt = Math.floor(Date.now() / 1000) * 1000;
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { key, file } = stage(storage, Buffer.from(`document ${i}`));
      await storage.put(key, file);
      keys.push(key);
    }
    const removed = keys.pop()!;
    await storage.delete(removed);
    // An upload still streaming in must never look like a stored file.
    stage(storage, Buffer.from("half an upload"));

    const listed = await listAll(storage);

    expect(listed.map((f) => f.key).sort()).toEqual([...keys].sort());
    for (const stored of listed) {
      expect(stored.modifiedAt).toBeInstanceOf(Date);
      expect(stored.modifiedAt.getTime()).toBeGreaterThanOrEqual(startedAt);
    }
  });

  it("lists more keys than one page of the backend holds", async () => {
    const keys = new Set<string>();
    const staged = Array.from({ length: 1005 }, (_, i) => {
      const s = stage(storage, Buffer.from(`page test ${i}`));
      keys.add(s.key);
      return s;
    });
    for (let i = 0; i < staged.length; i += 25) {
      await Promise.all(staged.slice(i, i + 25).map((s) => storage.put(s.key, s.file)));
    }

    const listed = await listAll(storage);

    expect(listed.length).toBe(1005);
    expect(new Set(listed.map((f) => f.key))).toEqual(keys);
  });

  it("refuses a key that is not 64 lowercase hex digits before any I/O", async () => {
    const { file } = stage(storage, Buffer.from("anything"));
    const offline = backend.unreachable();
    try {
      for (const bad of NOT_KEYS) {
        const refusal = /is not a storage key/;
        // The unreachable store would fail any request or path it touched with another error.
        await expect(offline.put(bad, file)).rejects.toThrow(refusal);
        await expect(offline.read(bad)).rejects.toThrow(refusal);
        await expect(offline.exists(bad)).rejects.toThrow(refusal);
        await expect(offline.delete(bad)).rejects.toThrow(refusal);
        await expect(storage.put(bad, file)).rejects.toThrow(refusal);
      }
      // The same calls with a good key do reach the unreachable store, and fail there.
      const good = sha256(Buffer.from("anything"));
      await expect(offline.exists(good)).rejects.not.toThrow(/is not a storage key/);
    } finally {
      await offline.close();
    }
    expect(await listAll(storage)).toEqual([]);
    expect(fs.existsSync(file)).toBe(true);
  });

  it("leaves nothing under the key when a put fails", async () => {
    const key = sha256(Buffer.from("gone before it was stored"));
    const missing = path.join(storage.stagingDir, "vanished-upload");

    await expect(storage.put(key, missing)).rejects.toThrow(/ENOENT/);
    await expect(storage.put(key, storage.stagingDir)).rejects.toThrow(/regular file/);

    expect(await storage.exists(key)).toBe(false);
    expect(await listAll(storage)).toEqual([]);
  });

  it("says which bucket or folder is unusable when the check fails", async () => {
    const broken = backend.broken();
    try {
      await expect(broken.check()).rejects.toThrow(
        kind === "s3"
          ? /bucket "no-such-bucket-here" is not usable/
          : /storage folder .* is not usable/,
      );
    } finally {
      await broken.close();
    }
  });
});

describe("file storage on disk", () => {
  let dir: string;
  let root: string;
  let storage: FileStorage;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-files-"));
    root = path.join(dir, "files");
    storage = createStorage({ kind: "file", root });
  });

  afterEach(async () => {
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores a key under two folders named by its first byte pairs, moving the upload", async () => {
    const { key, file } = stage(storage, Buffer.from("a thesis"));

    await storage.put(key, file);

    const stored = path.join(root, key.slice(0, 2), key.slice(2, 4), key);
    expect(fs.readFileSync(stored, "utf8")).toBe("a thesis");
    expect(fs.existsSync(file)).toBe(false);
    expect(storage.stagingDir).toBe(path.join(root, ".staging"));
  });

  it("ignores stray files in the store when listing", async () => {
    const { key, file } = stage(storage, Buffer.from("kept"));
    await storage.put(key, file);
    const folder = path.join(root, key.slice(0, 2), key.slice(2, 4));
    const other = sha256(Buffer.from("misplaced"));
    fs.writeFileSync(path.join(folder, other), "a key in the wrong folder");
    fs.writeFileSync(path.join(folder, `.${key}.0123.tmp`), "a copy cut off by a crash");
    fs.writeFileSync(path.join(root, "README"), "not a key");

    expect((await listAll(storage)).map((f) => f.key)).toEqual([key]);
  });

  it("copies an upload from another filesystem under a temporary name, then renames it", async () => {
    // /dev/shm is a memory filesystem on Linux, so rename(2) from it fails with EXDEV.
    const elsewhere = fs.mkdtempSync(path.join("/dev/shm", "ets-upload-"));
    try {
      expect(fs.statSync(elsewhere).dev).not.toBe(fs.statSync(dir).dev);
      const bytes = randomBytes(16 * 1024 * 1024);
      const key = sha256(bytes);
      const source = path.join(elsewhere, "upload");
      fs.writeFileSync(source, bytes);
      const stored = path.join(root, key.slice(0, 2), key.slice(2, 4), key);

      // Whenever the key can be seen while the copy runs, it must be whole.
      let settled = false;
      const putting = storage.put(key, source).finally(() => {
        settled = true;
      });
      const partial: number[] = [];
      while (!settled) {
        if (fs.existsSync(stored)) {
          const size = fs.statSync(stored).size;
          if (size !== bytes.length) partial.push(size);
        }
        await new Promise((r) => setImmediate(r));
      }
      await putting;

      expect(partial).toEqual([]);
      expect(fs.readdirSync(path.dirname(stored))).toEqual([key]);
      expect(sha256(fs.readFileSync(stored))).toBe(key);
      // Copied, not moved: the caller removes its upload.
      expect(fs.existsSync(source)).toBe(true);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("uses a staging folder given in the options", () => {
    const staging = path.join(dir, "elsewhere");
    const custom = createStorage({ kind: "file", root }, { stagingDir: staging });

    expect(custom.stagingDir).toBe(staging);
    expect(fs.statSync(staging).isDirectory()).toBe(true);
  });
});

describe("S3 storage with a prefix", () => {
  let server: S3TestServer;

  beforeEach(async () => {
    server = await startS3Server();
  });

  afterEach(async () => {
    await server.stop();
  });

  it("keeps its objects under the prefix and lists only its own keys", async () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), "ets-staging-"));
    const prefixed = createStorage(parseStorageUrl(`${server.url}&prefix=ets/`), {
      stagingDir: staging,
    });
    const whole = createStorage(parseStorageUrl(server.url), { stagingDir: staging });
    try {
      const mine = stage(prefixed, Buffer.from("under the prefix"));
      await prefixed.put(mine.key, mine.file);
      const outside = stage(whole, Buffer.from("at the top of the bucket"));
      await whole.put(outside.key, outside.file);

      expect((await listAll(prefixed)).map((f) => f.key)).toEqual([mine.key]);
      // The unprefixed view sees "ets/<key>", which is not a key, so it lists only its own.
      expect((await listAll(whole)).map((f) => f.key)).toEqual([outside.key]);
      expect(await whole.exists(mine.key)).toBe(false);
      expect(await prefixed.exists(mine.key)).toBe(true);
    } finally {
      await prefixed.close();
      await whole.close();
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });
});

describe("isStorageKey", () => {
  it("accepts a SHA-256 in lowercase hex and nothing else", () => {
    expect(isStorageKey(sha256(Buffer.from("x")))).toBe(true);
    for (const bad of NOT_KEYS) expect(isStorageKey(bad)).toBe(false);
  });
});

describe("parseStorageUrl", () => {
  const cwd = path.join(path.sep, "srv", "ets");

  it("reads a relative folder against the working directory", () => {
    expect(parseStorageUrl("file:./data/files", cwd)).toEqual({
      kind: "file",
      root: path.join(cwd, "data", "files"),
    });
  });

  it("reads an absolute folder, also written as a file URL", () => {
    expect(parseStorageUrl("file:/var/lib/ets/files", cwd)).toEqual({
      kind: "file",
      root: "/var/lib/ets/files",
    });
    expect(parseStorageUrl("file:///var/lib/ets/files", cwd)).toEqual({
      kind: "file",
      root: "/var/lib/ets/files",
    });
  });

  it("reads an S3 address with an endpoint, defaulting the region and path-style access", () => {
    expect(parseStorageUrl("s3://ets-files?endpoint=http://127.0.0.1:4568")).toEqual({
      kind: "s3",
      bucket: "ets-files",
      endpoint: "http://127.0.0.1:4568",
      region: "us-east-1",
      forcePathStyle: true,
      prefix: "",
      credentials: null,
    });
  });

  it("reads credentials, URL-decoded, and every parameter", () => {
    expect(
      parseStorageUrl(
        "s3://AKIAEXAMPLE:se%2Fcr%40et%3A1@ets.files?endpoint=https://s3.example.org&region=eu-west-1&prefix=ets/&forcePathStyle=false",
      ),
    ).toEqual({
      kind: "s3",
      bucket: "ets.files",
      endpoint: "https://s3.example.org",
      region: "eu-west-1",
      forcePathStyle: false,
      prefix: "ets/",
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "se/cr@et:1" },
    });
  });

  it("reads an AWS bucket with only a region, using virtual-host access", () => {
    expect(parseStorageUrl("s3://ets-files?region=eu-central-1")).toMatchObject({
      endpoint: null,
      region: "eu-central-1",
      forcePathStyle: false,
    });
  });

  it.each([
    ["http://example.org/files", /must be file:<folder> or s3:\/\/bucket/],
    ["./data/files", /must be file:<folder> or s3:\/\/bucket/],
    ["file:", /file: needs a folder/],
    ["file://data/files", /file:\/\/ must be followed by an absolute path/],
    ["s3://", /needs a bucket name/],
    ["s3://Ets_Files?region=eu-west-1", /bucket "Ets_Files" must be 3 to 63 lowercase letters/],
    ["s3://ab?region=eu-west-1", /bucket "ab" must be 3 to 63/],
    ["s3://ets-files", /needs region=/],
    ["s3://ets-files/theses?region=eu-west-1", /no path after the bucket; use \?prefix=/],
    ["s3://ets-files:9000?region=eu-west-1", /takes no port/],
    ["s3://ets-files?endpoint=ftp://host", /endpoint must be an http:\/\/ or https:\/\//],
    ["s3://ets-files?endpoint=not a url", /endpoint must be an http:\/\/ or https:\/\//],
    ["s3://ets-files?endpont=http://host:9000", /unknown parameter "endpont"/],
    ["s3://ets-files?region=a&region=b", /"region" more than once/],
    ["s3://ets-files?region=EU WEST", /region "EU WEST" must be/],
    [
      "s3://ets-files?endpoint=http://h:1&forcePathStyle=yes",
      /forcePathStyle must be true or false/,
    ],
    ["s3://ets-files?endpoint=http://h:1&prefix=/ets", /prefix must not start with "\/"/],
    ["s3://KEYONLY@ets-files?endpoint=http://h:1", /credentials need both parts/],
    ["s3://:wJalrXUtnFEMI@ets-files?endpoint=http://h:1", /credentials need both parts/],
  ])("refuses %s with a message saying why", (url, message) => {
    let thrown: unknown;
    try {
      parseStorageUrl(url, cwd);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const text = (thrown as Error).message;
    expect(text).toMatch(message);
    expect(text).toMatch(/^STORAGE_URL /);
    expect(text).not.toContain("\n");
    expect(text).not.toContain("wJalrXUtnFEMI");
  });
});

describe("redactStorageUrl", () => {
  it("hides the secret and keeps the rest", () => {
    expect(
      redactStorageUrl(
        "s3://AKIAEXAMPLE:wJalr%2FXUtnFEMI@ets-files?endpoint=http://h:9000&region=x",
      ),
    ).toBe("s3://AKIAEXAMPLE:***@ets-files?endpoint=http://h:9000&region=x");
  });

  it("hides a secret holding an unescaped @ or /", () => {
    const redacted = redactStorageUrl("s3://KEY:p@ss/w@rd@ets-files?region=eu-west-1");
    expect(redacted).toBe("s3://KEY:***@ets-files?region=eu-west-1");
    expect(redacted).not.toContain("ss/w");
  });

  it("hides a lone user part, which may be a misplaced secret", () => {
    expect(redactStorageUrl("s3://wJalrXUtnFEMI@ets-files?region=eu-west-1")).toBe(
      "s3://***@ets-files?region=eu-west-1",
    );
  });

  it("leaves addresses without secrets as they are", () => {
    for (const url of ["file:./data/files", "s3://ets-files?endpoint=http://127.0.0.1:4568"]) {
      expect(redactStorageUrl(url)).toBe(url);
    }
  });

  it("hides the test server's secret", async () => {
    const server = await startS3Server();
    try {
      const location = parseStorageUrl(server.url);
      if (location.kind !== "s3" || location.credentials === null) {
        throw new Error("the test server's URL should carry credentials");
      }
      expect(redactStorageUrl(server.url)).not.toContain(
        `:${location.credentials.secretAccessKey}@`,
      );
      expect(redactStorageUrl(server.url)).toContain(":***@");
    } finally {
      await server.stop();
    }
  });
});
