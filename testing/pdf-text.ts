import { createRequire } from "node:module";
import path from "node:path";
import type { TextItem } from "pdfjs-dist/types/src/display/api.js";

/**
 * A PDF read back with pdf.js, as a reader would: each page's text (its text items joined by
 * spaces, whitespace runs made one space) and what each page draws: vector paths and images.
 * For the Reports tests (the dean's PDF) and the browser test that downloads it.
 */
const STANDARD_FONTS = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts",
)}/`;

export interface PdfReadBack {
  pageCount: number;
  pages: string[];
  /** All pages' text, joined by spaces. */
  text: string;
  /** Per page: path-construction operators (lines, rectangles) and image paints. */
  drawing: { paths: number; images: number }[];
  title: string | null;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfReadBack> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    // The standard fonts' metrics, for drawing (getOperatorList); pdf.js warns without them.
    standardFontDataUrl: STANDARD_FONTS,
  });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    const drawing: { paths: number; images: number }[] = [];
    const imageOps = new Set<number>([
      pdfjs.OPS.paintImageXObject,
      pdfjs.OPS.paintInlineImageXObject,
      pdfjs.OPS.paintImageMaskXObject,
      pdfjs.OPS.paintImageXObjectRepeat,
    ]);
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ("str" in item ? (item as TextItem).str : ""))
          .join(" ")
          .replace(/\s+/g, " ")
          .trim(),
      );
      const ops = await page.getOperatorList();
      drawing.push({
        paths: ops.fnArray.filter((fn) => fn === pdfjs.OPS.constructPath).length,
        images: ops.fnArray.filter((fn) => imageOps.has(fn)).length,
      });
    }
    const meta = await doc.getMetadata();
    const info = meta.info as { Title?: unknown };
    return {
      pageCount: doc.numPages,
      pages,
      text: pages.join(" "),
      drawing,
      title: typeof info.Title === "string" ? info.Title : null,
    };
  } finally {
    await task.destroy();
  }
}
