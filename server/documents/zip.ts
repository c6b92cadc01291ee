import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { DOCUMENTS, DOCUMENT_LABELS, type DocumentItem } from "../../common/workflow.js";
import { AppError, notFound } from "../errors.js";
import type { FileStorage } from "../files/storage.js";
import type { Executor } from "../db/database.js";
import { findSubmissionById } from "../submissions/repository.js";
import { listDocumentVersions } from "./repository.js";

/**
 * Every current document of a submission as one zip, streamed: each entry is read from the file
 * store only when the zip reaches it, so memory stays flat and at most one stored file is open.
 * Entries are stored, not deflated: PDFs are compressed inside already.
 */

export interface DocumentsZip {
  /** For Content-Disposition: the index number with "/" made "-", then "-documents.zip". */
  fileName: string;
  entries: string[];
  stream: Readable;
}

const NAME_LIMIT = 120;

/**
 * "01 Thesis - thesis-final.pdf": the item's place in the checklist, its label and the student's
 * file name, made safe to unpack anywhere: no folders, no control characters, none of the
 * characters Windows refuses, no leading dots, ending in .pdf.
 */
export function zipEntryName(item: DocumentItem, fileName: string): string {
  const position = String(DOCUMENTS.indexOf(item) + 1).padStart(2, "0");
  const base = fileName
    .normalize("NFC")
    .replace(/\.pdf$/i, "")
    // Line breaks and tabs part words; other control and format characters (a right-to-left
    // override disguising ".exe") go.
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/[/\\:*?"<>|]/g, "_")
    .replace(/^[\s.]+/, "")
    .replace(/[\s.]+$/, "")
    .slice(0, NAME_LIMIT)
    .trim();
  return `${position} ${DOCUMENT_LABELS[item]} - ${base === "" ? "document" : base}.pdf`;
}

export function zipFileName(indexNumber: string): string {
  return `${indexNumber.replace(/[^A-Za-z0-9-]/g, "-")}-documents.zip`;
}

/**
 * The zip of a submission's current versions, one per item that has one, in checklist order.
 * 404 when the submission does not exist, and also when nothing was uploaded: an empty zip would
 * only puzzle whoever opens it, and the details panel offers the download only once a document is
 * there.
 */
export async function documentsZip(
  db: Executor,
  storage: FileStorage,
  submissionId: number,
): Promise<DocumentsZip> {
  const submission = await findSubmissionById(db, submissionId);
  if (!submission) throw notFound("There is no submission with this id.");
  const current = (await listDocumentVersions(db, submissionId)).filter((v) => v.isCurrent);
  if (current.length === 0) {
    throw notFound("No documents have been uploaded for this submission yet.");
  }
  // Checked before the first byte goes out: once the zip streams, a missing file can only cut
  // the download short.
  for (const version of current) {
    if (!(await storage.exists(version.sha256))) {
      throw new AppError(
        "internal",
        `The file of the ${DOCUMENT_LABELS[version.item]} (${version.fileName}) is missing from the file store. Ask the technical team to restore it.`,
      );
    }
  }

  const zip = new ZipFile();
  const entries: string[] = [];
  for (const version of current) {
    const name = zipEntryName(version.item, version.fileName);
    entries.push(name);
    zip.addReadStreamLazy(
      name,
      { compress: false, mtime: new Date(version.uploadedAt), size: version.sizeBytes },
      (done) => {
        storage.read(version.sha256).then(
          ({ stream }) => done(null, stream),
          (error: unknown) => done(error, emptyStream()),
        );
      },
    );
  }
  zip.end();
  const stream = zip.outputStream as Readable;
  // A file that fails while streaming (removed, store unreachable) ends the download with an
  // error instead of leaving it hanging.
  zip.on("error", (error: Error) => stream.destroy(error));
  return { fileName: zipFileName(submission.indexNumber), entries, stream };
}

/** yazl's callback wants a stream even with an error; it never reads this one. */
function emptyStream(): NodeJS.ReadableStream {
  return Readable.from([]);
}
