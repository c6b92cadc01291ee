import path from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

/**
 * Where uploaded documents live: one small interface over the local disk or an S3-compatible
 * store. Files are content-addressed: a key is the SHA-256 of the bytes, so a key is never a name
 * a user chose and two uploads of the same bytes share one stored file.
 */

export interface StoredFile {
  key: string;
  modifiedAt: Date;
}

export interface FileStorage {
  readonly kind: "file" | "s3";
  /**
   * A local folder where uploads are written while they stream in, before put(). For the file
   * backend it is on the same filesystem as the store, so put() is a rename. Created on demand.
   */
  readonly stagingDir: string;
  /**
   * Stores the local file under key (its SHA-256, 64 lowercase hex), visible all at once or not
   * at all; moves or copies it, and the caller removes localPath afterwards if it still exists.
   * If the key already exists (same content), refreshes its modified time.
   */
  put(key: string, localPath: string): Promise<void>;
  /** The stored bytes as a stream, with the size; throws FileMissingError when absent. */
  read(key: string): Promise<{ stream: Readable; size: number }>;
  exists(key: string): Promise<boolean>;
  /** Removes the key; no error when it is absent. */
  delete(key: string): Promise<void>;
  /**
   * Every stored key with its last modified time, paged internally so it stays bounded in memory.
   * (The orphan sweep does not list: it removes only what this installation's records name.)
   */
  list(): AsyncIterable<StoredFile>;
  /** Cheap reachability check (for readiness later). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export class FileMissingError extends Error {
  override name = "FileMissingError";
}

export type StorageLocation =
  | { kind: "file"; root: string }
  | {
      kind: "s3";
      bucket: string;
      endpoint: string | null;
      region: string;
      forcePathStyle: boolean;
      prefix: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
    };

const STORAGE_KEY = /^[0-9a-f]{64}$/;

export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/** Every backend calls this before it builds a path or a request from a key. */
export function assertStorageKey(key: string): void {
  if (typeof key !== "string" || !isStorageKey(key)) {
    const shown = typeof key === "string" ? JSON.stringify(key.slice(0, 80)) : typeof key;
    throw new Error(`${shown} is not a storage key (a SHA-256 as 64 lowercase hex digits)`);
  }
}

const URL_FORMS = "file:<folder> or s3://bucket?endpoint=http://host:port&region=...";
const S3_PARAMETERS = ["endpoint", "region", "prefix", "forcePathStyle"];
// Amazon's rules for bucket names (dots allowed, no uppercase, no underscores).
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]+$/;

/** Parses STORAGE_URL; throws Error with a one-line message saying what is wrong. */
export function parseStorageUrl(url: string, cwd: string = process.cwd()): StorageLocation {
  const value = url.trim();
  if (value.startsWith("file:")) return parseFileUrl(value, cwd);
  if (value.startsWith("s3://")) return parseS3Url(value);
  throw new Error(`STORAGE_URL must be ${URL_FORMS}`);
}

