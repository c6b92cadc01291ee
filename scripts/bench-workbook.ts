import { ZipFile } from "yazl";
import { RECORD_COLUMNS } from "../common/submission.js";
import { EXAMINER_STATE_LABELS, SGS_STAGE_LABELS } from "../common/workflow.js";
import { mulberry32 } from "./bench-data.js";

/**
 * A workbook shaped like the one a registrar sent (issue 24, item 3): the 14 record columns,
 * `rows` rows, written as Excel writes: every text in the shared strings (long, mostly distinct
 * names, programmes with their specialisation and cohort, contacts, status notes, each within the
 * importer's limits, and a running note of some 650 characters as Thesis Status), index numbers as numbers, dates as date-formatted serial numbers, styles and
 * row attributes on every row. 50,000 rows unpack to about 67 MB, the registrar's file's size.
 */
export async function registrarWorkbook(
  rows: number,
): Promise<{ bytes: Buffer; unpacked: number }> {
  const random = mulberry32(0x24_03);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const shared = (text: string) => {
    let index = stringIndex.get(text);
    if (index === undefined) {
      index = strings.length;
      strings.push(text);
      stringIndex.set(text, index);
    }
    return index;
  };

  const letters = RECORD_COLUMNS.map((_, i) => String.fromCharCode(65 + i));
  const textCell = (ref: string, text: string) =>
    `<c r="${ref}" s="2" t="s"><v>${shared(text)}</v></c>`;
  const dateCell = (ref: string, serial: number) => `<c r="${ref}" s="1"><v>${serial}</v></c>`;
  const sheet: string[] = [
    `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"><dimension ref="A1:N${rows + 1}"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><sheetData>`,
    `<row r="1" spans="1:14" x14ac:dyDescent="0.25">${RECORD_COLUMNS.map((name, i) => textCell(`${letters[i]}1`, name)).join("")}</row>`,
  ];
  const stages = Object.values(SGS_STAGE_LABELS);
  const examinerStates = Object.values(EXAMINER_STATE_LABELS);
  for (let i = 0; i < rows; i += 1) {
    const row = i + 2;
    const ref = (column: number) => `${letters[column]}${row}`;
    const given = `${pick(GIVEN)} ${pick(GIVEN)} ${pick(GIVEN)}`;
    const family = `${pick(FAMILY)}-${pick(FAMILY)}`;
    const name = `${pick(TITLES)} ${given} ${family}`;
    const programme = `${pick(PROGRAMMES)}, specialising in ${pick(SPECIALISATIONS)} (${2019 + (i % 6)} cohort, ${pick(CAMPUSES)})`;
    const email = `${given.split(" ")[0]}.${family}`.toLowerCase().replace(/[^a-z.-]/g, "");
    const contact = `+233 ${20 + (i % 40)} ${String(1_000_000 + i).slice(1)} / ${email}${i}@st.ug.edu.gh, P.O. Box LG ${i % 900}`;
    // The registrar's long cells: a running note of some 650 characters.
    let status = "";
    while (status.length < 620) {
      status += `${pick(NOTES)} ${pick(STAFF)}, ${(1 + random() * 28) | 0} ${pick(MONTHS)} 2025. `;
    }
    const day = 45_300 + (i % 400);
    let xml = `<row r="${row}" spans="1:14" ht="45" customHeight="1" x14ac:dyDescent="0.25">`;
    xml += textCell(ref(0), name.slice(0, 200));
    xml += `<c r="${ref(1)}" s="3"><v>${70_000_000 + i}</v></c>`;
    xml += textCell(ref(2), programme.slice(0, 200));
    xml += textCell(ref(3), contact.slice(0, 100));
    for (let d = 0; d < 5; d += 1) {
      const state = (i + d) % 3;
      if (state === 0) xml += dateCell(ref(4 + d), day - d * 7);
      else if (state === 1) xml += textCell(ref(4 + d), "Submitted");
    }
    xml += textCell(ref(9), pick(stages));
    xml += textCell(ref(10), pick(examinerStates));
    xml += textCell(ref(11), pick(examinerStates));
    xml += textCell(ref(12), status);
    xml += dateCell(ref(13), day);
    sheet.push(`${xml}</row>`);
  }
  sheet.push(
    `</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
  );
  const sst = [
    `${XML_HEAD}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">`,
    ...strings.map((text) => `<si><t>${escapeXml(text)}</t></si>`),
    "</sst>",
  ];

  const parts: [string, Buffer][] = [
    ["[Content_Types].xml", Buffer.from(CONTENT_TYPES)],
    ["_rels/.rels", Buffer.from(ROOT_RELS)],
    ["xl/workbook.xml", Buffer.from(WORKBOOK)],
    ["xl/_rels/workbook.xml.rels", Buffer.from(WORKBOOK_RELS)],
    ["xl/styles.xml", Buffer.from(STYLES)],
    ["xl/sharedStrings.xml", Buffer.from(sst.join(""))],
    ["xl/worksheets/sheet1.xml", Buffer.from(sheet.join(""))],
  ];
  const zip = new ZipFile();
  for (const [name, data] of parts) zip.addBuffer(data, name, { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return {
    bytes: Buffer.concat(chunks),
    unpacked: parts.reduce((sum, [, data]) => sum + data.length, 0),
  };
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG = "http://schemas.openxmlformats.org/package/2006/relationships";
const SHEETML = "application/vnd.openxmlformats-officedocument.spreadsheetml";

const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${SHEETML}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SHEETML}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${SHEETML}.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${SHEETML}.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr defaultThemeVersion="166925"/><bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="12300"/></bookViews><sheets><sheet name="2025 intake" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `${XML_HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
const STYLES = `${XML_HEAD}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment wrapText="1" vertical="top"/></xf><xf numFmtId="1" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const TITLES = ["Mr", "Ms", "Mrs", "Rev.", "Dr", "Lt. Col.", "Nana", "Rev. Sr."];
const GIVEN = [
  "Abena",
  "Kwame",
  "Akosua",
  "Kofi",
  "Efua",
  "Yaw",
  "Adwoa",
  "Kwabena",
  "Ama",
  "Kojo",
  "Esi",
  "Kwaku",
  "Afua",
  "Fiifi",
  "Nana",
  "Ekow",
  "Serwaa",
  "Agyeiwaa",
  "Ɛsi",
  "Dɔkɔ",
  "Mawuli",
  "Selasi",
  "Elikem",
  "Dzifa",
  "Abdul-Rahman",
  "Fatimatu",
  "Zuweira",
  "Mohammed",
];
const FAMILY = [
  "Boateng",
  "Mensah",
  "Owusu",
  "Asante",
  "Osei",
  "Agyeman",
  "Appiah",
  "Danquah",
  "Ofori",
  "Amponsah",
  "Tetteh",
  "Quaye",
  "Nkrumah",
  "Adjei",
  "Gyamfi",
  "Acheampong",
  "Kuffour",
  "Agbenyega",
  "Dzokoto",
  "Abubakari",
  "Iddrisu",
  "Yeboah",
  "Frimpong-Manso",
  "Ansah",
];
const PROGRAMMES = [
  "Master of Philosophy in Development Studies",
  "Master of Arts in Environmental Science and Natural Resource Management",
  "Doctor of Philosophy in Public Health (Epidemiology and Disease Control)",
  "Master of Science in Agricultural Economics and Agribusiness",
  "Master of Philosophy in Computer Science",
  "Master of Education in Teaching English as a Second Language",
  "Doctor of Philosophy in Chemistry",
  "Master of Philosophy in Geography and Resource Development",
  "Master of Arts in Migration Studies",
  "Master of Philosophy in Linguistics and African Languages",
];
const SPECIALISATIONS = [
  "regional planning and environmental management",
  "health systems, policy and financing",
  "soil science and climate-smart agriculture",
  "software engineering and distributed systems",
  "curriculum studies and assessment",
  "organic and medicinal chemistry of West African plants",
  "urban water supply and sanitation",
  "gender, population and reproductive health",
];
const CAMPUSES = ["Legon, full-time", "Accra City Campus, weekend", "Kumasi, sandwich", "distance"];
const NOTES = [
  "Corrections submitted after the viva; awaiting sign-off by",
  "Thesis returned for minor corrections, to be checked by",
  "Extension granted by the Board of Graduate Studies on advice of",
  "Viva voce scheduled; internal examiner's report received from",
  "Awaiting the supervisor's final approval of the bound copies,",
];
const STAFF = ["Prof. K. Mensah", "Dr A. Owusu-Ansah", "Prof. E. Agyeman", "Dr Y. Iddrisu"];
const MONTHS = ["January", "March", "May", "July", "September", "November"];
