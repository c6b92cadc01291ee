import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

/**
 * Files for the upload tests, made by code so nothing binary is committed: PDFs written object by
 * object with a correct cross-reference table, an encrypted one that follows the PDF spec's
 * Standard security handler, a real PNG, and the EICAR test string that every virus scanner
 * recognises.
 */

// Kept in two halves so no scanner on a developer's machine quarantines this source file; the
// joined string is the standard 68-byte EICAR test file.
export const EICAR: string =
  "X5O!P%@AP[4\\PZX54(P^)7CC)7}$" + "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

type Part = string | Buffer;

const latin1 = (part: Part) => (typeof part === "string" ? Buffer.from(part, "latin1") : part);

/** A binary comment after the header tells transfer tools that the file is not text. */
const HEADER = Buffer.concat([
  Buffer.from("%PDF-1.7\n%", "latin1"),
  Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]),
  Buffer.from("\n"),
]);

function streamObject(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    latin1(`<< ${dictionary ? `${dictionary} ` : ""}/Length ${data.length} >>\nstream\n`),
    data,
    latin1("\nendstream"),
  ]);
}

function xrefAndTrailer(offsets: number[], xrefOffset: number, trailer: string): Buffer {
  const lines = [`xref\n0 ${offsets.length + 1}\n`, "0000000000 65535 f \n"];
  for (const offset of offsets) lines.push(`${String(offset).padStart(10, "0")} 00000 n \n`);
  lines.push(
    `trailer\n<< /Size ${offsets.length + 1} ${trailer} >>\nstartxref\n${xrefOffset}\n%%EOF\n`,
  );
  return latin1(lines.join(""));
}

/** Objects are numbered from 1 in the order given. */
function assemble(objects: Part[], trailer: string): Buffer {
  const parts: Buffer[] = [HEADER];
  const offsets: number[] = [];
  let length = HEADER.length;
  objects.forEach((body, index) => {
    const bytes = Buffer.concat([
      latin1(`${index + 1} 0 obj\n`),
      latin1(body),
      latin1("\nendobj\n"),
    ]);
    offsets.push(length);
    parts.push(bytes);
    length += bytes.length;
  });
  parts.push(xrefAndTrailer(offsets, length, trailer));
  return Buffer.concat(parts);
}

const pageContent = (page: number, pages: number) =>
  latin1(`BT /F1 24 Tf 72 720 Td (Thesis page ${page} of ${pages}) Tj ET`);

interface DocumentPlan {
  pages: number;
  javaScript: boolean;
  embeddedFile: boolean;
  /** Put at the top of the first page's content stream, as a comment line. */
  firstPageComment?: string;
}

