import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import {
  EICAR,
  ENCRYPTED_PDF_USER_PASSWORD,
  eicarPdf,
  encryptedPdf,
  pngRenamedAsPdf,
  truncatedPdf,
  validPdf,
  writeLargePdf,
} from "./pdf-fixtures.js";

/** The fixtures must be what they claim, checked by a reader that did not write them. */

async function openWithPdfjs(bytes: Buffer, password?: string) {
  const task = getDocument({
    data: new Uint8Array(bytes),
    password,
    isEvalSupported: false,
    verbosity: 0,
    disableFontFace: true,
    useSystemFonts: false,
  });
  try {
    const document = await task.promise;
    const page = await document.getPage(document.numPages);
    const text = await page.getTextContent();
    return {
      pages: document.numPages,
      text: text.items.map((item) => ("str" in item ? item.str : "")).join(""),
    };
  } finally {
    await task.destroy();
  }
}

async function openingError(bytes: Buffer, password?: string) {
  try {
    await openWithPdfjs(bytes, password);
    return null;
  } catch (error) {
    return error as { name?: string; code?: number };
  }
}

/** pdfjs repairs a wrong cross-reference table silently, so check that each entry lands on its object. */
function expectCrossReferencesToHold(bytes: Buffer) {
  const text = bytes.toString("latin1");
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.startsWith("xref\n", startxref)).toBe(true);
  const entries = text.slice(startxref).split("\n").slice(3);
  const count = Number(/^xref\n0 (\d+)\n/.exec(text.slice(startxref))?.[1]);
  for (let object = 1; object < count; object++) {
    const offset = Number(entries[object - 1]?.slice(0, 10));
    expect(text.startsWith(`${object} 0 obj\n`, offset)).toBe(true);
  }
  return count - 1;
}

describe("PDF fixtures", () => {
  it("validPdf has the pages asked for, with their text and a correct cross-reference table", async () => {
    const bytes = validPdf({ pages: 3, javaScript: true, embeddedFile: true });
    expect(expectCrossReferencesToHold(bytes)).toBe(12);
    expect(await openWithPdfjs(bytes)).toEqual({ pages: 3, text: "Thesis page 3 of 3" });
    expectCrossReferencesToHold(encryptedPdf());
    expectCrossReferencesToHold(eicarPdf());
  });

  it("encryptedPdf needs its user password, opens with it and refuses a wrong one", async () => {
    const bytes = encryptedPdf();
    // pdfjs's PasswordResponses: 1 = a password is needed, 2 = the password given is wrong.
    expect(await openingError(bytes)).toMatchObject({ name: "PasswordException", code: 1 });
    expect(await openingError(bytes, "guess")).toMatchObject({
      name: "PasswordException",
      code: 2,
    });
    expect(await openWithPdfjs(bytes, ENCRYPTED_PDF_USER_PASSWORD)).toEqual({
      pages: 1,
      text: "Confidential thesis",
    });
    // The content is really encrypted, not merely marked so.
    expect(bytes.includes("Confidential thesis", 0, "latin1")).toBe(false);
  });

  it("truncatedPdf starts as a PDF but has lost its end", () => {
    const bytes = truncatedPdf();
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.includes("%%EOF", 0, "latin1")).toBe(false);
    expect(bytes.includes("startxref", 0, "latin1")).toBe(false);
  });

  it("pngRenamedAsPdf is a real PNG: signature, chunks with good CRCs, pixels that inflate", () => {
    const bytes = pngRenamedAsPdf();
    expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    const types: string[] = [];
    let idat = Buffer.alloc(0);
    for (let at = 8; at < bytes.length; ) {
      const length = bytes.readUInt32BE(at);
      const typeAndData = bytes.subarray(at + 4, at + 8 + length);
      expect(bytes.readUInt32BE(at + 8 + length)).toBe(zlib.crc32(typeAndData) >>> 0);
      const type = typeAndData.subarray(0, 4).toString("latin1");
      types.push(type);
      if (type === "IDAT") idat = Buffer.concat([idat, typeAndData.subarray(4)]);
      at += 12 + length;
    }
    expect(types).toEqual(["IHDR", "IDAT", "IEND"]);
    // 8 rows of a filter byte and 8 RGB pixels.
    expect(zlib.inflateSync(idat).length).toBe(8 * (1 + 8 * 3));
  });

  it("eicarPdf is a valid PDF that holds the 68-byte EICAR string", async () => {
    expect(EICAR).toHaveLength(68);
    expect(EICAR.startsWith("X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD")).toBe(true);
    const bytes = eicarPdf();
    expect(bytes.includes(EICAR, 0, "latin1")).toBe(true);
    expect(await openWithPdfjs(bytes)).toEqual({ pages: 1, text: "Thesis page 1 of 1" });
  });

  it("writeLargePdf writes a readable PDF of the size asked for", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-fixtures-"));
    try {
      const file = path.join(dir, "large.pdf");
      await writeLargePdf(file, 3_000_000);
      const bytes = fs.readFileSync(file);
      expect(bytes.length).toBe(3_000_000);
      expect(expectCrossReferencesToHold(bytes)).toBe(6);
      expect(await openWithPdfjs(bytes)).toEqual({ pages: 1, text: "Thesis page 1 of 1" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
