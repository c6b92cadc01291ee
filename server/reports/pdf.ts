import PDFDocument from "pdfkit";
import { layoutBars, type ChartData } from "../../common/report-charts.js";
import { tableChartData, type ReportTable } from "../../common/report-tables.js";

/**
 * The dean's report as a PDF, drawn with pdfkit (pure JavaScript, ADR 024): a cover with the
 * period, the programme and the headline figures; then each figure's chart, drawn as vector paths
 * from the same geometry as the Reports page (common/report-charts.ts), with its table under it;
 * last, the examinations late today. The standard Helvetica fonts need no font files.
 */

export interface DeanReportContent {
  /** The programme the report is about, or null for every programme. */
  programme: string | null;
  /** The period's first and last month (YYYY-MM), both included. */
  period: { from: string; to: string };
  /** The cohort (year the records were created), when the report is limited to one. */
  cohort: number | null;
  generatedAt: Date;
  headline: readonly { label: string; value: string }[];
  tables: readonly ReportTable[];
  /** The examinations late today (a table of its own, printed last). */
  late: ReportTable;
}

const PAGE = { size: "A4" as const, margin: 50 };
const INK = "#1a1a1a";
const MUTED = "#4d4d4d";
const RULE = "#8c8c8c";
/** Series colours, dark enough for 3:1 against white, told apart by shade as well as hue. */
const SERIES = ["#1f4e79", "#c55a11", "#548235", "#7030a0"];
/** Charts longer than this print their first rows and say so; the table holds them all. */
const MAX_CHART_ROWS = 30;

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

const monthFormat = new Intl.DateTimeFormat("en-GB", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** A period's end as words: a month (YYYY-MM) as "September 2025", a date with its day. */
export function formatPeriodDate(iso: string): string {
  const month = /^\d{4}-\d{2}$/.test(iso);
  const date = new Date(month ? `${iso}-01T00:00:00Z` : `${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return (month ? monthFormat : dateFormat).format(date);
}

export function periodText(period: { from: string; to: string }): string {
  return `${formatPeriodDate(period.from)} to ${formatPeriodDate(period.to)}`;
}

/**
 * Characters the standard fonts can show (Windows-1252, which pdfkit uses for them): others are
 * written without their accents when they have a plain letter under them, otherwise as "?", so a
 * name in another script never turns into wrong letters.
 */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
export function printable(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += char;
    else if (WIN_ANSI_EXTRA.has(char)) out += char;
    else if (char === "\n" || char === "\t") out += " ";
    else {
      const base = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += /^[\x20-\x7e]+$/.test(base) ? base : "?";
    }
  }
  return out;
}

function cellText(value: string | number | null): string {
  if (value === null) return "-";
  return typeof value === "number" ? value.toLocaleString("en-GB") : printable(value);
}

/** The report as a PDF document (a readable stream of its bytes; it ends by itself). */
export function renderDeanPdf(content: DeanReportContent): PDFKit.PDFDocument {
  const programme = content.programme === null ? "All programmes" : content.programme;
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    lang: "en-GB",
    displayTitle: true,
    bufferPages: true,
    info: {
      Title: printable(`Dean's report: ${programme}, ${periodText(content.period)}`),
      Author: "ETS Tracking",
      Subject: "Thesis examinations: stage times, examiner turnaround, outcomes, throughput",
      CreationDate: content.generatedAt,
    },
  });
  drawCover(doc, content, programme);
  for (const table of content.tables) drawSection(doc, table);
  drawSection(doc, content.late);
  numberPages(doc, programme, content.period);
  doc.end();
  return doc;
}

const contentWidth = (doc: PDFKit.PDFDocument) =>
  doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottom = (doc: PDFKit.PDFDocument) => doc.page.height - doc.page.margins.bottom;

