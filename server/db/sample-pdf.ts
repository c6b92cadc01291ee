/**
 * The sample data's PDFs: small, valid, text-only documents made by code (nothing binary is
 * committed), the same bytes every time for the same words, so each sample upload has a stable
 * key in the file store. They pass the product's own PDF checks (server/files/pdf.ts), which the
 * sample data's test runs on each of them.
 */

/** Text the PDF's literal strings can hold: printable ASCII, with ( ) \ escaped. */
function pdfText(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, "?");
  return ascii.replace(/[\\()]/g, (c) => `\\${c}`);
}

function pageContent(lines: readonly string[], page: number, pages: number): Buffer {
  const shown = [...lines, "", `Page ${page} of ${pages}`];
  const body = shown
    .map(
      (line, i) => `BT /F1 ${i === 0 ? 18 : 12} Tf 72 ${720 - i * 24} Td (${pdfText(line)}) Tj ET`,
    )
    .join("\n");
  return Buffer.from(body, "latin1");
}

/**
 * A PDF of `pages` pages, each showing `lines` (the first as a heading) and its page number.
 * Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page.
 */
export function samplePdf(lines: readonly string[], pages: number): Buffer {
  if (!Number.isInteger(pages) || pages < 1) throw new Error("samplePdf: pages must be 1 or more");
  const objects: Buffer[] = [];
  const kids: string[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const pageObject = 4 + (page - 1) * 2;
    kids.push(`${pageObject} 0 R`);
    const content = pageContent(lines, page, pages);
    objects[pageObject - 1] = Buffer.from(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObject + 1} 0 R >>`,
      "latin1",
    );
    objects[pageObject] = Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`, "latin1"),
      content,
      Buffer.from("\nendstream", "latin1"),
    ]);
  }
  objects[0] = Buffer.from("<< /Type /Catalog /Pages 2 0 R >>", "latin1");
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`,
    "latin1",
  );
  objects[2] = Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", "latin1");

  const header = Buffer.from("%PDF-1.7\n", "latin1");
  const parts: Buffer[] = [header];
  const offsets: number[] = [];
  let length = header.length;
  objects.forEach((body, index) => {
    const bytes = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, "latin1"),
      body,
      Buffer.from("\nendobj\n", "latin1"),
    ]);
    offsets.push(length);
    parts.push(bytes);
    length += bytes.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, "0000000000 65535 f \n"];
  for (const offset of offsets) xref.push(`${String(offset).padStart(10, "0")} 00000 n \n`);
  xref.push(
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
  );
  parts.push(Buffer.from(xref.join(""), "latin1"));
  return Buffer.concat(parts);
}
