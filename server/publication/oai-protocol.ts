/**
 * OAI-PMH 2.0's protocol layer (docs/decisions/027-oai-pmh-and-public-pages.md): which arguments
 * each verb takes, the protocol's errors, datestamps at the two granularities, sets, and the
 * response envelope. Pure: no database, no HTTP. `oai.ts` answers the verbs with it.
 *
 * http://www.openarchives.org/OAI/openarchivesprotocol.html
 */

export const OAI_NAMESPACE = "http://www.openarchives.org/OAI/2.0/";
export const OAI_SCHEMA = "http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

/** Records (or headers) per page of ListRecords and ListIdentifiers. */
export const OAI_PAGE_SIZE = 100;
/** How long a resumption token is honoured after it was issued. */
export const OAI_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const OAI_VERBS = [
  "Identify",
  "ListMetadataFormats",
  "ListSets",
  "GetRecord",
  "ListIdentifiers",
  "ListRecords",
] as const;
export type OaiVerb = (typeof OAI_VERBS)[number];

export const OAI_ERROR_CODES = [
  "badArgument",
  "badVerb",
  "badResumptionToken",
  "cannotDisseminateFormat",
  "idDoesNotExist",
  "noRecordsMatch",
  "noMetadataFormats",
  "noSetHierarchy",
] as const;
export type OaiErrorCode = (typeof OAI_ERROR_CODES)[number];

export interface OaiError {
  code: OaiErrorCode;
  message: string;
}

/** The arguments each verb allows (besides `verb`), required or optional; a token is exclusive. */
const ARGUMENTS: Record<
  OaiVerb,
  { required: string[]; optional: string[]; exclusive?: "resumptionToken" }
> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ["identifier"] },
  ListSets: { required: [], optional: [], exclusive: "resumptionToken" },
  GetRecord: { required: ["identifier", "metadataPrefix"], optional: [] },
  ListIdentifiers: {
    required: ["metadataPrefix"],
    optional: ["from", "until", "set"],
    exclusive: "resumptionToken",
  },
  ListRecords: {
    required: ["metadataPrefix"],
    optional: ["from", "until", "set"],
    exclusive: "resumptionToken",
  },
};

export type OaiArguments = Record<string, string>;

export type ParsedRequest =
  | { ok: true; verb: OaiVerb; args: OaiArguments }
  | { ok: false; verb: OaiVerb | null; args: OaiArguments; errors: OaiError[] };

/**
 * The request's arguments as the protocol reads them: every value a string, given once. `pairs`
 * are the query's (GET) or the form's (POST) name/value pairs in order, repeated names included.
 */
export function parseOaiRequest(pairs: [string, string][]): ParsedRequest {
  const args: OaiArguments = {};
  const errors: OaiError[] = [];
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    if (seen.has(name)) {
      errors.push({ code: "badArgument", message: `The argument "${name}" is repeated.` });
      continue;
    }
    seen.add(name);
    args[name] = value;
  }
  const verbText = args.verb;
  const verbRepeated = pairs.filter(([name]) => name === "verb").length > 1;
  const verb = verbRepeated ? null : (OAI_VERBS.find((v) => v === verbText) ?? null);
  if (verb === null) {
    // badVerb alone: without a verb no argument can be judged (the spec's own examples).
    const message =
      verbText === undefined
        ? "The verb argument is missing."
        : verbRepeated
          ? "The verb argument is repeated."
          : "The value of the verb argument is not a legal OAI-PMH verb.";
    return { ok: false, verb: null, args: {}, errors: [{ code: "badVerb", message }] };
  }
  const rules = ARGUMENTS[verb];
  const given = Object.keys(args).filter((name) => name !== "verb");
  if (rules.exclusive !== undefined && rules.exclusive in args) {
    const others = given.filter((name) => name !== rules.exclusive);
    if (others.length > 0) {
      errors.push({
        code: "badArgument",
        message: `resumptionToken is an exclusive argument: ${others.join(", ")} may not be given with it.`,
      });
    }
  } else {
    for (const name of rules.required) {
      if (!(name in args)) {
        errors.push({ code: "badArgument", message: `The argument "${name}" is required.` });
      }
    }
  }
  const allowed = new Set([...rules.required, ...rules.optional, rules.exclusive ?? ""]);
  for (const name of given) {
    if (!allowed.has(name)) {
      errors.push({
        code: "badArgument",
        message: `"${name}" is not an argument of ${verb}.`,
      });
    }
  }
  for (const name of given) {
    if (args[name] === "") {
      errors.push({ code: "badArgument", message: `The argument "${name}" is empty.` });
    }
  }
  if (errors.length > 0) return { ok: false, verb, args: safeEcho(args), errors };
  return { ok: true, verb, args };
}

/**
 * The arguments a response's <request> element may echo: after badVerb or badArgument the spec
 * says to give only the base URL, so an error answer echoes nothing it cannot vouch for.
 */
function safeEcho(_args: OaiArguments): OaiArguments {
  return {};
}

// ---------------------------------------------------------------------------------------------
// Datestamps

