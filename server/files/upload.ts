import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MAX_FILE_NAME_LENGTH, documentLabel, type UploadRefusal } from "../../common/documents.js";
import type { DocumentItem } from "../../common/workflow.js";
import { AppError, type ErrorCode, type FieldError } from "../errors.js";
import { ScannerUnavailableError, type VirusScanner } from "./clamd.js";
import { inspectPdf, pdfFrameProblem } from "./pdf.js";
import type { FileStorage } from "./storage.js";
import type { Executor } from "../db/database.js";
import { recordPendingUpload } from "./pending-uploads.js";

/**
 * The path of an uploaded file, from the request to the store (server/documents/README.md):
 * stream it to a staging file under a random name while hashing and counting, refuse it as soon
 * as it passes its limit, check its bytes are a whole PDF, scan it, open it, and only then store it under its
 * SHA-256. The bytes are never held in memory whole, and the staging file is removed whatever
 * happens.
 */

/** The uploaded file as the multipart parser hands it over. */
export interface IncomingFile {
  stream: Readable;
  /** The name the client sent; display only. */
  clientName: string | undefined;
}

/** What the server learned about an accepted file; the bytes are in the store under sha256. */
export interface ReceivedDocument {
  /**
   * The pending-upload record written before the put: the caller settles it (settlePendingUpload)
   * in the transaction that records the file.
   */
  pendingUploadId: number;
  sha256: string;
  sizeBytes: number;
  pageCount: number;
  hasJavaScript: boolean;
  hasEmbeddedFiles: boolean;
}

export interface UploadLog {
  error(details: { err: unknown }, message: string): void;
}

/**
 * What the file is, for the size refusal's words: a checklist item ("the limit for a thesis"), or,
 * for a file that is not one (an examiner's report), a phrase of its own ("an examination
 * report").
 */
export type UploadKind = { item: DocumentItem } | { limitLabel: string };

export type ReceiveOptions = UploadKind & {
  /** Where the pending-upload record goes (pending-uploads.ts). */
  db: Executor;
  /** The multipart file stream. */
  source: Readable;
  /** The display name (displayFileName), for messages only. */
  fileName: string;
  maxBytes: number;
  storage: FileStorage;
  /** null: uploads are not scanned (no CLAMD_URL). */
  scanner: VirusScanner | null;
  log?: UploadLog;
  /** Called before an infected file is refused, to audit it. */
  onInfected(signature: string, sha256: string): Promise<void>;
};

export async function receiveDocument(options: ReceiveOptions): Promise<ReceivedDocument> {
  const { fileName, maxBytes, storage, scanner } = options;
  const what = "item" in options ? itemPhrase(options.item) : options.limitLabel;
  await fs.promises.mkdir(storage.stagingDir, { recursive: true });
  // Never the client's name: a random one in our own folder.
  const stagingPath = path.join(storage.stagingDir, `upload-${randomUUID()}.part`);
  try {
    const { sha256, sizeBytes } = await stage(options.source, stagingPath, maxBytes).catch(
      (error: unknown) => {
        if (error instanceof SizeLimitExceeded) {
          throw refusals.tooLargeFor(fileName, what, maxBytes);
        }
        throw error;
      },
    );
    if (sizeBytes === 0) throw refusals.empty(fileName);
    // The cheap checks before the scan: a file whose bytes are not a whole PDF (no header, or no
    // end-of-file marker) is refused for that, and never recorded as infected whatever it
    // carries; clamd reads only what could be accepted. pdf.js still runs after clamd, so a
    // hostile file that passes these reaches the scanner before our parser.
    const frame = await pdfFrameProblem(stagingPath);
    if (frame === "not_pdf") throw refusals.notPdf(fileName);
    if (frame === "corrupt") throw refusals.corrupt(fileName);

    if (scanner) {
      let verdict: Awaited<ReturnType<VirusScanner["scan"]>>;
      try {
        verdict = await scanner.scan(stagingPath);
      } catch (error) {
        if (error instanceof ScannerUnavailableError) throw refusals.scannerUnavailable(fileName);
        throw error;
      }
      if (!verdict.clean) {
        await options.onInfected(verdict.signature, sha256);
        throw refusals.infected(fileName, verdict.signature);
      }
    }

    const pdf = await inspectPdf(stagingPath);
    if (!pdf.ok) {
      switch (pdf.problem) {
        case "not_pdf":
          throw refusals.notPdf(fileName);
        case "encrypted":
          throw refusals.encrypted(fileName);
        case "corrupt":
          throw refusals.corrupt(fileName);
      }
    }

    let pendingUploadId: number;
    try {
      // Recorded before the put, so a file this installation writes and then abandons (the
      // caller's transaction fails, the server stops) is known to the orphan sweep, which removes
      // no file it has no record of (sweep.ts). Bytes the store had already are not ours to remove.
      const storedNew = !(await storage.exists(sha256));
      pendingUploadId = await recordPendingUpload(options.db, { sha256, storedNew });
      await storage.put(sha256, stagingPath);
    } catch (error) {
      // The store (a full disk, an S3 endpoint that is down) is not the student's problem to
      // solve: say nothing was saved, log the cause for the operator.
      options.log?.error({ err: error }, "the file store refused an upload");
      throw refusals.storageUnavailable(fileName);
    }
    return {
      pendingUploadId,
      sha256,
      sizeBytes,
      pageCount: pdf.pageCount,
      hasJavaScript: pdf.hasJavaScript,
      hasEmbeddedFiles: pdf.hasEmbeddedFiles,
    };
  } finally {
    // put() may have moved the file away already; force ignores that.
    await fs.promises.rm(stagingPath, { force: true });
  }
}

