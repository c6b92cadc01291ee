import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type * as PdfJsModule from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFDocumentLoadingTask } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * What the server learns about an uploaded PDF before accepting it: that it is one (by its bytes,
 * never its name or the browser's type), that it opens without a password and is whole, how many
 * pages it has, and whether it carries JavaScript or attachments the reviewer should know about.
 */

export type PdfProblem = "not_pdf" | "encrypted" | "corrupt";
export type PdfInspection =
  | { ok: true; pageCount: number; hasJavaScript: boolean; hasEmbeddedFiles: boolean }
  | { ok: false; problem: PdfProblem };

/** Readers accept the header anywhere in the first kilobyte (some tools put junk before it). */
const HEAD_BYTES = 1024;
/** Where a whole file's end-of-file marker must be; a cut-off upload lacks it. */
const TAIL_BYTES = 1024;
/** pdfjs asks for ranges of this size; only the parts it needs are ever read. */
const RANGE_CHUNK_BYTES = 64 * 1024;
const SCAN_CHUNK_BYTES = 1024 * 1024;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

const hasPdfHeader = (head: Buffer) => head.includes("%PDF-", 0, "latin1");

/**
 * What the file's first and last kilobyte say, without parsing it: `not_pdf` without the header,
 * `corrupt` without the end-of-file marker (cut off, or not a PDF behind its header), null when
 * both are there. Cheap enough to run before the virus scan; inspectPdf starts with it too.
 */
export async function pdfFrameProblem(localPath: string): Promise<"not_pdf" | "corrupt" | null> {
  const handle = await fs.promises.open(localPath, "r");
  try {
    return await frameProblem(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

async function frameProblem(
  handle: FileHandle,
  size: number,
): Promise<"not_pdf" | "corrupt" | null> {
  if (!hasPdfHeader(await readAt(handle, 0, Math.min(HEAD_BYTES, size)))) return "not_pdf";
  const tail = await readAt(handle, Math.max(0, size - TAIL_BYTES), Math.min(TAIL_BYTES, size));
  return tail.includes("%%EOF", 0, "latin1") ? null : "corrupt";
}

export async function looksLikePdf(localPath: string): Promise<boolean> {
  const handle = await fs.promises.open(localPath, "r");
  try {
    return hasPdfHeader(await readAt(handle, 0, HEAD_BYTES));
  } finally {
    await handle.close();
  }
}

/**
 * How much of the file pdfjs may read. A whole PDF needs only its cross-reference data and the few
 * objects behind the page count, scripts and attachments: a few megabytes even for a thesis of
 * hundreds of thousands of objects. A damaged one makes pdfjs rebuild the cross-references by
 * reading everything, at about four times the file's size in memory; past this budget the file
 * is treated as corrupt (the student re-exports it) rather than let one upload take that memory.
 */
const READ_BUDGET_BYTES = 16 * 1024 * 1024;

type PdfJs = typeof PdfJsModule;

/**
 * pdfjs and the range transport built on its class, loaded with the first upload (some 0.1 s of
 * the server's start otherwise, and of every test file that builds the app).
 */
let pdfjs:
  | Promise<{
      getDocument: PdfJs["getDocument"];
      FileRangeTransport: ReturnType<typeof rangeTransportOf>;
    }>
  | undefined;
function loadPdfJs() {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs").then((lib) => ({
    getDocument: lib.getDocument,
    FileRangeTransport: rangeTransportOf(lib),
  }));
  return pdfjs;
}

/** Hands pdfjs the byte ranges it asks for, read from the file, so the file is never read whole. */
function rangeTransportOf(lib: PdfJs) {
  return class FileRangeTransport extends lib.PDFDataRangeTransport {
    /**
     * Settles only when pdfjs must be abandoned: "corrupt" once it reads past the budget; rejected
     * when a read fails (a server problem, not a verdict on the PDF), as pdfjs would otherwise wait
     * for that range forever.
     */
    readonly stopped: Promise<PdfInspection>;
    private stop: (outcome: PdfInspection | Error) => void = () => {};
    private requested = 0;

    constructor(
      private readonly handle: FileHandle,
      length: number,
    ) {
      super(length, null);
      this.stopped = new Promise<PdfInspection>((resolve, reject) => {
        this.stop = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      });
      this.stopped.catch(() => {});
    }

    override requestDataRange(begin: number, end: number): void {
      this.requested += end - begin;
      if (this.requested > READ_BUDGET_BYTES) {
        this.stop({ ok: false, problem: "corrupt" });
        return;
      }
      readAt(this.handle, begin, end - begin).then(
        (chunk) =>
          this.onDataRange(begin, new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)),
        (error: unknown) =>
          this.stop(
            error instanceof Error ? error : new Error(`Could not read the PDF: ${String(error)}`),
          ),
      );
    }
  };
}

