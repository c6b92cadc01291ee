import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import { DOMParser } from "@xmldom/xmldom";
import type { SwordConfig } from "../config.js";

/**
 * A SWORD v2 client, the three requests a deposit needs (SWORD 2.0 profile, sections 6.1, 6.3.3
 * and 9.3): read the service document, POST a package to a collection, and complete an item
 * that was deposited In-Progress. The repository's answers are untrusted: bodies are read up to
 * 1 MB and parsed as XML; what is kept of them is short and never carries our credentials, which
 * travel only in the Authorization header (docs/decisions/026-library-exports-and-deposit.md).
 */

export const METS_DSPACE_SIP = "http://purl.org/net/sword/package/METSDSpaceSIP";
const APP_NS = "http://www.w3.org/2007/app";
const ATOM_NS = "http://www.w3.org/2005/Atom";
const SWORD_NS = "http://purl.org/net/sword/terms/";
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A request that has not answered by then failed (the package may be large: minutes). */
const REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

export class SwordError extends Error {
  override name = "SwordError";
}

export interface DepositReceipt {
  /** The item's Edit-IRI (Location, or the receipt's rel="edit" link). */
  editIri: string;
  /** Where to POST more to the item, and to complete it (rel=".../add"); the Edit-IRI if absent. */
  seIri: string;
  /** The item's public address (rel="alternate"), a handle URL in DSpace; null until it has one. */
  alternate: string | null;
}

export interface SwordPackage {
  path: string;
  size: number;
  md5: string;
  fileName: string;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class SwordClient {
  constructor(private readonly config: SwordConfig) {}

  /** The first collection of the service document that takes METS DSpace SIP packages. */
  async collection(): Promise<string> {
    const answer = await this.request("GET", this.config.serviceDocumentUrl, {});
    if (answer.status !== 200) {
      throw new SwordError(`the service document answered ${answer.status}${summaryOf(answer)}`);
    }
    const doc = parseXml(answer.body, "the service document");
    const collections = Array.from(doc.getElementsByTagNameNS(APP_NS, "collection")) as Element[];
    for (const collection of collections) {
      const packaging = (
        Array.from(collection.getElementsByTagNameNS(SWORD_NS, "acceptPackaging")) as Element[]
      ).map((node) => (node.textContent ?? "").trim());
      const href = collection.getAttribute("href");
      if (href && packaging.includes(METS_DSPACE_SIP)) {
        return new URL(href, this.config.serviceDocumentUrl).toString();
      }
    }
    throw new SwordError(
      "the service document names no collection that accepts METS DSpace SIP packages",
    );
  }

  /** POSTs the package to the collection (a new item); In-Progress as asked. */
  async deposit(
    collection: string,
    pkg: SwordPackage,
    options: { slug: string; inProgress: boolean },
  ): Promise<DepositReceipt> {
    const answer = await this.request(
      "POST",
      collection,
      {
        "content-type": "application/zip",
        "content-length": String(pkg.size),
        "content-disposition": `attachment; filename=${pkg.fileName}`,
        "content-md5": pkg.md5,
        packaging: METS_DSPACE_SIP,
        "in-progress": options.inProgress ? "true" : "false",
        slug: options.slug,
      },
      pkg.path,
    );
    if (answer.status !== 201 && answer.status !== 200) {
      throw new SwordError(`the deposit answered ${answer.status}${summaryOf(answer)}`);
    }
    return receiptOf(answer, collection);
  }

  /** Completes an item deposited In-Progress (an empty POST to its SE-IRI, In-Progress: false). */
  async complete(seIri: string): Promise<DepositReceipt> {
    const answer = await this.request("POST", seIri, {
      "content-length": "0",
      "in-progress": "false",
    });
    if (answer.status !== 200 && answer.status !== 201) {
      throw new SwordError(`completing the deposit answered ${answer.status}${summaryOf(answer)}`);
    }
    return receiptOf(answer, seIri);
  }

  private request(
    method: "GET" | "POST",
    address: string,
    headers: Record<string, string>,
    bodyPath?: string,
  ): Promise<Answer> {
    const url = new URL(address);
    if (url.username || url.password) {
      // An address from the repository never carries credentials onward, nor into a message.
      url.username = "";
      url.password = "";
    }
    const basic = Buffer.from(`${this.config.username}:${this.config.password}`).toString("base64");
    const transport = url.protocol === "https:" ? https : http;
    return new Promise<Answer>((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method,
          headers: {
            ...headers,
            authorization: `Basic ${basic}`,
            accept: "application/atomsvc+xml, application/atom+xml, application/xml;q=0.9",
          },
          timeout: REQUEST_TIMEOUT_MS,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
          });
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          response.on("error", (error) => reject(networkError(method, url, error)));
        },
      );
      request.on("timeout", () => request.destroy(new Error("no answer in time")));
      request.on("error", (error) => reject(networkError(method, url, error)));
      if (bodyPath) {
        const body = fs.createReadStream(bodyPath);
        body.on("error", (error) => request.destroy(error));
        body.pipe(request);
      } else {
        request.end();
      }
    });
  }
}

/** What went wrong on the way, naming the address without credentials (url has none). */
function networkError(method: string, url: URL, error: Error): SwordError {
  const code = (error as NodeJS.ErrnoException).code;
  return new SwordError(
    `${method} ${url.origin}${url.pathname} failed: ${code ?? error.message}`.slice(0, 300),
  );
}

function parseXml(text: string, what: string): Document {
  const problems: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  }).parseFromString(text, "text/xml");
  if (problems.length > 0 || !doc.documentElement) {
    throw new SwordError(`${what} is not well-formed XML`);
  }
  return doc as unknown as Document;
}

/** The deposit receipt (an Atom entry): the item's IRIs and, once it has one, its address. */
function receiptOf(answer: Answer, base: string): DepositReceipt {
  const location = typeof answer.headers.location === "string" ? answer.headers.location : null;
  let links: { rel: string; href: string }[] = [];
  if (answer.body.trim() !== "") {
    const doc = parseXml(answer.body, "the deposit receipt");
    links = (Array.from(doc.getElementsByTagNameNS(ATOM_NS, "link")) as Element[]).map((link) => ({
      rel: link.getAttribute("rel") ?? "",
      href: new URL(link.getAttribute("href") ?? "", base).toString(),
    }));
  }
  const find = (rel: string) => links.find((link) => link.rel === rel)?.href ?? null;
  const editIri = find("edit") ?? (location ? new URL(location, base).toString() : null);
  if (!editIri) throw new SwordError("the deposit receipt names no Edit-IRI");
  return {
    editIri,
    seIri: find(`${SWORD_NS}add`) ?? editIri,
    alternate: find("alternate"),
  };
}

/** The repository's own words for an error (sword:error's atom:summary), short. */
function summaryOf(answer: Answer): string {
  try {
    const doc = parseXml(answer.body, "the error");
    const summary = doc.getElementsByTagNameNS(ATOM_NS, "summary")[0]?.textContent?.trim();
    return summary ? `: ${summary.slice(0, 200)}` : "";
  } catch {
    return "";
  }
}

/** MD5 of a file, hex (Content-MD5 in SWORD v2 is the hex digest, section 6.3.3). */
export async function md5OfFile(filePath: string): Promise<string> {
  const hash = createHash("md5");
  for await (const chunk of fs.createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
