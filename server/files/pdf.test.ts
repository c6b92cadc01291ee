import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EICAR,
  eicarPdf,
  encryptedPdf,
  pngRenamedAsPdf,
  truncatedPdf,
  validPdf,
  writeLargePdf,
} from "../../testing/pdf-fixtures.js";
import { inspectPdf, looksLikePdf, pdfFrameProblem } from "./pdf.js";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-pdf-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function save(bytes: Buffer | string): string {
  const file = path.join(dir, `upload-${++counter}.pdf`);
  fs.writeFileSync(file, bytes);
  return file;
}

describe("looksLikePdf", () => {
  it("goes by the bytes: a PDF yes, a PNG named .pdf no, an empty file no", async () => {
    expect(await looksLikePdf(save(validPdf()))).toBe(true);
    expect(await looksLikePdf(save(pngRenamedAsPdf()))).toBe(false);
    expect(await looksLikePdf(save(""))).toBe(false);
  });

  it("accepts the header after a little leading junk, but not past the first kilobyte", async () => {
    expect(await looksLikePdf(save(Buffer.concat([Buffer.alloc(100, 0x20), validPdf()])))).toBe(
      true,
    );
    expect(await looksLikePdf(save(Buffer.concat([Buffer.alloc(1024, 0x20), validPdf()])))).toBe(
      false,
    );
  });
});

describe("pdfFrameProblem", () => {
  it("reads the header and the end-of-file marker only", async () => {
    expect(await pdfFrameProblem(save(validPdf()))).toBeNull();
    expect(await pdfFrameProblem(save(pngRenamedAsPdf()))).toBe("not_pdf");
    expect(await pdfFrameProblem(save(""))).toBe("not_pdf");
    expect(await pdfFrameProblem(save(truncatedPdf()))).toBe("corrupt");
    expect(await pdfFrameProblem(save(`%PDF-1.7\n${EICAR}\n`))).toBe("corrupt");
  });
});

describe("inspectPdf", () => {
  it("reads the page count of a one-page and a three-page PDF", async () => {
    expect(await inspectPdf(save(validPdf()))).toEqual({
      ok: true,
      pageCount: 1,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
    });
    expect(await inspectPdf(save(validPdf({ pages: 3 })))).toEqual({
      ok: true,
      pageCount: 3,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
    });
  });

  it("calls a password-protected PDF encrypted", async () => {
    expect(await inspectPdf(save(encryptedPdf()))).toEqual({ ok: false, problem: "encrypted" });
  });

  it("calls a PDF cut off partway corrupt", async () => {
    expect(await inspectPdf(save(truncatedPdf()))).toEqual({ ok: false, problem: "corrupt" });
  });

  it("calls a PDF whose cross-references point nowhere corrupt, even with its end marker", async () => {
    const whole = validPdf({ pages: 2 }).toString("latin1");
    const broken = whole
      .replace(/startxref\n\d+\n/, "startxref\n9\n")
      .replace(/\nxref\n[\s\S]*?trailer/, "\ntrailer");
    const inspection = await inspectPdf(
      save(Buffer.from(broken.replace(/\d+ 0 obj/g, "garbage"), "latin1")),
    );
    expect(inspection).toEqual({ ok: false, problem: "corrupt" });
  });

  it("calls a PNG renamed .pdf and an empty file not a PDF", async () => {
    expect(await inspectPdf(save(pngRenamedAsPdf()))).toEqual({ ok: false, problem: "not_pdf" });
    expect(await inspectPdf(save(""))).toEqual({ ok: false, problem: "not_pdf" });
  });

  it("flags a PDF that runs JavaScript when opened", async () => {
    const inspection = await inspectPdf(save(validPdf({ javaScript: true })));
    expect(inspection).toEqual({
      ok: true,
      pageCount: 1,
      hasJavaScript: true,
      hasEmbeddedFiles: false,
    });
  });

  it("flags a PDF with an attached file", async () => {
    const inspection = await inspectPdf(save(validPdf({ pages: 2, embeddedFile: true })));
    expect(inspection).toEqual({
      ok: true,
      pageCount: 2,
      hasJavaScript: false,
      hasEmbeddedFiles: true,
    });
  });

  it("flags JavaScript on a link that the document's own actions do not list, even spelled with escapes", async () => {
    // A link annotation's action: pdfjs's document-level JavaScript leaves it out, the byte scan finds it.
    const pdf = validPdf()
      .toString("latin1")
      .replace(
        "/Contents 5 0 R",
        "/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /J#61vaScript /J#53 (print\\(\\)) >> >>] /Contents 5 0 R",
      );
    const inspection = await inspectPdf(save(Buffer.from(pdf, "latin1")));
    expect(inspection).toMatchObject({ ok: true, hasJavaScript: true, hasEmbeddedFiles: false });
  });

  it("does not flag names that merely begin like the flagged ones", async () => {
    const pdf = validPdf()
      .toString("latin1")
      .replace("/Type /Catalog", "/Type /Catalog /JSON (x) /EmbeddedFileCount 0");
    const inspection = await inspectPdf(save(Buffer.from(pdf, "latin1")));
    expect(inspection).toEqual({
      ok: true,
      pageCount: 1,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
    });
  });

  it("opens a PDF carrying the EICAR test string as an ordinary PDF", async () => {
    const bytes = eicarPdf();
    expect(bytes.includes(EICAR, 0, "latin1")).toBe(true);
    expect(await inspectPdf(save(bytes))).toEqual({
      ok: true,
      pageCount: 1,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
    });
  });

  it("inspects a 30 MB PDF", async () => {
    const file = path.join(dir, "large.pdf");
    await writeLargePdf(file, 30 * 1024 * 1024);
    expect(fs.statSync(file).size).toBe(30 * 1024 * 1024);
    expect(await inspectPdf(file)).toEqual({
      ok: true,
      pageCount: 1,
      hasJavaScript: false,
      hasEmbeddedFiles: false,
    });
  });

  it("calls a large PDF corrupt when reading it would mean rebuilding its cross-references from every byte", async () => {
    const file = path.join(dir, "large-broken.pdf");
    await writeLargePdf(file, 30 * 1024 * 1024);
    // Point startxref at the start of the file: pdfjs falls back to reading all of it.
    const handle = await fs.promises.open(file, "r+");
    const { size } = await handle.stat();
    const tail = Buffer.alloc(64);
    await handle.read(tail, 0, 64, size - 64);
    const text = tail.toString("latin1");
    const at = text.lastIndexOf("startxref\n") + "startxref\n".length;
    const digits = text.slice(at).indexOf("\n");
    await handle.write("1".padStart(digits, "0"), size - 64 + at, "latin1");
    await handle.close();
    expect(await inspectPdf(file)).toEqual({ ok: false, problem: "corrupt" });
  });
});
