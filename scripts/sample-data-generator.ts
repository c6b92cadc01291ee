// Builds the sample submission list the prototype's admin screen showed (spec section 3): same key
// names, same observed values, ids 1 to 479 with gaps. Pure and seeded so the committed fixture can
// be checked against a fresh run instead of trusted. A few records are then given a journey (the
// showcase below): the students a newcomer can sign up as, one or more in every state the product
// knows, from nothing received to a final outcome.

import type {
  SampleExaminer,
  SampleJourney,
  SampleJourneys,
  SampleState,
  SampleStep,
} from "../server/sample-journeys.js";

export const DOCUMENT_ITEMS = [
  "Thesis",
  "Turnitin report",
  "Supervisor form",
  "Statement of Result",
  "Financial Clearance",
] as const;
export type DocumentItem = (typeof DOCUMENT_ITEMS)[number];

export const SGS_ADMIN_VALUES = ["Sent to Department", "Sent to Examiners"] as const;
export type SgsAdminValue = (typeof SGS_ADMIN_VALUES)[number];

export const EXAMINER_VALUES = ["Awaiting", "Received", "Report Submitted"] as const;
export type ExaminerValue = (typeof EXAMINER_VALUES)[number];

/** The prototype's one value, then the outcomes the showcase's journeys end with. */
export const THESIS_STATUS_VALUES = [
  "Initial Submission",
  "Pass",
  "Minor corrections",
  "Corrections approved",
] as const;
export type ThesisStatusValue = (typeof THESIS_STATUS_VALUES)[number];

export const FIRST_ID = 1;
export const LAST_ID = 479;

export interface SampleRecord {
  idNo: number;
  StudentName: string;
  IndexNumber: string;
  Programme: string;
  Contact?: string;
  Thesis?: "Submitted";
  "Turnitin report"?: "Submitted";
  "Supervisor form"?: "Submitted";
  "Statement of Result"?: "Submitted";
  "Financial Clearance"?: "Submitted";
  SGSAdmin?: SgsAdminValue;
  InternalExaminer?: ExaminerValue;
  ExternalExaminer?: ExaminerValue;
  "Thesis Status"?: ThesisStatusValue;
  "Effective Date"?: string;
}

// Changing the seed, the order of draws, or any table below changes the fixture; regenerate it.
const SEED = 0x5e75_2024;
const GAP_COUNT = 29;

type Weighted<T> = readonly (readonly [T, number])[];