export type Granularity = "day" | "second";

/** A from/until argument: its granularity and the ISO instants it stands for. */
export interface DatestampBound {
  granularity: Granularity;
  /** The first instant the value covers (its day's or its second's start). */
  start: string;
  /** The first instant after it (the next day's or second's start): until is inclusive. */
  next: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** Parses a from/until value at either granularity the repository declares; null when illegal. */
export function parseDatestamp(value: string): DatestampBound | null {
  const granularity: Granularity | null = DAY.test(value)
    ? "day"
    : SECOND.test(value)
      ? "second"
      : null;
  if (granularity === null) return null;
  const text = granularity === "day" ? `${value}T00:00:00Z` : value;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return null;
  const start = new Date(time);
  // Date.parse rolls 2026-02-30 over into March: a value must name itself exactly.
  if (start.toISOString().replace(".000Z", "Z") !== text) return null;
  const step = granularity === "day" ? 86_400_000 : 1000;
  return {
    granularity,
    start: start.toISOString(),
    next: new Date(time + step).toISOString(),
  };
}

/** A stored ISO timestamp (with milliseconds) as a datestamp of seconds granularity. */
export function toDatestamp(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

/** The from/until pair checked together: the same granularity, from not after until. */
export function checkRange(
  from: string | undefined,
  until: string | undefined,
): { ok: true; from: DatestampBound | null; until: DatestampBound | null } | OaiError {
  const fromBound = from === undefined ? null : parseDatestamp(from);
  if (from !== undefined && fromBound === null) {
    return {
      code: "badArgument",
      message: 'The argument "from" is not a datestamp (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ).',
    };
  }
  const untilBound = until === undefined ? null : parseDatestamp(until);
  if (until !== undefined && untilBound === null) {
    return {
      code: "badArgument",
      message: 'The argument "until" is not a datestamp (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ).',
    };
  }
  if (fromBound && untilBound) {
    if (fromBound.granularity !== untilBound.granularity) {
      return {
        code: "badArgument",
        message: 'The arguments "from" and "until" have different granularities.',
      };
    }
    if (fromBound.start > untilBound.start) {
      return { code: "badArgument", message: 'The argument "from" is later than "until".' };
    }
  }
  return { ok: true, from: fromBound, until: untilBound };
}

// ---------------------------------------------------------------------------------------------
// Identifiers and sets

/** `oai:<host>:<submission id>`: the host is the repository's own name (OAI_REPOSITORY_IDENTIFIER). */
export function oaiIdentifier(host: string, submissionId: number): string {
  return `oai:${host}:${submissionId}`;
}

/** The submission id an identifier of this repository names; null for any other identifier. */
export function parseOaiIdentifier(host: string, identifier: string): number | null {
  const prefix = `oai:${host}:`;
  if (!identifier.startsWith(prefix)) return null;
  const rest = identifier.slice(prefix.length);
  if (!/^[1-9]\d{0,15}$/.test(rest)) return null;
  const id = Number(rest);
  return Number.isSafeInteger(id) ? id : null;
}

export type SetKind = "programme" | "degree";

/**
 * A set's slug: lower-case letters and digits, runs of anything else one hyphen. Two names with
 * the same slug ("M.Phil. Economics", "MPhil-Economics") are one set, holding both.
 */
export function setSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "unnamed" : slug;
}

export function setSpec(kind: SetKind, name: string): string {
  return `${kind}:${setSlug(name)}`;
}

/** A set argument: its kind and slug; null when it is none of this repository's shapes. */
export function parseSetSpec(spec: string): { kind: SetKind; slug: string } | null {
  const match = /^(programme|degree):([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(spec);
  if (!match) return null;
  return { kind: match[1] as SetKind, slug: match[2] as string };
}

// ---------------------------------------------------------------------------------------------
// XML

const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Character data with the characters XML 1.0 cannot carry dropped. */
export function xmlText(text: string): string {
  return text
    .replace(FORBIDDEN, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

/** A response date: now, to the second, in UTC. */
export function responseDate(now: Date): string {
  return toDatestamp(now.toISOString());
}

/**
 * The envelope around every answer: responseDate, the request (its arguments echoed as
 * attributes, only when they were legal), then `body` (a verb's element or the errors).
 */
export function oaiEnvelope(baseUrl: string, now: Date, args: OaiArguments, body: string): string {
  const attributes = Object.entries(args)
    .map(([name, value]) => ` ${name}="${xmlAttribute(value)}"`)
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<OAI-PMH xmlns="${OAI_NAMESPACE}" xmlns:xsi="${XSI_NAMESPACE}" xsi:schemaLocation="${OAI_NAMESPACE} ${OAI_SCHEMA}">` +
    `<responseDate>${responseDate(now)}</responseDate>` +
    `<request${attributes}>${xmlText(baseUrl)}</request>` +
    body +
    `</OAI-PMH>\n`
  );
}

export function errorElements(errors: OaiError[]): string {
  return errors.map((e) => `<error code="${e.code}">${xmlText(e.message)}</error>`).join("");
}