function parseFileUrl(value: string, cwd: string): StorageLocation {
  if (value.startsWith("file://")) {
    // A proper file URL (file:///srv/ets/files); file://folder would name a host instead.
    let root: string;
    try {
      root = fileURLToPath(value);
    } catch {
      throw new Error(
        "STORAGE_URL file:// must be followed by an absolute path (file:///srv/ets/files); for a relative folder write file:./data/files",
      );
    }
    return { kind: "file", root: path.resolve(root) };
  }
  const folder = value.slice("file:".length);
  if (folder === "") {
    throw new Error("STORAGE_URL file: needs a folder, like file:./data/files");
  }
  if (/[?#]/.test(folder)) {
    throw new Error("STORAGE_URL file: takes a folder only, without ? or # parts");
  }
  return { kind: "file", root: path.resolve(cwd, folder) };
}

function parseS3Url(value: string): StorageLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      "STORAGE_URL is not a valid s3:// address (encode special characters in the key and secret with %XX)",
    );
  }
  const bucket = url.hostname;
  if (bucket === "") throw new Error("STORAGE_URL s3:// needs a bucket name: s3://bucket?...");
  if (!BUCKET_NAME.test(bucket) || bucket.includes("..")) {
    throw new Error(
      `STORAGE_URL bucket "${bucket}" must be 3 to 63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit`,
    );
  }
  if (url.port !== "") {
    throw new Error(
      "STORAGE_URL s3:// takes no port; give the server as ?endpoint=http://host:port",
    );
  }
  if (url.pathname !== "" && url.pathname !== "/") {
    throw new Error(
      "STORAGE_URL s3:// takes no path after the bucket; use ?prefix=folder/ instead",
    );
  }
  if (url.hash !== "") throw new Error("STORAGE_URL s3:// takes no # part");

  const params = url.searchParams;
  for (const name of new Set(params.keys())) {
    if (!S3_PARAMETERS.includes(name)) {
      throw new Error(
        `STORAGE_URL has an unknown parameter "${name}" (known: ${S3_PARAMETERS.join(", ")})`,
      );
    }
    if (params.getAll(name).length > 1) {
      throw new Error(`STORAGE_URL gives the parameter "${name}" more than once`);
    }
  }

  const endpoint = params.get("endpoint");
  if (endpoint !== null) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(endpoint);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.hostname === "") {
      throw new Error("STORAGE_URL endpoint must be an http:// or https:// address");
    }
    if (parsed.username !== "" || parsed.password !== "") {
      throw new Error(
        "STORAGE_URL endpoint must not carry credentials; put them before the bucket: s3://KEY:SECRET@bucket",
      );
    }
  }

  const region = params.get("region") ?? (endpoint !== null ? "us-east-1" : null);
  if (region === null) {
    throw new Error(
      "STORAGE_URL needs region=... (the bucket's AWS region) when no endpoint is given",
    );
  }
  if (!REGION.test(region)) {
    throw new Error(`STORAGE_URL region "${region}" must be lowercase letters, digits and hyphens`);
  }

  const pathStyle = params.get("forcePathStyle");
  if (pathStyle !== null && pathStyle !== "true" && pathStyle !== "false") {
    throw new Error("STORAGE_URL forcePathStyle must be true or false");
  }
  // Self-hosted S3 servers are reached by address, where bucket subdomains do not resolve.
  const forcePathStyle = pathStyle === null ? endpoint !== null : pathStyle === "true";

  const prefix = params.get("prefix") ?? "";
  if (prefix.startsWith("/")) {
    throw new Error('STORAGE_URL prefix must not start with "/" (write prefix=ets/)');
  }

  let credentials: { accessKeyId: string; secretAccessKey: string } | null = null;
  if (url.username !== "" || url.password !== "") {
    let accessKeyId: string;
    let secretAccessKey: string;
    try {
      accessKeyId = decodeURIComponent(url.username);
      secretAccessKey = decodeURIComponent(url.password);
    } catch {
      throw new Error("STORAGE_URL credentials have a broken %XX escape");
    }
    if (accessKeyId === "" || secretAccessKey === "") {
      throw new Error(
        "STORAGE_URL credentials need both parts, s3://ACCESS_KEY:SECRET@bucket, or neither (the AWS default credential chain)",
      );
    }
    credentials = { accessKeyId, secretAccessKey };
  }

  return { kind: "s3", bucket, endpoint, region, forcePathStyle, prefix, credentials };
}

/** STORAGE_URL with any secret replaced by "***", for logs. */
export function redactStorageUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (!scheme) return url;
  const start = scheme[0].length;
  // The last "@" ends the user part even when a secret holds an unescaped "@". An "@" that
  // belongs to the query instead only makes the result hide more than it must, never less.
  const at = url.lastIndexOf("@");
  if (at < start) return url;
  const userinfo = url.slice(start, at);
  const colon = userinfo.indexOf(":");
  // Without a colon the one part may be a secret pasted in the wrong place: hide all of it.
  const shown = colon === -1 ? "***" : `${userinfo.slice(0, colon)}:***`;
  return `${url.slice(0, start)}${shown}${url.slice(at)}`;
}