// mulberry32: tiny, fast, and good enough for fixtures; Math.random cannot be seeded.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Random {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.#next() * (maxInclusive - minInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.#next() * items.length));
  }

  weighted<T>(table: Weighted<T>): T {
    const total = table.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.#next() * total;
    for (const [value, weight] of table) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return at(table, table.length - 1)[0];
  }

  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i += 1) out += String(this.int(0, 9));
    return out;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      const tmp = at(out, i);
      out[i] = at(out, j);
      out[j] = tmp;
    }
    return out;
  }
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside 0..${items.length - 1}`);
  return item;
}

// Akan day names dominate, as on a Ghanaian campus; English, Ewe, Ga, northern (often Muslim) and a
// few West African and international names make the list look like a real graduate school.
// prettier-ignore
const FIRST_NAMES = [
  "Abena", "Akosua", "Adwoa", "Ama", "Afua", "Yaa", "Efua", "Esi", "Akua", "Adjoa",
  "Kwame", "Kofi", "Kwabena", "Kwaku", "Yaw", "Kwesi", "Kojo", "Kwadwo", "Fiifi", "Ekow",
  "Nana", "Selasi", "Elikem", "Dzifa", "Edem", "Delali", "Mawuli", "Nii", "Naa", "Dede",
  "Fatima", "Abdul-Rahman", "Mohammed", "Aisha", "Ibrahim", "Zainab", "Issah", "Hawa", "Rashid",
  "Mariama", "Emmanuel", "Samuel", "Daniel", "Joseph", "Richard", "Prince", "Isaac", "Ebenezer",
  "Gifty", "Grace", "Mercy", "Priscilla", "Comfort", "Joyce", "Patience", "Linda", "Eunice",
  "Chinedu", "Ngozi", "Oluwaseun", "Tunde", "Amadou", "Fatoumata", "Wanjiru", "Tendai", "Sarah",
  "David",
] as const;

// Christian and family middle names as they appear on transcripts.
// prettier-ignore
const MIDDLE_NAMES = [
  "Ama", "Kofi", "Yaw", "Akua", "Kwame", "Efua", "Nana", "Kwesi", "Esi", "Adjoa",
  "Elizabeth", "Mary", "Josephine", "Emmanuel", "Francis", "Benjamin", "Theophilus", "Nii",
  "Seyram", "Selorm", "Abdul", "Amina",
] as const;

// prettier-ignore
const SURNAMES = [
  "Mensah", "Owusu", "Owusu-Ansah", "Boateng", "Asante", "Osei", "Agyeman", "Appiah", "Darko",
  "Amoah", "Ofori", "Adjei", "Ansah", "Gyamfi", "Frimpong", "Acheampong", "Amponsah", "Opoku",
  "Sarpong", "Boakye", "Kyei", "Antwi", "Nkansah", "Asamoah", "Bonsu", "Kusi", "Addo", "Quaye",
  "Tetteh", "Lamptey", "Quartey", "Ankrah", "Nortey", "Aryee", "Kotey", "Agbeko", "Kpodo",
  "Dzidzienyo", "Tsikata", "Amegashie", "Gbeve", "Abdulai", "Mahama", "Alhassan", "Iddrisu",
  "Seidu", "Yakubu", "Abubakar", "Sulemana", "Issifu", "Baffoe", "Eshun", "Arthur", "Quansah",
  "Essien", "Aidoo", "Ocran", "Annan", "Wiredu", "Yeboah", "Okafor", "Adeyemi", "Diallo",
  "Kamara", "Mwangi", "Moyo", "Smith",
] as const;

// Weights stand in for cohort sizes: large taught masters, small PhD and law intakes.
const PROGRAMMES: Weighted<string> = [
  ["MPhil Economics", 30],
  ["MSc Computer Science", 26],
  ["MBA Finance", 28],
  ["MBA Human Resource Management", 18],
  ["MPhil Public Health", 24],
  ["MA English", 14],
  ["MPhil Sociology", 16],
  ["MSc Environmental Science", 15],
  ["MPhil Development Studies", 20],
  ["MA International Affairs", 17],
  ["MPhil Political Science", 11],
  ["MSc Statistics", 10],
  ["MPhil Geography and Resource Development", 9],
  ["MPhil Nutrition and Food Science", 8],
  ["MEd Educational Administration", 13],
  ["LLM International Law", 6],
  ["MPhil Psychology", 9],
  ["MPhil Chemistry", 7],
  ["MPhil Agricultural Economics", 10],
  ["PhD Economics", 7],
  ["PhD Chemistry", 4],
  ["PhD Agricultural Economics", 5],
  ["PhD Public Health", 5],
  ["PhD Development Studies", 4],
];

// Index numbers open with a two-digit prefix tied to the entry year (2013 -> 10 ... 2023 -> 20).
// Doctoral candidates entered earlier, so they draw from older cohorts.
const MASTERS_ENTRY_YEARS: Weighted<number> = [
  [2018, 1],
  [2019, 2],
  [2020, 4],
  [2021, 8],
  [2022, 10],
  [2023, 5],
];
const DOCTORAL_ENTRY_YEARS: Weighted<number> = [
  [2013, 1],
  [2014, 1],
  [2015, 2],
  [2016, 3],
  [2017, 4],
  [2018, 5],
  [2019, 4],
  [2020, 3],
  [2021, 1],
];

// Prefixes by network share: MTN (024, 054, 055, 059, 053) leads, then Telecel and AirtelTigo.
const PHONE_PREFIXES: Weighted<string> = [
  ["024", 22],
  ["054", 16],
  ["055", 12],
  ["059", 6],
  ["053", 4],
  ["020", 10],
  ["050", 7],
  ["027", 7],
  ["057", 4],
  ["026", 5],
  ["056", 3],
];

type Stage = "collecting" | SgsAdminValue;

// Fixed shares rather than independent draws: with ~450 records, chance alone drifts several
// points off the intended 30/35/35 split, and the admin list should look the same every time.
const STAGE_SHARES: Readonly<Record<Stage, number>> = {
  collecting: 0.3,
  "Sent to Department": 0.35,
  "Sent to Examiners": 0.35,
};

// While documents are still being collected, each item arrives on its own; the thesis comes first
// and the bursary's financial clearance comes last, which is what the admin list shows.
const DOCUMENT_PRESENCE_WHILE_COLLECTING: Readonly<Record<DocumentItem, number>> = {
  Thesis: 0.93,
  "Turnitin report": 0.78,
  "Supervisor form": 0.72,
  "Statement of Result": 0.6,
  "Financial Clearance": 0.42,
};

// A few files go forward with one item outstanding (usually the clearance); real registries bend.
const FORWARDED_WITH_MISSING_ITEM = 0.025;
const ITEM_MISSING_WHEN_FORWARDED: Weighted<DocumentItem> = [
  ["Financial Clearance", 5],
  ["Statement of Result", 2],
  ["Supervisor form", 1],
];

const EXAMINER_COVERAGE: Weighted<"both" | "internal" | "external" | "none"> = [
  ["both", 80],
  ["internal", 10],
  ["external", 6],
  ["none", 4],
];
// External examiners sit at other universities and report later than internal ones.
const INTERNAL_EXAMINER_STATES: Weighted<ExaminerValue> = [
  ["Awaiting", 40],
  ["Received", 36],
  ["Report Submitted", 24],
];
const EXTERNAL_EXAMINER_STATES: Weighted<ExaminerValue> = [
  ["Awaiting", 48],
  ["Received", 34],
  ["Report Submitted", 18],
];

const CONTACT_MISSING = 0.08;

function chooseIds(random: Random): number[] {
  const interior: number[] = [];
  for (let id = FIRST_ID + 1; id < LAST_ID; id += 1) interior.push(id);
  const dropped = new Set(random.shuffle(interior).slice(0, GAP_COUNT));
  return [FIRST_ID, ...interior.filter((id) => !dropped.has(id)), LAST_ID];
}

function studentName(random: Random, taken: Set<string>): string {
  for (;;) {
    const parts: string[] = [random.pick(FIRST_NAMES)];
    if (random.chance(0.22)) parts.push(random.pick(MIDDLE_NAMES));
    parts.push(random.pick(SURNAMES));
    const name = parts.join(" ");
    // "Ama Ama Mensah" or "Nortey Nortey" would read as a data-entry mistake.
    if (new Set(parts).size !== parts.length || taken.has(name)) continue;
    taken.add(name);
    return name;
  }
}

function indexNumber(random: Random, programme: string, taken: Set<string>): string {
  const years = programme.startsWith("PhD") ? DOCTORAL_ENTRY_YEARS : MASTERS_ENTRY_YEARS;
  const prefix = String(10 + random.weighted(years) - 2013);
  for (;;) {
    const candidate = prefix + random.digits(6);
    if (taken.has(candidate)) continue;
    taken.add(candidate);
    return candidate;
  }
}

function contact(random: Random): string {
  const prefix = random.weighted(PHONE_PREFIXES);
  const subscriber = random.digits(7);
  const [head, tail] = [subscriber.slice(0, 3), subscriber.slice(3)];
  const style = random.weighted([
    ["spaced", 80],
    ["compact", 12],
    ["international", 8],
  ] as const);
  switch (style) {
    case "spaced":
      return `${prefix} ${head} ${tail}`;
    case "compact":
      return `${prefix}${subscriber}`;
    case "international":
      return `+233 ${prefix.slice(1)} ${head} ${tail}`;
  }
}

function documentsFor(random: Random, stage: Stage): Set<DocumentItem> {
  if (stage === "collecting") {
    const arrived = DOCUMENT_ITEMS.filter((item) =>
      random.chance(DOCUMENT_PRESENCE_WHILE_COLLECTING[item]),
    );
    return new Set(arrived);
  }
  const documents = new Set<DocumentItem>(DOCUMENT_ITEMS);
  if (random.chance(FORWARDED_WITH_MISSING_ITEM)) {
    documents.delete(random.weighted(ITEM_MISSING_WHEN_FORWARDED));
  }
  return documents;
}

// The first record is pinned to "collecting" (see below), so it takes one of that stage's slots.
function chooseStages(random: Random, recordCount: number): Stage[] {
  const department = Math.round(recordCount * STAGE_SHARES["Sent to Department"]);
  const examiners = Math.round(recordCount * STAGE_SHARES["Sent to Examiners"]);
  const collecting = recordCount - department - examiners;
  const rest: Stage[] = [
    ...Array<Stage>(collecting - 1).fill("collecting"),
    ...Array<Stage>(department).fill("Sent to Department"),
    ...Array<Stage>(examiners).fill("Sent to Examiners"),
  ];
  return ["collecting", ...random.shuffle(rest)];
}

export function generateSampleSubmissions(): SampleRecord[] {
  const random = new Random(SEED);
  const names = new Set<string>();
  const indexNumbers = new Set<string>();
  const ids = chooseIds(random);
  const stages = chooseStages(random, ids.length);

  return ids.map((idNo, position) => {
    const programme = random.weighted(PROGRAMMES);
    const record: SampleRecord = {
      idNo,
      StudentName: studentName(random, names),
      IndexNumber: indexNumber(random, programme, indexNumbers),
      Programme: programme,
    };
    // Drawn even when dropped, so tuning CONTACT_MISSING leaves the other records unchanged.
    const phone = contact(random);
    if (!random.chance(CONTACT_MISSING)) record.Contact = phone;

    // The prototype's first record is the only one showing a thesis status, and it is a fresh
    // submission, so chooseStages keeps it away from the department.
    const stage = at(stages, position);
    const documents = documentsFor(random, stage);
    if (idNo === FIRST_ID) documents.add("Thesis");
    for (const item of DOCUMENT_ITEMS) {
      if (documents.has(item)) record[item] = "Submitted";
    }

    if (stage !== "collecting") record.SGSAdmin = stage;
    if (stage === "Sent to Examiners") {
      const coverage = random.weighted(EXAMINER_COVERAGE);
      if (coverage === "both" || coverage === "internal") {
        record.InternalExaminer = random.weighted(INTERNAL_EXAMINER_STATES);
      }
      if (coverage === "both" || coverage === "external") {
        record.ExternalExaminer = random.weighted(EXTERNAL_EXAMINER_STATES);
      }
    }

    if (idNo === FIRST_ID) {
      record["Thesis Status"] = "Initial Submission";
      record["Effective Date"] = "2024-03-12";
    }
    // After every draw, so the showcase changes no other record.
    const showcase = SHOWCASE.find((s) => s.idNo === idNo);
    return showcase ? showcaseRecord(record, showcase) : record;
  });
}

// ---------------------------------------------------------------------------------------------
// The showcase: sample students in every state, with the journey that brought them there

/**
 * The examiners on the sample list. Addresses are under `.example` (RFC 2606), so nothing sent to
 * them can reach anyone.
 */
export const SAMPLE_EXAMINERS: SampleExaminer[] = [
  {
    name: "Prof. Akosua Asabea Boateng",
    email: "akosua.boateng@sgs.example",
    institution: "University of Ghana",
    kind: "internal",
  },
  {
    name: "Dr. Kofi Ampah",
    email: "kofi.ampah@sgs.example",
    institution: "University of Ghana",
    kind: "internal",
  },
  {
    name: "Prof. Ebenezer Quarshie",
    email: "e.quarshie@ucc.example",
    institution: "University of Cape Coast",
    kind: "external",
  },
  {
    name: "Dr. Hawa Seidu-Yakubu",
    email: "h.seidu@uds.example",
    institution: "University for Development Studies",
    kind: "external",
  },
  {
    name: "Prof. Ngozi Okonkwo",
    email: "n.okonkwo@unilag.example",
    institution: "University of Lagos",
    kind: "external",
  },
];

type ShownFields = Pick<
  SampleRecord,
  DocumentItem | "SGSAdmin" | "InternalExaminer" | "ExternalExaminer" | "Thesis Status"
>;

interface Showcase {
  idNo: number;
  shows: SampleState;
  /** What the admin list shows for the record once the journey is done (checked at load). */
  shown: ShownFields;
  title: string;
  abstract: string;
  steps: (file: (what: string) => string) => SampleStep[];
}

const ALL_RECEIVED: ShownFields = {
  Thesis: "Submitted",
  "Turnitin report": "Submitted",
  "Supervisor form": "Submitted",
  "Statement of Result": "Submitted",
  "Financial Clearance": "Submitted",
};

/** Every item uploaded on one day and accepted on another, then the stage moved by hand. */
function documentsThenDepartment(uploadedDaysAgo: number, acceptedDaysAgo: number): SampleStep[] {
  const items = [
    ["thesis", "thesis", 6],
    ["turnitinReport", "turnitin-report", 2],
    ["supervisorForm", "supervisor-form", 1],
    ["statementOfResult", "statement-of-result", 1],
    ["financialClearance", "financial-clearance", 1],
  ] as const;
  return [
    ...items.map(([item, name, pages]) => ({
      daysAgo: uploadedDaysAgo,
      do: "upload" as const,
      item,
      fileName: `${name}.pdf`,
      pages,
    })),
    ...items.map(([item]) => ({ daysAgo: acceptedDaysAgo, do: "accept" as const, item })),
    { daysAgo: acceptedDaysAgo, do: "stage", to: "awaiting_review" },
    { daysAgo: acceptedDaysAgo - 2, do: "stage", to: "sent_to_department" },
  ];
}

/**
 * Record ids chosen among the first fifty, away from the ones the browser tests read (1-3, 5-7, 9,
 * 10, 12, 15, 18-21, 43, 49, 114), so those keep the prototype's values.
 */
const SHOWCASE: Showcase[] = [
  {
    idNo: 22,
    shows: "nothing_received",
    shown: {},
    title: "",
    abstract: "",
    steps: () => [],
  },
  {
    idNo: 29,
    shows: "partly_uploaded",
    shown: { Thesis: "Submitted", "Turnitin report": "Submitted", "Supervisor form": "Submitted" },
    title: "Household Water Treatment and Diarrhoeal Disease in Peri-Urban Accra",
    abstract:
      "A cross-sectional study of 412 households in Ga East on how drinking water is treated at home and how often children under five fall ill with diarrhoea.",
    steps: (file) => [
      { daysAgo: 21, do: "upload", item: "thesis", fileName: file("thesis"), pages: 6 },
      {
        daysAgo: 21,
        do: "upload",
        item: "turnitinReport",
        fileName: file("turnitin"),
        pages: 2,
      },
      { daysAgo: 18, do: "accept", item: "thesis" },
      { daysAgo: 18, do: "accept", item: "turnitinReport" },
    ],
  },
  {
    idNo: 30,
    shows: "waiting_for_review",
    shown: { "Statement of Result": "Submitted" },
    title: "Malaria Rapid Diagnostic Test Use in Private Chemical Shops in the Ashanti Region",
    abstract:
      "How licensed chemical sellers in four districts test for malaria before selling treatment, and what keeps them from testing every customer with fever.",
    steps: (file) => [
      { daysAgo: 3, do: "upload", item: "thesis", fileName: file("thesis"), pages: 8 },
      {
        daysAgo: 3,
        do: "upload",
        item: "turnitinReport",
        fileName: file("turnitin"),
        pages: 2,
      },
      {
        daysAgo: 2,
        do: "upload",
        item: "supervisorForm",
        fileName: file("supervisor-form"),
        pages: 1,
      },
    ],
  },
  {
    idNo: 32,
    shows: "returned",
    shown: {
      Thesis: "Submitted",
      "Supervisor form": "Submitted",
      "Statement of Result": "Submitted",
      "Financial Clearance": "Submitted",
    },
    title: "Heavy Metal Contamination of Soils around Artisanal Gold Mining Sites in Tarkwa",
    abstract:
      "Lead, cadmium, mercury and arsenic measured in soils at increasing distances from twelve small-scale mining pits, and what they mean for the crops grown nearby.",
    steps: (file) => [
      { daysAgo: 12, do: "upload", item: "thesis", fileName: file("thesis"), pages: 9 },
      {
        daysAgo: 12,
        do: "upload",
        item: "turnitinReport",
        fileName: file("turnitin"),
        pages: 1,
      },
      {
        daysAgo: 12,
        do: "upload",
        item: "supervisorForm",
        fileName: file("supervisor-form"),
        pages: 1,
      },
      {
        daysAgo: 11,
        do: "upload",
        item: "statementOfResult",
        fileName: file("statement-of-result"),
        pages: 1,
      },
      {
        daysAgo: 11,
        do: "upload",
        item: "financialClearance",
        fileName: file("financial-clearance"),
        pages: 1,
      },
      { daysAgo: 9, do: "accept", item: "thesis" },
      { daysAgo: 9, do: "accept", item: "supervisorForm" },
      { daysAgo: 9, do: "accept", item: "statementOfResult" },
      { daysAgo: 9, do: "accept", item: "financialClearance" },
      {
        daysAgo: 9,
        do: "return",
        item: "turnitinReport",
        reason:
          "The similarity report stops after its first page. Upload the full Turnitin report, with the similarity index and every page of the match overview.",
      },
    ],
  },
  {
    idNo: 24,
    shows: "with_examiners",
    shown: {
      ...ALL_RECEIVED,
      SGSAdmin: "Sent to Examiners",
      InternalExaminer: "Received",
      ExternalExaminer: "Awaiting",
    },
    title: "Decentralisation and Local Service Delivery in Northern Ghana, 1988-2020",
    abstract:
      "District assemblies in three regions compared over three decades: what decentralisation changed in schools, clinics and water points, and what it did not.",
    steps: () => [
      ...documentsThenDepartment(90, 86),
      {
        daysAgo: 30,
        do: "nominate",
        role: "internal",
        examiner: "akosua.boateng@sgs.example",
      },
      { daysAgo: 30, do: "nominate", role: "external", examiner: "e.quarshie@ucc.example" },
      { daysAgo: 20, do: "send" },
      { daysAgo: 17, do: "download", role: "internal" },
    ],
  },
  {
    idNo: 25,
    shows: "with_examiners",
    shown: {
      ...ALL_RECEIVED,
      SGSAdmin: "Sent to Examiners",
      InternalExaminer: "Report Submitted",
      ExternalExaminer: "Received",
    },
    title: "Consumer Acceptance of Fortified Cassava Flour in the Volta Region",
    abstract:
      "Sensory tests and a household survey on whether families who eat gari and kokonte every day would buy a vitamin A fortified flour, and at what price.",
    steps: () => [
      ...documentsThenDepartment(70, 66),
      { daysAgo: 40, do: "nominate", role: "internal", examiner: "kofi.ampah@sgs.example" },
      { daysAgo: 40, do: "nominate", role: "external", examiner: "h.seidu@uds.example" },
      { daysAgo: 28, do: "send" },
      { daysAgo: 26, do: "download", role: "internal" },
      { daysAgo: 19, do: "download", role: "external" },
      {
        daysAgo: 6,
        do: "report",
        role: "internal",
        recommendation: "minor_corrections",
        note: null,
        fileName: "report-internal.pdf",
        pages: 3,
      },
    ],
  },
  {
    idNo: 26,
    shows: "corrections_to_upload",
    shown: {
      ...ALL_RECEIVED,
      SGSAdmin: "Sent to Examiners",
      InternalExaminer: "Report Submitted",
      ExternalExaminer: "Report Submitted",
      "Thesis Status": "Minor corrections",
    },
    title: "Post-Harvest Losses of Tomatoes between Farm Gate and Market in the Upper East Region",
    abstract:
      "Tomatoes followed from forty farms to Bolgatanga and Accra markets: where they are lost, how much, and which simple crates and shades would save most.",
    steps: () => [
      ...documentsThenDepartment(120, 115),
      {
        daysAgo: 95,
        do: "nominate",
        role: "internal",
        examiner: "akosua.boateng@sgs.example",
      },
      { daysAgo: 95, do: "nominate", role: "external", examiner: "n.okonkwo@unilag.example" },
      { daysAgo: 85, do: "send" },
      { daysAgo: 83, do: "download", role: "internal" },
      { daysAgo: 80, do: "download", role: "external" },
      {
        daysAgo: 50,
        do: "report",
        role: "internal",
        recommendation: "minor_corrections",
        note: null,
        fileName: "report-internal.pdf",
        pages: 3,
      },
      {
        daysAgo: 41,
        do: "report",
        role: "external",
        recommendation: "minor_corrections",
        note: "Chapter 4's tables need their units.",
        fileName: "report-external.pdf",
        pages: 4,
      },
      {
        daysAgo: 34,
        do: "outcome",
        decision: "minor_corrections",
        corrections:
          "1. Give the units of every quantity in Tables 4.2 to 4.7.\n2. Add the survey questionnaire as an appendix.\n3. Correct the references listed in the examiners' reports.",
      },
    ],
  },
  {
    idNo: 27,
    shows: "final",
    shown: {
      ...ALL_RECEIVED,
      SGSAdmin: "Sent to Examiners",
      InternalExaminer: "Report Submitted",
      ExternalExaminer: "Report Submitted",
      "Thesis Status": "Pass",
    },
    title: "Uptake of Cervical Cancer Screening among Women in the Cape Coast Metropolis",
    abstract:
      "Why women who know about free screening at public clinics still do not go: a mixed-methods study of 350 women and 24 nurses.",
    steps: () => [
      ...documentsThenDepartment(200, 195),
      { daysAgo: 180, do: "nominate", role: "internal", examiner: "kofi.ampah@sgs.example" },
      { daysAgo: 180, do: "nominate", role: "external", examiner: "e.quarshie@ucc.example" },
      { daysAgo: 170, do: "send" },
      { daysAgo: 168, do: "download", role: "internal" },
      { daysAgo: 160, do: "download", role: "external" },
      {
        daysAgo: 140,
        do: "report",
        role: "internal",
        recommendation: "pass",
        note: null,
        fileName: "report-internal.pdf",
        pages: 2,
      },
      {
        daysAgo: 131,
        do: "report",
        role: "external",
        recommendation: "pass",
        note: null,
        fileName: "report-external.pdf",
        pages: 2,
      },
      { daysAgo: 125, do: "outcome", decision: "pass", corrections: null },
      {
        daysAgo: 100,
        do: "publish",
        keywords: ["cervical cancer", "screening", "women's health", "Cape Coast"],
        language: "eng",
        supervisors: [
          { name: "Prof. Ama Mensah", orcid: "0000-0002-1825-0097" },
          { name: "Dr. Kofi Asante", orcid: null },
        ],
        degree: "MPH",
        department: "Department of Population and Health",
        examinedDaysAgo: 128,
        embargo: "1y",
      },
    ],
  },
  {
    idNo: 31,
    shows: "final",
    shown: {
      ...ALL_RECEIVED,
      SGSAdmin: "Sent to Examiners",
      InternalExaminer: "Report Submitted",
      ExternalExaminer: "Report Submitted",
      "Thesis Status": "Corrections approved",
    },
    title: "Social Media Use and Political Participation among University Students in Ghana",
    abstract:
      "A survey of 600 students at four universities on whether following politics online leads them to vote, campaign or protest.",
    steps: (file) => [
      ...documentsThenDepartment(240, 236),
      {
        daysAgo: 220,
        do: "nominate",
        role: "internal",
        examiner: "akosua.boateng@sgs.example",
      },
      { daysAgo: 220, do: "nominate", role: "external", examiner: "h.seidu@uds.example" },
      { daysAgo: 210, do: "send" },
      { daysAgo: 207, do: "download", role: "internal" },
      { daysAgo: 205, do: "download", role: "external" },
      {
        daysAgo: 170,
        do: "report",
        role: "internal",
        recommendation: "major_corrections",
        note: null,
        fileName: "report-internal.pdf",
        pages: 4,
      },
      {
        daysAgo: 165,
        do: "report",
        role: "external",
        recommendation: "major_corrections",
        note: null,
        fileName: "report-external.pdf",
        pages: 5,
      },
      {
        daysAgo: 158,
        do: "outcome",
        decision: "major_corrections",
        corrections:
          "1. Rewrite Chapter 3 to justify the sampling of the four universities.\n2. Re-run the regressions in Chapter 5 with robust standard errors.\n3. Shorten the literature review by a third.",
      },
      {
        daysAgo: 60,
        do: "upload",
        item: "thesis",
        fileName: file("thesis-corrected"),
        pages: 7,
      },
      { daysAgo: 52, do: "approve" },
      {
        daysAgo: 40,
        do: "publish",
        keywords: ["social media", "political participation", "students", "Ghana"],
        language: "eng",
        supervisors: [{ name: "Prof. Kwame Mensah", orcid: "0000-0001-5109-3700" }],
        degree: "MPhil",
        department: "Department of Political Science",
        examinedDaysAgo: 160,
        embargo: "none",
      },
    ],
  },
];

/** The record with what the list shows once its journey is done; name and index number kept. */
function showcaseRecord(record: SampleRecord, showcase: Showcase): SampleRecord {
  const out: SampleRecord = { ...record };
  for (const key of [
    ...DOCUMENT_ITEMS,
    "SGSAdmin",
    "InternalExaminer",
    "ExternalExaminer",
    "Thesis Status",
  ] as const) {
    delete out[key];
  }
  return { ...out, ...showcase.shown };
}

/** "Bonsu_S_thesis.pdf": how students name their files. */
function fileNamer(record: SampleRecord): (what: string) => string {
  const parts = record.StudentName.split(" ");
  const surname = parts[parts.length - 1] ?? "student";
  const initial = (parts[0] ?? "S").charAt(0);
  return (what) => `${surname}_${initial}_${what}.pdf`;
}

/** The journeys of the showcase records, for the given (generated) list. */
export function generateSampleJourneys(
  records: readonly SampleRecord[] = generateSampleSubmissions(),
): SampleJourneys {
  const journeys: SampleJourney[] = SHOWCASE.map((showcase) => {
    const record = records.find((r) => r.idNo === showcase.idNo);
    if (!record) throw new Error(`The showcase names record ${showcase.idNo}, which is a gap`);
    const steps = showcase.steps(fileNamer(record));
    const details: SampleStep[] = showcase.title
      ? [
          {
            daysAgo: Math.max(...steps.map((s) => s.daysAgo)) + 2,
            do: "details",
            title: showcase.title,
            abstract: showcase.abstract,
          },
        ]
      : [];
    return {
      indexNumber: record.IndexNumber,
      shows: showcase.shows,
      steps: [...details, ...steps],
    };
  });
  return { examiners: SAMPLE_EXAMINERS, journeys };
}
