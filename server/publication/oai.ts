import type { Executor } from "../db/database.js";
import type { PublicSiteConfig } from "../config.js";
import type { PublishedRecord } from "../../common/publication.js";
import { dublinCore, OAI_DC_NAMESPACE, OAI_DC_SCHEMA } from "./formats/dublin-core.js";
import { etdms, ETDMS_NAMESPACE, ETDMS_SCHEMA } from "./formats/etdms.js";
import { MARC_NAMESPACE, MARC_SCHEMA, marcXml } from "./formats/marcxml.js";
import type { FormatLinks } from "./formats/links.js";
import {
  checkRange,
  errorElements,
  oaiEnvelope,
  oaiIdentifier,
  OAI_PAGE_SIZE,
  OAI_TOKEN_LIFETIME_MS,
  parseOaiIdentifier,
  parseOaiRequest,
  parseSetSpec,
  setSpec,
  toDatestamp,
  xmlAttribute,
  xmlText,
  type OaiArguments,
  type OaiError,
} from "./oai-protocol.js";
import { decodeToken, encodeToken, type TokenPayload } from "./oai-tokens.js";
import {
  degreesWithSlug,
  earliestDatestamp,
  findOaiHeader,
  listOaiHeaders,
  listOaiSets,
  programmesWithSlug,
  type OaiHeaderRow,
} from "./oai-repository.js";
import { readPublishedRecords } from "./repository.js";
import { publicSecret } from "./public-secrets.js";

/**
 * The OAI-PMH 2.0 provider's verbs (docs/decisions/027-oai-pmh-and-public-pages.md): one request's
 * arguments in, the whole XML answer out. Protocol errors are answers (HTTP 200 with <error>), as
 * the protocol says; only a fault of ours is an HTTP error.
 */

export interface OaiContext {
  db: Executor;
  publicUrl: string;
  site: PublicSiteConfig;
  now: Date;
}

interface MetadataFormat {
  schema: string;
  namespace: string;
  render: (record: PublishedRecord, links: FormatLinks) => string;
}

/** The formats every record is disseminated in: Dublin Core, ETD-MS and MARC 21 (MARCXML). */
export const METADATA_FORMATS: Record<string, MetadataFormat> = {
  oai_dc: { schema: OAI_DC_SCHEMA, namespace: OAI_DC_NAMESPACE, render: dublinCore },
  etdms: { schema: ETDMS_SCHEMA, namespace: ETDMS_NAMESPACE, render: etdms },
  marc21: { schema: MARC_SCHEMA, namespace: MARC_NAMESPACE, render: marcXml },
};

/** The schema's patterns for what a <request> element may echo (OAI-PMH.xsd). */
const METADATA_PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;
const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

class OaiFailure {
  constructor(
    readonly errors: OaiError[],
    /** Whether the request's arguments are echoed: never after badArgument or badVerb. */
    readonly echo: boolean,
  ) {}
}

function fail(code: OaiError["code"], message: string): OaiFailure {
  return new OaiFailure([{ code, message }], code !== "badArgument" && code !== "badVerb");
}

/** Answers one OAI-PMH request given as its name/value pairs (query string or form). */
export async function answerOai(context: OaiContext, pairs: [string, string][]): Promise<string> {
  const baseUrl = `${context.publicUrl}/oai`;
  const parsed = parseOaiRequest(pairs);
  if (!parsed.ok) {
    return oaiEnvelope(baseUrl, context.now, {}, errorElements(parsed.errors));
  }
  const args = parsed.args;
  try {
    const body = await answerVerb(context, parsed.verb, args);
    return oaiEnvelope(baseUrl, context.now, args, body);
  } catch (error) {
    if (!(error instanceof OaiFailure)) throw error;
    return oaiEnvelope(baseUrl, context.now, error.echo ? args : {}, errorElements(error.errors));
  }
}

async function answerVerb(context: OaiContext, verb: string, args: OaiArguments): Promise<string> {
  switch (verb) {
    case "Identify":
      return identify(context);
    case "ListMetadataFormats":
      return listMetadataFormats(context, args);
    case "ListSets":
      return listSets(context, args);
    case "GetRecord":
      return getRecord(context, args);
    default:
      return listRecords(context, verb as "ListRecords" | "ListIdentifiers", args);
  }
}