function drawCover(doc: PDFKit.PDFDocument, content: DeanReportContent, programme: string): void {
  const left = doc.page.margins.left;
  doc.fillColor(MUTED).font("Helvetica").fontSize(11).text("ETS Tracking", left, 90);
  doc.moveDown(0.5);
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(26).text("Dean's report");
  doc.font("Helvetica").fontSize(14).text("Thesis examinations");
  doc.moveDown(1.5);
  const facts: [string, string][] = [
    ["Programme", printable(programme)],
    ["Period", periodText(content.period)],
  ];
  if (content.cohort !== null) facts.push(["Cohort", `Records created in ${content.cohort}`]);
  facts.push(["Made on", dateFormat.format(content.generatedAt)]);
  for (const [label, value] of facts) {
    doc.font("Helvetica-Bold").fontSize(11).fillColor(MUTED).text(label);
    doc.font("Helvetica").fontSize(13).fillColor(INK).text(value);
    doc.moveDown(0.6);
  }
  doc.moveDown(1);
  doc.font("Helvetica-Bold").fontSize(15).fillColor(INK).text("Headline figures");
  doc.moveDown(0.6);
  const columns = 2;
  const boxWidth = (contentWidth(doc) - 16) / columns;
  const boxHeight = 64;
  const top = doc.y;
  content.headline.forEach((figure, index) => {
    const x = left + (index % columns) * (boxWidth + 16);
    const y = top + Math.floor(index / columns) * (boxHeight + 12);
    doc.lineWidth(0.75).strokeColor(RULE).rect(x, y, boxWidth, boxHeight).stroke();
    doc
      .font("Helvetica-Bold")
      .fontSize(20)
      .fillColor(INK)
      .text(printable(figure.value), x + 10, y + 10, { width: boxWidth - 20, lineBreak: false });
    doc
      .font("Helvetica")
      .fontSize(10)
      .fillColor(MUTED)
      .text(printable(figure.label), x + 10, y + 38, { width: boxWidth - 20, height: 24 });
  });
  doc.x = left;
  doc.y = top + Math.ceil(content.headline.length / columns) * (boxHeight + 12);
}

function drawSection(doc: PDFKit.PDFDocument, table: ReportTable): void {
  doc.addPage();
  const left = doc.page.margins.left;
  doc.x = left;
  doc.font("Helvetica-Bold").fontSize(15).fillColor(INK).text(printable(table.title));
  doc.moveDown(0.5);
  if (table.note) {
    doc.font("Helvetica").fontSize(9.5).fillColor(MUTED).text(printable(table.note));
    doc.moveDown(0.5);
  }
  const data = tableChartData(table);
  if (data && table.chart && table.rows.length > 0) {
    const shown: ChartData =
      table.rows.length > MAX_CHART_ROWS
        ? {
            categories: data.categories.slice(0, MAX_CHART_ROWS),
            series: data.series.map((s) => ({ ...s, values: s.values.slice(0, MAX_CHART_ROWS) })),
          }
        : data;
    drawChart(doc, shown, table.chart.unit);
    if (shown !== data) {
      doc
        .font("Helvetica")
        .fontSize(9)
        .fillColor(MUTED)
        .text(`The chart shows the first ${MAX_CHART_ROWS} rows; the table below has all of them.`);
    }
    doc.moveDown(0.8);
  }
  drawTable(doc, table);
}

/** Horizontal bars as filled rectangle paths, with an axis, ticks and a legend. */
function drawChart(doc: PDFKit.PDFDocument, data: ChartData, unit: string): void {
  const left = doc.page.margins.left;
  const layout = layoutBars(data, {
    width: contentWidth(doc),
    labelWidth: 150,
    barHeight: data.series.length > 1 ? 7 : 11,
    gap: 7,
  });
  const legendHeight = data.series.length > 1 ? 16 : 0;
  if (doc.y + layout.height + legendHeight + 14 > bottom(doc)) doc.addPage();
  const top = doc.y;
  doc.save();
  doc.translate(left, top);
  doc.lineWidth(0.5).strokeColor("#d0d0d0");
  for (const tick of layout.ticks) {
    doc
      .moveTo(tick.x, layout.plot.y)
      .lineTo(tick.x, layout.plot.y + layout.plot.height)
      .stroke();
  }
  for (const bar of layout.bars) {
    doc
      .rect(bar.x, bar.y, Math.max(bar.width, 0.5), bar.height)
      .fill(SERIES[bar.series % SERIES.length] ?? INK);
  }
  doc.lineWidth(0.75).strokeColor(INK);
  doc
    .moveTo(layout.plot.x, layout.plot.y)
    .lineTo(layout.plot.x, layout.plot.y + layout.plot.height)
    .lineTo(layout.plot.x + layout.plot.width, layout.plot.y + layout.plot.height)
    .stroke();
  doc.font("Helvetica").fontSize(8).fillColor(INK);
  for (const label of layout.labels) {
    doc.text(printable(label.text), 0, label.y - 4, {
      width: layout.plot.x - 6,
      align: "right",
      lineBreak: false,
      ellipsis: true,
    });
  }
  doc.fillColor(MUTED);
  for (const tick of layout.ticks) {
    doc.text(String(tick.value), tick.x - 20, layout.plot.y + layout.plot.height + 4, {
      width: 40,
      align: "center",
      lineBreak: false,
    });
  }
  doc.text(unit, layout.plot.x + layout.plot.width - 80, layout.height - 2, {
    width: 80,
    align: "right",
    lineBreak: false,
  });
  if (legendHeight > 0) {
    let x = layout.plot.x;
    const y = layout.height + 6;
    data.series.forEach((s, index) => {
      doc.rect(x, y, 9, 9).fill(SERIES[index % SERIES.length] ?? INK);
      doc.fillColor(INK).text(printable(s.name), x + 13, y + 1, { lineBreak: false });
      x += 13 + doc.widthOfString(printable(s.name)) + 18;
    });
  }
  doc.restore();
  doc.x = left;
  doc.y = top + layout.height + legendHeight + 10;
}

