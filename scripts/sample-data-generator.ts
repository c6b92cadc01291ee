// Builds the sample submission list the prototype's admin screen showed (spec section 3): same key
// names, same observed values, ids 1 to 479 with gaps. Pure and seeded so the committed fixture can
// be checked against a fresh run instead of trusted.

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
  "Thesis Status"?: "Initial Submission";
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
    return record;
  });
}