async function identify(context: OaiContext): Promise<string> {
  const earliest = await earliestDatestamp(context.db);
  return (
    `<Identify>` +
    `<repositoryName>${xmlText(context.site.repositoryName)}</repositoryName>` +
    `<baseURL>${xmlText(`${context.publicUrl}/oai`)}</baseURL>` +
    `<protocolVersion>2.0</protocolVersion>` +
    `<adminEmail>${xmlText(context.site.oaiAdminEmail)}</adminEmail>` +
    `<earliestDatestamp>${toDatestamp(earliest ?? context.now.toISOString())}</earliestDatestamp>` +
    // A withdrawn thesis stays as a deleted record for as long as its submission exists; an
    // administrator can still delete the submission itself, which leaves no trace: transient.
    `<deletedRecord>transient</deletedRecord>` +
    `<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>` +
    `</Identify>`
  );
}

function checkPrefix(prefix: string): MetadataFormat {
  if (!METADATA_PREFIX.test(prefix)) {
    throw fail("badArgument", 'The argument "metadataPrefix" is not a metadata prefix.');
  }
  const format = METADATA_FORMATS[prefix];
  if (!format) {
    throw fail(
      "cannotDisseminateFormat",
      `"${prefix}" is not a metadata format of this repository (oai_dc, etdms, marc21).`,
    );
  }
  return format;
}

async function headerOf(context: OaiContext, identifier: string): Promise<OaiHeaderRow> {
  const id = parseOaiIdentifier(context.site.oaiIdentifierHost, identifier);
  const header = id === null ? null : await findOaiHeader(context.db, id);
  if (!header) {
    throw fail("idDoesNotExist", `"${identifier}" is not an identifier in this repository.`);
  }
  return header;
}

async function listMetadataFormats(context: OaiContext, args: OaiArguments): Promise<string> {
  if (args.identifier !== undefined) await headerOf(context, args.identifier);
  const formats = Object.entries(METADATA_FORMATS)
    .map(
      ([prefix, f]) =>
        `<metadataFormat><metadataPrefix>${prefix}</metadataPrefix>` +
        `<schema>${xmlText(f.schema)}</schema>` +
        `<metadataNamespace>${xmlText(f.namespace)}</metadataNamespace></metadataFormat>`,
    )
    .join("");
  return `<ListMetadataFormats>${formats}</ListMetadataFormats>`;
}

async function listSets(context: OaiContext, args: OaiArguments): Promise<string> {
  if (args.resumptionToken !== undefined) {
    // The set list is never paged, so no token of ours belongs here.
    throw fail("badResumptionToken", "ListSets is answered whole; this token is not one of its.");
  }
  const sets = await listOaiSets(context.db);
  if (sets.length === 0) {
    // The schema wants at least one set in ListSets: with no published thesis there is no set.
    throw fail("noSetHierarchy", "There are no sets yet: no thesis has been published.");
  }
  const seen = new Set<string>();
  const items: string[] = [];
  for (const set of sets) {
    const spec = setSpec(set.kind, set.name);
    if (seen.has(spec)) continue;
    seen.add(spec);
    const label = set.kind === "programme" ? "Programme" : "Degree";
    items.push(
      `<set><setSpec>${spec}</setSpec><setName>${xmlText(`${label}: ${set.name}`)}</setName></set>`,
    );
  }
  return `<ListSets>${items.join("")}</ListSets>`;
}

function headerXml(context: OaiContext, header: OaiHeaderRow): string {
  const status = header.withdrawn ? ` status="deleted"` : "";
  return (
    `<header${status}>` +
    `<identifier>${xmlText(oaiIdentifier(context.site.oaiIdentifierHost, header.submissionId))}</identifier>` +
    `<datestamp>${toDatestamp(header.datestamp)}</datestamp>` +
    `<setSpec>${setSpec("programme", header.programme)}</setSpec>` +
    `<setSpec>${setSpec("degree", header.degreeName)}</setSpec>` +
    `</header>`
  );
}

/** A record: its header, and its metadata unless it is deleted (withdrawn). */
function recordXml(
  context: OaiContext,
  header: OaiHeaderRow,
  format: MetadataFormat,
  record: PublishedRecord | undefined,
): string | null {
  if (header.withdrawn) return `<record>${headerXml(context, header)}</record>`;
  if (!record) return null;
  const metadata = format.render(record, { publicUrl: context.publicUrl });
  return `<record>${headerXml(context, header)}<metadata>${metadata}</metadata></record>`;
}

/** The page's records, read together (withdrawn ones need none: they are deleted headers). */
async function recordsOf(
  context: OaiContext,
  headers: OaiHeaderRow[],
): Promise<Map<number, PublishedRecord>> {
  const ids = headers.filter((h) => !h.withdrawn).map((h) => h.submissionId);
  return readPublishedRecords(context.db, ids, context.now.toISOString());
}

