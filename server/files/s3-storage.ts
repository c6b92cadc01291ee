import fs from "node:fs";
import { stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type * as S3 from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import {
  FileMissingError,
  assertStorageKey,
  isStorageKey,
  type FileStorage,
  type StorageLocation,
  type StoredFile,
} from "./storage.js";
import { lazyModule } from "../lazy-module.js";

/** The S3 client, loaded with the first bucket: an install on local files never needs it. */
const s3 = lazyModule<typeof S3>("@aws-sdk/client-s3");

type S3Location = Extract<StorageLocation, { kind: "s3" }>;

/**
 * Files in an S3-compatible bucket, so several app servers share them. Each key is one object
 * named <prefix><key>; a PUT is atomic in S3, so an object is visible whole or not at all.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = "s3";
  readonly #stagingDir: string;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(location: S3Location, stagingDir?: string) {
    this.#bucket = location.bucket;
    this.#prefix = location.prefix;
    this.#stagingDir = stagingDir ?? path.join(os.tmpdir(), "ets-staging");
    this.#client = new (s3().S3Client)({
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      ...(location.endpoint !== null ? { endpoint: location.endpoint } : {}),
      // Without credentials the SDK's default chain applies (environment, profile, instance role).
      ...(location.credentials !== null ? { credentials: location.credentials } : {}),
      // Newer SDKs otherwise send aws-chunked bodies with CRC32 trailers, which simpler S3
      // servers (s3rver among them) refuse; plain PUTs with a Content-Length work everywhere.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A dead endpoint fails in seconds instead of hanging an upload or a readiness probe.
      requestHandler: { connectionTimeout: 10_000, socketTimeout: 120_000 },
    });
  }

  get stagingDir(): string {
    // Made on every ask (one cheap syscall): the system may clean its temporary folder.
    fs.mkdirSync(this.#stagingDir, { recursive: true });
    return this.#stagingDir;
  }

  #objectKey(key: string): string {
    assertStorageKey(key);
    return this.#prefix + key;
  }

  async put(key: string, localPath: string): Promise<void> {
    const objectKey = this.#objectKey(key);
    const source = await stat(localPath);
    if (!source.isFile()) throw new Error(`Only a regular file can be stored: ${localPath}`);
    // Always a PUT, even when the object exists: it renews LastModified for the orphan sweep.
    // One PUT streams the whole file (S3 takes up to 5 GB that way), so memory stays flat.
    await this.#client.send(
      new (s3().PutObjectCommand)({
        Bucket: this.#bucket,
        Key: objectKey,
        Body: fs.createReadStream(localPath),
        ContentLength: source.size,
        ContentType: "application/octet-stream",
      }),
    );
  }

  async read(key: string): Promise<{ stream: Readable; size: number }> {
    const objectKey = this.#objectKey(key);
    try {
      const response = await this.#client.send(
        new (s3().GetObjectCommand)({ Bucket: this.#bucket, Key: objectKey }),
      );
      const body = response.Body;
      if (!(body instanceof Readable)) {
        throw new Error("The S3 client returned no readable body (not running on Node.js?)");
      }
      const size = response.ContentLength;
      if (size === undefined) {
        body.destroy();
        throw new Error(`The S3 server sent no Content-Length for ${key}`);
      }
      return { stream: body, size };
    } catch (error) {
      // Only a missing key: a missing bucket is a configuration fault and must say so.
      if (error instanceof s3().S3ServiceException && error.name === "NoSuchKey") {
        throw new FileMissingError(`No stored file ${key}`, { cause: error });
      }
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const objectKey = this.#objectKey(key);
    try {
      await this.#client.send(
        new (s3().HeadObjectCommand)({ Bucket: this.#bucket, Key: objectKey }),
      );
      return true;
    } catch (error) {
      if (error instanceof s3().S3ServiceException && error.$metadata.httpStatusCode === 404) {
        return false;
      }
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for an absent key too.
    await this.#client.send(
      new (s3().DeleteObjectCommand)({ Bucket: this.#bucket, Key: this.#objectKey(key) }),
    );
  }

  async *list(): AsyncIterable<StoredFile> {
    let continuationToken: string | undefined;
    do {
      const page = await this.#client.send(
        new (s3().ListObjectsV2Command)({
          Bucket: this.#bucket,
          Prefix: this.#prefix === "" ? undefined : this.#prefix,
          ContinuationToken: continuationToken,
          MaxKeys: 1000,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined || object.LastModified === undefined) continue;
        const key = object.Key.slice(this.#prefix.length);
        // Other objects may share the bucket; only our own keys are reported (and so swept).
        if (object.Key.startsWith(this.#prefix) && isStorageKey(key)) {
          yield { key, modifiedAt: object.LastModified };
        }
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }

  async check(): Promise<void> {
    try {
      await this.#client.send(new (s3().HeadBucketCommand)({ Bucket: this.#bucket }));
    } catch (error) {
      throw new Error(`The storage bucket "${this.#bucket}" is not usable: ${describe(error)}`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}

function describe(error: unknown): string {
  if (error instanceof s3().S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (status === 404) return "no such bucket (HTTP 404)";
    if (status === 403)
      return "access denied (HTTP 403): check the credentials and the bucket policy";
    return `${error.name} (HTTP ${status ?? "?"})`;
  }
  return error instanceof Error ? error.message : String(error);
}