const NUMBER_WIDTH = 52;
const CELL_PAD = 3;
const TABLE_FONT = 8;

/** Column widths: numbers a fixed width, text columns share the rest. */
function columnWidths(doc: PDFKit.PDFDocument, table: ReportTable): number[] {
  const numbers = table.columns.filter((c) => c.numeric).length;
  const texts = table.columns.length - numbers;
  const textWidth = texts === 0 ? 0 : (contentWidth(doc) - numbers * NUMBER_WIDTH) / texts;
  return table.columns.map((c) => (c.numeric ? NUMBER_WIDTH : textWidth));
}

/**
 * A table drawn cell by cell (pdfkit's own table was some ten times slower on the late list's
 * hundreds of rows): a shaded header row repeated on each page, text that wraps within its
 * column, numbers right-aligned, a rule under every row.
 */
function drawTable(doc: PDFKit.PDFDocument, table: ReportTable): void {
  const left = doc.page.margins.left;
  doc.x = left;
  if (table.rows.length === 0) {
    doc.font("Helvetica").fontSize(10).fillColor(INK).text("No records for this selection.");
    return;
  }
  const widths = columnWidths(doc, table);
  const width = widths.reduce((sum, w) => sum + w, 0);
  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(TABLE_FONT);
    // One line unless a cell is wider than its column (measuring a width is far cheaper than
    // wrapping, and most cells fit).
    let tallest = doc.currentLineHeight(true);
    cells.forEach((text, index) => {
      const inner = (widths[index] ?? NUMBER_WIDTH) - 2 * CELL_PAD;
      if (doc.widthOfString(text) > inner) {
        tallest = Math.max(tallest, doc.heightOfString(text, { width: inner }));
      }
    });
    return tallest + 2 * CELL_PAD;
  };
  const drawRow = (cells: string[], y: number, height: number, header: boolean) => {
    if (header) doc.rect(left, y, width, height).fill("#eeeeee");
    doc
      .font(header ? "Helvetica-Bold" : "Helvetica")
      .fontSize(TABLE_FONT)
      .fillColor(INK);
    let x = left;
    cells.forEach((text, index) => {
      const w = widths[index] ?? NUMBER_WIDTH;
      const inner = w - 2 * CELL_PAD;
      const fits = doc.widthOfString(text) <= inner;
      if (fits && !table.columns[index]?.numeric) {
        // A plain placement: no wrapping to work out.
        doc.text(text, x + CELL_PAD, y + CELL_PAD, { lineBreak: false });
      } else if (fits) {
        doc.text(text, x + w - CELL_PAD - doc.widthOfString(text), y + CELL_PAD, {
          lineBreak: false,
        });
      } else {
        doc.text(text, x + CELL_PAD, y + CELL_PAD, { width: inner });
      }
      x += w;
    });
    doc
      .lineWidth(0.5)
      .strokeColor("#b0b0b0")
      .moveTo(left, y + height)
      .lineTo(left + width, y + height)
      .stroke();
  };
  const header = table.columns.map((c) => printable(c.label));
  const headerHeight = rowHeight(header, "Helvetica-Bold");
  let y = doc.y;
  if (y + headerHeight + 20 > bottom(doc)) {
    doc.addPage();
    y = doc.y;
  }
  drawRow(header, y, headerHeight, true);
  y += headerHeight;
  for (const row of table.rows) {
    const cells = row.map(cellText);
    const height = rowHeight(cells, "Helvetica");
    if (y + height > bottom(doc)) {
      doc.addPage();
      y = doc.y;
      drawRow(header, y, headerHeight, true);
      y += headerHeight;
    }
    drawRow(cells, y, height, false);
    y += height;
  }
  doc.x = left;
  doc.y = y + 6;
}

/** "Page n of m" and the report's subject in every page's footer, cover included. */
function numberPages(
  doc: PDFKit.PDFDocument,
  programme: string,
  period: { from: string; to: string },
): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const y = doc.page.height - doc.page.margins.bottom + 16;
    // Writing below the bottom margin would otherwise start a new page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        printable(
          `Dean's report, ${programme}, ${periodText(period)}. Page ${index + 1} of ${range.count}`,
        ),
        doc.page.margins.left,
        y,
        { width: contentWidth(doc), align: "center", lineBreak: false },
      );
    doc.page.margins.bottom = margin;
  }
}