async function getRecord(context: OaiContext, args: OaiArguments): Promise<string> {
  const format = checkPrefix(args.metadataPrefix as string);
  const header = await headerOf(context, args.identifier as string);
  const records = await recordsOf(context, [header]);
  const record = recordXml(context, header, format, records.get(header.submissionId));
  if (record === null) {
    throw fail("idDoesNotExist", `"${args.identifier}" is not an identifier in this repository.`);
  }
  return `<GetRecord>${record}</GetRecord>`;
}

/** The query of a list's first request, checked; the harvest's bound is fixed now. */
function firstQuery(
  context: OaiContext,
  verb: "ListRecords" | "ListIdentifiers",
  args: OaiArguments,
): TokenPayload {
  const prefix = args.metadataPrefix as string;
  checkPrefix(prefix);
  const range = checkRange(args.from, args.until);
  if (!("ok" in range)) throw fail(range.code, range.message);
  if (args.set !== undefined && !SET_SPEC.test(args.set)) {
    throw fail("badArgument", 'The argument "set" is not a setSpec.');
  }
  return {
    v: 1,
    verb,
    metadataPrefix: prefix,
    set: args.set ?? null,
    from: args.from ?? null,
    until: args.until ?? null,
    bound: context.now.toISOString(),
    after: 0,
    cursor: 0,
    expires: 0,
  };
}

async function tokenQuery(
  context: OaiContext,
  verb: "ListRecords" | "ListIdentifiers",
  token: string,
): Promise<TokenPayload> {
  const key = await publicSecret(context.db, "oai-resumption-token");
  const reading = decodeToken(key, token, context.now.getTime());
  if (!reading.ok) {
    throw fail(
      "badResumptionToken",
      reading.reason === "expired"
        ? "The resumption token has expired: start the list again."
        : "The resumption token is not one this repository issued.",
    );
  }
  if (reading.payload.verb !== verb) {
    throw fail("badResumptionToken", `The resumption token belongs to ${reading.payload.verb}.`);
  }
  return reading.payload;
}

async function listRecords(
  context: OaiContext,
  verb: "ListRecords" | "ListIdentifiers",
  args: OaiArguments,
): Promise<string> {
  const query =
    args.resumptionToken !== undefined
      ? await tokenQuery(context, verb, args.resumptionToken)
      : firstQuery(context, verb, args);
  const format = checkPrefix(query.metadataPrefix);
  const range = checkRange(query.from ?? undefined, query.until ?? undefined);
  if (!("ok" in range)) throw fail(range.code, range.message);

  let programmes: string[] | null = null;
  let degreeIds: number[] | null = null;
  if (query.set !== null) {
    const set = parseSetSpec(query.set);
    if (set?.kind === "programme") {
      programmes = await programmesWithSlug(context.db, set.slug, context.now.getTime());
    } else if (set?.kind === "degree") {
      degreeIds = await degreesWithSlug(context.db, set.slug);
    }
    if (!set || (programmes ?? degreeIds ?? []).length === 0) {
      throw fail("noRecordsMatch", `The set "${query.set}" holds no records.`);
    }
  }
  const headers = await listOaiHeaders(
    context.db,
    {
      after: query.after,
      bound: query.bound,
      from: range.from,
      until: range.until,
      programmes,
      degreeIds,
    },
    OAI_PAGE_SIZE + 1,
  );
  if (headers.length === 0) {
    throw fail("noRecordsMatch", "No records match these arguments.");
  }
  const page = headers.slice(0, OAI_PAGE_SIZE);
  const more = headers.length > OAI_PAGE_SIZE;

  let items: string[];
  if (verb === "ListIdentifiers") {
    items = page.map((h) => headerXml(context, h));
  } else {
    const records = await recordsOf(context, page);
    items = page
      .map((h) => recordXml(context, h, format, records.get(h.submissionId)))
      .filter((r): r is string => r !== null);
    if (items.length === 0) throw fail("noRecordsMatch", "No records match these arguments.");
  }

  let token = "";
  if (more) {
    const last = page[page.length - 1] as OaiHeaderRow;
    const expires = context.now.getTime() + OAI_TOKEN_LIFETIME_MS;
    const next: TokenPayload = {
      ...query,
      after: last.submissionId,
      cursor: query.cursor + page.length,
      expires,
    };
    const key = await publicSecret(context.db, "oai-resumption-token");
    const expirationDate = toDatestamp(new Date(expires).toISOString());
    token =
      `<resumptionToken expirationDate="${expirationDate}" cursor="${query.cursor}">` +
      `${xmlText(encodeToken(key, next))}</resumptionToken>`;
  } else if (query.cursor > 0) {
    // The last page of a resumed list: an empty token says the list is complete.
    token = `<resumptionToken cursor="${xmlAttribute(String(query.cursor))}"/>`;
  }
  return `<${verb}>${items.join("")}${token}</${verb}>`;
}
