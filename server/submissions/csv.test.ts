import { describe, expect, it } from "vitest";
import { CsvParser, CsvSyntaxError, csvLine, parseCsv, protectCell, unprotectCell } from "./csv.js";

describe("parseCsv", () => {
  it("splits records and fields, with CRLF, LF or CR line ends", () => {
    expect(parseCsv("a,b\r\nc,d\ne,f\rg,h")).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
      ["g", "h"],
    ]);
  });

  it("reads quoted fields holding commas, doubled quotes and line breaks", () => {
    expect(parseCsv('"Mensah, Abena","She said ""yes""","two\r\nlines"\r\n')).toEqual([
      ["Mensah, Abena", 'She said "yes"', "two\r\nlines"],
    ]);
  });

  it("skips a UTF-8 byte-order mark and keeps other text as it is", () => {
    expect(parseCsv("\uFEFFStudentName\r\nAdjoa Ɛsi")).toEqual([["StudentName"], ["Adjoa Ɛsi"]]);
  });

  it("keeps empty fields and empty lines, but adds no record for a final line break", () => {
    expect(parseCsv("a,,c\r\n\r\n,\r\n")).toEqual([["a", "", "c"], [""], ["", ""]]);
    expect(parseCsv("")).toEqual([]);
  });

  it("takes a quote inside an unquoted field literally", () => {
    expect(parseCsv('5" disk,x')).toEqual([['5" disk', "x"]]);
  });

  it("names the row of an unterminated or malformed quoted field", () => {
    expect(() => parseCsv('a\r\n"open,b')).toThrow(CsvSyntaxError);
    const thrown = (() => {
      try {
        parseCsv('a\r\nb\r\n"x"y,z');
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(CsvSyntaxError);
    expect((thrown as CsvSyntaxError).row).toBe(3);
  });
});

describe("writing CSV", () => {
  it("quotes only the fields that need it and ends records with CRLF", () => {
    expect(csvLine(["plain", "a,b", 'q"q', "line\nbreak", null, 7])).toBe(
      'plain,"a,b","q""q","line\nbreak",,7\r\n',
    );
  });

  it("round-trips through the parser", () => {
    const rows = [
      ["x", 'y "z"', "1,2"],
      ["", "multi\r\nline", "ok"],
    ];
    expect(parseCsv(rows.map((r) => csvLine(r)).join(""))).toEqual(rows);
  });

  it("defuses cells a spreadsheet would run as formulas, and the importer undoes it", () => {
    expect(protectCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(protectCell("+233 24 123 4567")).toBe("'+233 24 123 4567");
    expect(protectCell("Abena")).toBe("Abena");
    expect(unprotectCell("'=HYPERLINK(1)")).toBe("=HYPERLINK(1)");
    expect(unprotectCell("'tis")).toBe("'tis");
  });
});

describe("CsvParser, fed a piece at a time", () => {
  /** Every way of cutting the text into three pieces gives `expected` (records or an error). */
  function everySplit(text: string, expected: string[][] | { row: number; message: string }) {
    for (let a = 0; a <= text.length; a += 1) {
      for (let b = a; b <= text.length; b += 1) {
        const parser = new CsvParser();
        let outcome: string[][] | { row: number; message: string };
        try {
          outcome = [
            ...parser.push(text.slice(0, a)),
            ...parser.push(text.slice(a, b)),
            ...parser.push(text.slice(b)),
            ...parser.end(),
          ];
        } catch (error) {
          if (!(error instanceof CsvSyntaxError)) throw error;
          outcome = { row: error.row, message: error.message };
        }
        expect(outcome, `cut at ${a} and ${b}`).toEqual(expected);
      }
    }
  }

  it("reads quoted cells with commas, doubled quotes and line breaks cut anywhere", () => {
    everySplit('"Mensah, Abena","say ""yes""","two\r\nlines"\r\nx,y\r\n', [
      ["Mensah, Abena", 'say "yes"', "two\r\nlines"],
      ["x", "y"],
    ]);
  });

  it("keeps CRLF one line break when the pieces part CR from LF", () => {
    everySplit("a,b\r\n\r\nc\rd\n", [["a", "b"], [""], ["c"], ["d"]]);
  });

  it("skips a byte-order mark only at the very start", () => {
    everySplit("\uFEFFidNo,\uFEFFx\r\n", [["idNo", "\uFEFFx"]]);
  });

  it("ends a quoted cell closed by the last character of a piece", () => {
    everySplit('"a""",b\r\n""', [['a"', "b"], [""]]);
  });

  it("names the same row for an open quote or text after a closing quote", () => {
    everySplit('a\r\nb\r\n"open,c', { row: 3, message: "a quoted cell is never closed" });
    everySplit('a\r\n"x"y,z', {
      row: 2,
      message: "a quoted cell is followed by more text before the comma",
    });
  });
});