class SizeLimitExceeded extends Error {
  override name = "SizeLimitExceeded";
}

/** Counts and hashes the bytes on their way to disk, and fails the stream past maxBytes. */
class Measure extends Transform {
  readonly hash = createHash("sha256");
  size = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new SizeLimitExceeded());
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/**
 * The multipart parser's own limit must sit above maxBytes (the route gives it maxBytes + 1), so
 * Measure sees the byte that passes the limit and refuses the file.
 */
async function stage(
  source: Readable,
  stagingPath: string,
  maxBytes: number,
): Promise<{ sha256: string; sizeBytes: number }> {
  const measure = new Measure(maxBytes);
  const out = fs.createWriteStream(stagingPath, { flags: "wx" });
  const closed = new Promise<void>((resolve) => out.once("close", () => resolve()));
  try {
    await pipeline(source, measure, out);
  } finally {
    // A failure can come before the file is even open; the stream still opens it, then closes
    // it. Wait for that, or the caller's cleanup would run first and the file would stay.
    if (!out.closed) await closed;
  }
  return { sha256: measure.hash.digest("hex"), sizeBytes: measure.size };
}

// ---------------------------------------------------------------------------------------------
// File names and refusals

/**
 * The name shown for an uploaded file: the last part of whatever path the client sent, without
 * control or direction-changing characters, at most MAX_FILE_NAME_LENGTH characters. Display
 * only: never used to build a path.
 */
export function displayFileName(clientName: string | undefined): string {
  const base = (clientName ?? "").split(/[/\\]/).pop() ?? "";
  const shown = Array.from(base).filter((char) => !isHiddenCharacter(char.codePointAt(0) ?? 0));
  const limited = shown.join("").trim();
  const short = Array.from(limited).slice(0, MAX_FILE_NAME_LENGTH).join("").trim();
  return short === "" ? "document.pdf" : short;
}

/** Control characters, and the direction marks and overrides that can disguise a name's end. */
function isHiddenCharacter(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function refusal(
  code: ErrorCode,
  reason: UploadRefusal,
  message: string,
  fields: FieldError[] = [],
): AppError {
  return new AppError(code, message, fields, { reason });
}

function whole(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

const itemPhrase = (item: DocumentItem) =>
  item === "thesis" ? "a thesis" : `the ${documentLabel(item)}`;

/** Every refusal names the file and says what to do; `reason` says which one it is. */
export const refusals = {
  tooLarge: (name: string, item: DocumentItem, maxBytes: number) =>
    refusals.tooLargeFor(name, itemPhrase(item), maxBytes),
  /** `what` says whose limit it is: "a thesis", "an examination report". */
  tooLargeFor: (name: string, what: string, maxBytes: number) =>
    refusal(
      "payload_too_large",
      "too_large",
      `${name} is larger than ${whole(maxBytes)}, the limit for ${what}. Make the file smaller (for example, export it again with compressed images) and upload it.`,
    ),
  empty: (name: string) =>
    refusal(
      "validation",
      "empty",
      `${name} is empty. Check that you chose the saved PDF, then upload it again.`,
    ),
  notPdf: (name: string) =>
    refusal(
      "validation",
      "not_pdf",
      `${name} is not a PDF. Save or export it as a PDF and upload that file.`,
    ),
  encrypted: (name: string) =>
    refusal(
      "validation",
      "encrypted",
      `${name} is protected by a password. Save it again without a password and upload it.`,
    ),
  corrupt: (name: string) =>
    refusal(
      "validation",
      "corrupt",
      `${name} could not be opened as a PDF: it may be damaged or incomplete. Export it again and upload it.`,
    ),
  infected: (name: string, signature: string) =>
    refusal(
      "validation",
      "infected",
      `${name} contains a virus (${signature}) and was not accepted. Check your computer with an up-to-date virus scanner, then upload a clean copy.`,
    ),
  scannerUnavailable: (name: string) =>
    refusal(
      "unavailable",
      "scanner_unavailable",
      `We could not check ${name} for viruses just now. Nothing was saved. Please try again in a few minutes.`,
    ),
  storageUnavailable: (name: string) =>
    refusal(
      "unavailable",
      "storage_unavailable",
      `We could not store ${name} just now. Nothing was saved. Please try again in a few minutes.`,
    ),
  detailsMissing: (name: string, missing: ("title" | "abstract")[]) =>
    refusal(
      "validation",
      "details_missing",
      `${name} was not uploaded: save the thesis ${missing.join(" and ")} first, then upload the thesis.`,
      missing.map((field) => ({ field, message: "is required before the thesis is uploaded" })),
    ),
  alreadyAccepted: (name: string, item: DocumentItem) =>
    refusal(
      "conflict",
      "already_accepted",
      `${name} was not uploaded: the school has already accepted the ${documentLabel(item)}. If it must be replaced, contact the School of Graduate Studies.`,
    ),
};
