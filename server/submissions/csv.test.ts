import { describe, expect, it } from "vitest";
import { CsvSyntaxError, csvLine, parseCsv, protectCell, unprotectCell } from "./csv.js";

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