/** The objects of a small document: catalog 1, page tree 2, font 3, then pages and extras. */
function documentObjects(plan: DocumentPlan): Part[] {
  const objects: Part[] = [];
  const catalogExtras: string[] = [];
  const names: string[] = [];
  const kids: string[] = [];
  objects.push("", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (let page = 1; page <= plan.pages; page++) {
    const pageNumber = objects.length + 1;
    kids.push(`${pageNumber} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageNumber + 1} 0 R >>`,
    );
    let content = pageContent(page, plan.pages);
    if (page === 1 && plan.firstPageComment !== undefined) {
      content = Buffer.concat([latin1(`% ${plan.firstPageComment}\n`), content]);
    }
    objects.push(streamObject("", content));
  }
  if (plan.javaScript) {
    const action = objects.length + 1;
    objects.push(
      "<< /Type /Action /S /JavaScript /JS (app.alert\\('Hello from the thesis'\\);) >>",
    );
    catalogExtras.push(`/OpenAction ${action} 0 R`);
    names.push(`/JavaScript << /Names [(greeting) ${action} 0 R] >>`);
  }
  if (plan.embeddedFile) {
    const data = objects.length + 1;
    objects.push(
      streamObject(
        "/Type /EmbeddedFile /Subtype /text#2Fplain",
        latin1("Raw data for chapter 3.\n"),
      ),
    );
    const spec = objects.length + 1;
    objects.push(`<< /Type /Filespec /F (data.txt) /UF (data.txt) /EF << /F ${data} 0 R >> >>`);
    names.push(`/EmbeddedFiles << /Names [(data.txt) ${spec} 0 R] >>`);
  }
  if (names.length > 0) catalogExtras.push(`/Names << ${names.join(" ")} >>`);
  objects[0] = `<< /Type /Catalog /Pages 2 0 R${catalogExtras.map((e) => ` ${e}`).join("")} >>`;
  objects[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${plan.pages} >>`;
  return objects;
}

const fileId = (seed: string) => createHash("md5").update(seed).digest();

/** A well-formed PDF with text on each page; optionally an open action in JavaScript and an attachment. */
export function validPdf(
  options: { pages?: number; javaScript?: boolean; embeddedFile?: boolean } = {},
): Buffer {
  const plan: DocumentPlan = {
    pages: options.pages ?? 1,
    javaScript: options.javaScript ?? false,
    embeddedFile: options.embeddedFile ?? false,
  };
  if (!Number.isInteger(plan.pages) || plan.pages < 1)
    throw new Error("validPdf: pages must be a whole number from 1");
  const id = fileId(`valid ${JSON.stringify(plan)}`).toString("hex");
  return assemble(documentObjects(plan), `/Root 1 0 R /ID [<${id}> <${id}>]`);
}

/** A valid one-page PDF whose (uncompressed) content stream carries the EICAR test string. */
export function eicarPdf(): Buffer {
  const plan: DocumentPlan = {
    pages: 1,
    javaScript: false,
    embeddedFile: false,
    firstPageComment: EICAR,
  };
  return assemble(documentObjects(plan), "/Root 1 0 R");
}

/** A three-page PDF cut off partway, as an interrupted upload leaves it: no xref, no %%EOF. */
export function truncatedPdf(): Buffer {
  const whole = validPdf({ pages: 3 });
  return whole.subarray(0, Math.floor(whole.length * 0.55));
}

// ---------------------------------------------------------------------------------------------
// Encryption: the Standard security handler, revision 3 (RC4, 128-bit key), PDF 1.7 section 7.6.3.

/** The user password of encryptedPdf(): a reader must ask for it before showing anything. */
export const ENCRYPTED_PDF_USER_PASSWORD = "reader-secret";
const ENCRYPTED_PDF_OWNER_PASSWORD = "owner-secret";

const PASSWORD_PADDING = Buffer.from(
  "28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A",
  "hex",
);

/** RC4 written out because OpenSSL 3 no longer offers it by default. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const md5 = (...parts: Buffer[]) => {
  const hash = createHash("md5");
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const padPassword = (password: string) =>
  Buffer.concat([Buffer.from(password, "latin1"), PASSWORD_PADDING]).subarray(0, 32);

/** Revision 3 applies RC4 twenty times, with the key XORed by 0..19. */
function rc4Rounds(key: Buffer, data: Buffer): Buffer {
  let out = data;
  for (let round = 0; round < 20; round++) {
    out = rc4(Buffer.from(key.map((byte) => byte ^ round)), out);
  }
  return out;
}

const KEY_LENGTH = 16;

function repeatedMd5(seed: Buffer): Buffer {
  let hash = seed;
  for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, KEY_LENGTH));
  return hash.subarray(0, KEY_LENGTH);
}

/** Algorithm 3: the O entry. */
function ownerEntry(ownerPassword: string, userPassword: string): Buffer {
  const key = repeatedMd5(md5(padPassword(ownerPassword)));
  return rc4Rounds(key, padPassword(userPassword));
}

/** Algorithm 2: the file key from the user password. */
function fileKey(userPassword: string, owner: Buffer, permissions: number, id: Buffer): Buffer {
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  return repeatedMd5(md5(padPassword(userPassword), owner, p, id));
}

/** Algorithm 5: the U entry, 16 bytes that prove the key, padded to 32. */
function userEntry(key: Buffer, id: Buffer): Buffer {
  return Buffer.concat([rc4Rounds(key, md5(PASSWORD_PADDING, id)), Buffer.alloc(16)]);
}

/** Algorithm 1: each object's strings and streams use a key derived from its number. */
function objectKey(key: Buffer, objectNumber: number): Buffer {
  const suffix = Buffer.from([
    objectNumber & 0xff,
    (objectNumber >> 8) & 0xff,
    (objectNumber >> 16) & 0xff,
    0,
    0,
  ]);
  return md5(key, suffix).subarray(0, Math.min(KEY_LENGTH + 5, 16));
}

/**
 * A one-page PDF encrypted with the Standard security handler and a non-empty user password
 * (ENCRYPTED_PDF_USER_PASSWORD), so a reader cannot open it without asking.
 */
export function encryptedPdf(): Buffer {
  const id = fileId("encrypted thesis");
  // Printing and copying allowed; the bits above 12 are set as the spec asks for revision 3.
  const permissions = -3904;
  const owner = ownerEntry(ENCRYPTED_PDF_OWNER_PASSWORD, ENCRYPTED_PDF_USER_PASSWORD);
  const key = fileKey(ENCRYPTED_PDF_USER_PASSWORD, owner, permissions, id);
  const user = userEntry(key, id);
  const contentObject = 5;
  const objects: Part[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
    streamObject(
      "",
      rc4(
        objectKey(key, contentObject),
        latin1("BT /F1 24 Tf 72 720 Td (Confidential thesis) Tj ET"),
      ),
    ),
    `<< /Filter /Standard /V 2 /R 3 /Length 128 /P ${permissions} /O <${owner.toString("hex")}> /U <${user.toString("hex")}> >>`,
  ];
  return assemble(
    objects,
    `/Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString("hex")}> <${id.toString("hex")}>]`,
  );
}

// ---------------------------------------------------------------------------------------------
// PNG

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/** A real 8 x 8 RGB PNG (signature, IHDR, IDAT, IEND), as a photo renamed "thesis.pdf" would be. */
export function pngRenamedAsPdf(): Buffer {
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) row.set([x * 32, y * 32, 128], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// A large PDF, streamed

const PADDING_LINE = "% padding that stands in for the figures of a long thesis ................\n";

/**
 * Writes a valid one-page PDF of about `bytes` bytes (never less than its small skeleton): the
 * page's second content stream is comment lines, written in 1 MB pieces so the file is never
 * held in memory.
 */
export async function writeLargePdf(file: string, bytes: number): Promise<void> {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents [5 0 R 6 0 R] >>",
  ].map((body) => latin1(body));
  objects.push(streamObject("", pageContent(1, 1)));

  const offsets: number[] = [];
  let prefixLength = HEADER.length;
  const prefix: Buffer[] = [HEADER];
  objects.forEach((body, index) => {
    const bytesOfObject = Buffer.concat([
      latin1(`${index + 1} 0 obj\n`),
      body,
      latin1("\nendobj\n"),
    ]);
    offsets.push(prefixLength);
    prefix.push(bytesOfObject);
    prefixLength += bytesOfObject.length;
  });
  offsets.push(prefixLength);

  const paddingHead = (length: number) => latin1(`6 0 obj\n<< /Length ${length} >>\nstream\n`);
  const paddingTail = latin1("\nendstream\nendobj\n");
  const trailerFor = (length: number) =>
    xrefAndTrailer(
      offsets,
      prefixLength + paddingHead(length).length + length + paddingTail.length,
      "/Root 1 0 R",
    );
  // The digits of the length change the overhead, so settle it in two passes.
  let padding = 0;
  for (let pass = 0; pass < 2; pass++) {
    const overhead =
      prefixLength + paddingHead(padding).length + paddingTail.length + trailerFor(padding).length;
    padding = Math.max(0, Math.floor(bytes) - overhead);
  }

  async function* parts() {
    yield* prefix;
    yield paddingHead(padding);
    const piece = Buffer.alloc(1024 * 1024);
    piece.fill(PADDING_LINE, "latin1");
    for (let left = padding; left > 0; left -= piece.length) {
      yield left >= piece.length ? piece : piece.subarray(0, left);
    }
    yield paddingTail;
    yield trailerFor(padding);
  }
  await pipeline(parts(), fs.createWriteStream(file));
}