function errorName(error: unknown): string {
  return typeof error === "object" && error !== null && "name" in error ? String(error.name) : "";
}

export async function inspectPdf(localPath: string): Promise<PdfInspection> {
  const handle = await fs.promises.open(localPath, "r");
  let task: PDFDocumentLoadingTask | null = null;
  try {
    const { size } = await handle.stat();
    const frame = await frameProblem(handle, size);
    if (frame !== null) return { ok: false, problem: frame };

    const { getDocument, FileRangeTransport } = await loadPdfJs();
    const transport = new FileRangeTransport(handle, size);
    task = getDocument({
      range: transport,
      length: size,
      rangeChunkSize: RANGE_CHUNK_BYTES,
      disableAutoFetch: true,
      disableStream: true,
      isEvalSupported: false,
      verbosity: 0,
      disableFontFace: true,
      useSystemFonts: false,
    });
    const opened = await Promise.race([readDocument(task), transport.stopped]);
    if (!opened.ok) return opened;

    const tokens = await scanNameTokens(handle, size);
    return {
      ok: true,
      pageCount: opened.pageCount,
      hasJavaScript: opened.hasJavaScript || tokens.javaScript,
      hasEmbeddedFiles: opened.hasEmbeddedFiles || tokens.embeddedFiles,
    };
  } finally {
    await task?.destroy();
    await handle.close();
  }
}

async function readDocument(task: PDFDocumentLoadingTask): Promise<PdfInspection> {
  try {
    const document = await task.promise;
    const pageCount = document.numPages;
    if (!Number.isInteger(pageCount) || pageCount < 1) return { ok: false, problem: "corrupt" };
    // Reading the first page proves the page tree leads somewhere.
    await document.getPage(1);
    const actions: unknown = await document.getJSActions();
    const attachments: unknown = await document.getAttachments();
    return {
      ok: true,
      pageCount,
      hasJavaScript: isNonEmptyObject(actions),
      hasEmbeddedFiles: isNonEmptyObject(attachments),
    };
  } catch (error) {
    if (errorName(error) === "PasswordException") return { ok: false, problem: "encrypted" };
    return { ok: false, problem: "corrupt" };
  }
}

const isNonEmptyObject = (value: unknown) =>
  value !== null && typeof value === "object" && Object.keys(value).length > 0;

// ---------------------------------------------------------------------------------------------
// The raw-byte scan: pdfjs finds the document's own scripts and attachments, but JavaScript can
// also hang off pages, links and form fields. Any uncompressed object that names /JS,
// /JavaScript or /EmbeddedFile is flagged, including names spelled with #xx escapes.

const FLAGGED_NAMES: Record<string, "javaScript" | "embeddedFiles"> = {
  JS: "javaScript",
  JavaScript: "javaScript",
  EmbeddedFile: "embeddedFiles",
  EmbeddedFiles: "embeddedFiles",
};

/** Long enough for the flagged names even when every character is a #xx escape. */
const LONGEST_FLAGGED_NAME = 3 * "EmbeddedFiles".length;
/** The spec caps names at 127 bytes; a longer unfinished run is not one we look for. */
const MAX_NAME = 128;

/** PDF whitespace and delimiters end a name. */
const ENDS_NAME = new Uint8Array(256);
for (const byte of Buffer.from("\0\t\n\f\r ()<>[]{}/%", "latin1")) ENDS_NAME[byte] = 1;

function decodeName(raw: string): string {
  return raw.includes("#")
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : raw;
}

/** Reads the file in pieces into one reused buffer, so a 100 MB upload costs 1 MB here. */
async function scanNameTokens(
  handle: FileHandle,
  size: number,
): Promise<{ javaScript: boolean; embeddedFiles: boolean }> {
  const found = { javaScript: false, embeddedFiles: false };
  const buffer = Buffer.alloc(SCAN_CHUNK_BYTES + MAX_NAME);
  let carried = 0;
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, carried, SCAN_CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const end = carried + bytesRead;
    const atEnd = position >= size;
    const view = buffer.subarray(0, end);
    carried = 0;
    let slash = view.indexOf(0x2f);
    while (slash !== -1) {
      let nameEnd = slash + 1;
      while (nameEnd < end && !ENDS_NAME[view[nameEnd]!]) nameEnd++;
      if (nameEnd === end && !atEnd) {
        // The name may go on in the next piece: keep it at the front of the buffer.
        if (end - slash <= MAX_NAME) {
          view.copy(buffer, 0, slash, end);
          carried = end - slash;
        }
        break;
      }
      if (nameEnd - slash - 1 <= LONGEST_FLAGGED_NAME) {
        const flag = FLAGGED_NAMES[decodeName(view.toString("latin1", slash + 1, nameEnd))];
        if (flag) found[flag] = true;
      }
      slash = view.indexOf(0x2f, nameEnd);
    }
    if (found.javaScript && found.embeddedFiles) break;
  }
  return found;
}
