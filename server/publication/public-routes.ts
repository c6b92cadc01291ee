import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import compress from "@fastify/compress";
import { API_COMPRESSION } from "../http/compression.js";
import { contentDisposition } from "../http/content-disposition.js";
import { NOT_A_DOCUMENT_POLICY } from "../http/security-headers.js";
import { openFinalThesis, readPublishedRecord } from "./repository.js";
import {
  countDownload,
  downloadCount,
  ifRangeHolds,
  parseRange,
  readerHash,
  sliceStream,
} from "./downloads.js";
import {
  badPageNumberPage,
  listPage,
  notFoundPage,
  pastTheEndPage,
  PUBLIC_PAGE_POLICY,
  thesisPage,
  type PageSite,
} from "./public-pages.js";
import {
  countSitemapEntries,
  listedProgrammes,
  listPublicTheses,
  PUBLIC_PAGE_SIZE,
  SITEMAP_PAGE_SIZE,
  sitemapEntries,
} from "./public-repository.js";

/**
 * The public side (docs/decisions/027-oai-pmh-and-public-pages.md): `/theses` and `/theses/:id`
 * as server-written HTML (registered before the SPA's history fallback, which never sees them),
 * the thesis file with byte ranges and counting, `sitemap.xml` (an index past 50,000 theses) and
 * `robots.txt`. No session is read: what is here is public to everyone.
 */

/**
 * The deepest page the list shows: OFFSET paging further is a crawler's loop. A page number past
 * it is answered as past the end of the list.
 */
const MAX_LIST_PAGE = 500;
const MAX_QUERY_LENGTH = 200;

export interface PublicRoutesOptions {
  /** URLs per sitemap file (tests use a few). */
  sitemapPageSize?: number;
}

function firstValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstValue(value[0]);
  return typeof value === "string" ? value : undefined;
}

/**
 * The list's `page`: absent or empty is page 1; a whole number from 1 (leading zeros allowed) is
 * that page, however many digits (read as a float, a long one is past MAX_LIST_PAGE all the
 * same); anything else (`abc`, `0`, `-1`, `1.5`) is null, a 400.
 */
function listPageNumber(text: string | undefined): number | null {
  if (text === undefined || text === "") return 1;
  const digits = /^0*([1-9]\d*)$/.exec(text)?.[1];
  return digits === undefined ? null : Number(digits);
}

/** A thesis id from the path: digits only, within the ids a row can have. */
function thesisId(raw: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

export const publicRoutes: FastifyPluginAsync<PublicRoutesOptions> = async (app, options) => {
  const sitemapPageSize = options.sitemapPageSize ?? SITEMAP_PAGE_SIZE;
  // In this plugin's scope only: the pages, robots.txt and the sitemaps over 1 KB go out as brotli
  // or gzip (HTML and XML are compressible in mime-db); the thesis PDF is not (mime-db), so its
  // ranges and Content-Length stay the file's bytes.
  await app.register(compress, API_COMPRESSION);
  const site = (): PageSite => ({
    repositoryName: app.config.publicSite.repositoryName,
    institution: app.config.publicSite.institution,
    publicUrl: app.config.publicUrl,
  });
  // A page is cached five minutes; an error page not at all (the header must be set before send:
  // once sent, a header set on the reply goes nowhere).
  const sendPage = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .type("text/html; charset=utf-8")
      .header("content-security-policy", PUBLIC_PAGE_POLICY)
      .header("cache-control", status === 200 ? "public, max-age=300" : "no-cache")
      .send(body);
  const notFound = (reply: FastifyReply) => sendPage(reply, 404, notFoundPage(site()));

  app.get("/theses", { schema: { hide: true } }, async (request, reply) => {
    const raw = request.query as Record<string, unknown>;
    const q = firstValue(raw.q)?.trim().slice(0, MAX_QUERY_LENGTH) || undefined;
    const programme = firstValue(raw.programme)?.trim().slice(0, MAX_QUERY_LENGTH) || undefined;
    const keyword = firstValue(raw.keyword)?.trim().slice(0, MAX_QUERY_LENGTH) || undefined;
    const requested = listPageNumber(firstValue(raw.page));
    const search = { q, programme, keyword };
    if (requested === null) {
      const programmes = await listedProgrammes(app.db);
      return sendPage(reply, 400, badPageNumberPage(site(), search, programmes));
    }
    // Past the deepest page the list shows, page 1 is read for its total: no deep OFFSET.
    const query = { ...search, page: requested > MAX_LIST_PAGE ? 1 : requested };
    const [result, programmes] = await Promise.all([
      listPublicTheses(app.db, query),
      listedProgrammes(app.db),
    ]);
    if (requested > MAX_LIST_PAGE || (requested > 1 && result.items.length === 0)) {
      const past = pastTheEndPage(
        site(),
        query,
        result,
        programmes,
        PUBLIC_PAGE_SIZE,
        MAX_LIST_PAGE,
      );
      return sendPage(reply, 404, past);
    }
    return sendPage(
      reply,
      200,
      listPage(site(), query, result, programmes, PUBLIC_PAGE_SIZE, MAX_LIST_PAGE),
    );
  });

  app.get("/theses/:id", { schema: { hide: true } }, async (request, reply) => {
    const id = thesisId((request.params as { id: string }).id);
    if (id === null) return notFound(reply);
    const record = await readPublishedRecord(app.db, id, new Date().toISOString());
    if (!record) return notFound(reply);
    const downloads = await downloadCount(app.db, id);
    return sendPage(reply, 200, thesisPage(site(), { record, downloads }));
  });

  app.get("/theses/:id/file", { schema: { hide: true } }, async (request, reply) => {
    const id = thesisId((request.params as { id: string }).id);
    if (id === null) return notFound(reply);
    const record = await readPublishedRecord(app.db, id, new Date().toISOString());
    // Embargoed or withdrawn: the file is not here for anyone on this side.
    if (!record || !record.filesPublic || record.withdrawn !== null || record.file === null) {
      return notFound(reply);
    }
    const file = await openFinalThesis(app.db, app.storage, id);
    if (!file) return notFound(reply);
    const etag = `"${file.sha256}"`;
    void reply
      .header("accept-ranges", "bytes")
      .header("etag", etag)
      .header("content-security-policy", NOT_A_DOCUMENT_POLICY)
      .header("cache-control", "public, max-age=300")
      .header("content-disposition", contentDisposition("inline", file.fileName))
      .type(file.contentType);

    if (request.headers["if-none-match"] === etag) {
      file.stream.destroy();
      return reply.code(304).send();
    }
    const rangeHeader = ifRangeHolds(firstValue(request.headers["if-range"]), etag)
      ? firstValue(request.headers.range)
      : undefined;
    const range = parseRange(rangeHeader, file.size);
    if (range.kind === "unsatisfiable") {
      file.stream.destroy();
      return reply
        .code(416)
        .header("content-range", `bytes */${file.size}`)
        .type("text/plain; charset=utf-8")
        .send("The requested range is not within the file.");
    }
    if (range.kind === "whole" || range.start === 0) await count(request, id);
    if (range.kind === "whole") {
      return reply.code(200).header("content-length", file.size).send(file.stream);
    }
    return reply
      .code(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${file.size}`)
      .header("content-length", range.end - range.start + 1)
      .send(sliceStream(file.stream, range.start, range.end));
  });

  /** A download from its first byte, by a GET (a HEAD reads nothing). */
  const count = async (request: FastifyRequest, id: number) => {
    if (request.method !== "GET") return;
    const reader = await readerHash(app.db, request.ip, request.headers["user-agent"] ?? "");
    await countDownload(app.db, id, reader);
  };

  app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .header("content-security-policy", NOT_A_DOCUMENT_POLICY)
      .send(
        `User-agent: *\nAllow: /theses\nDisallow: /api/\n\nSitemap: ${app.config.publicUrl}/sitemap.xml\n`,
      ),
  );

  const sendXml = (reply: FastifyReply, xml: string) =>
    reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .header("content-security-policy", NOT_A_DOCUMENT_POLICY)
      .send(xml);

  const urlset = (urls: { loc: string; lastmod?: string }[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    urls
      .map(
        (u) =>
          `<url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`,
      )
      .join("\n") +
    `\n</urlset>\n`;

  app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
    const total = await countSitemapEntries(app.db);
    const base = app.config.publicUrl;
    if (total + 1 <= sitemapPageSize) {
      const entries = await sitemapEntries(app.db, 1, sitemapPageSize);
      return sendXml(
        reply,
        urlset([
          { loc: `${base}/theses` },
          ...entries.map((e) => ({
            loc: `${base}/theses/${e.submissionId}`,
            lastmod: e.datestamp.slice(0, 10),
          })),
        ]),
      );
    }
    const files = Math.ceil(total / sitemapPageSize);
    const items = Array.from(
      { length: files },
      (_, i) => `<sitemap><loc>${escapeXml(`${base}/sitemap-${i + 1}.xml`)}</loc></sitemap>`,
    );
    return sendXml(
      reply,
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`,
    );
  });

  app.get("/sitemap-:page", { schema: { hide: true } }, async (request, reply) => {
    const match = /^([1-9]\d{0,5})\.xml$/.exec((request.params as { page: string }).page);
    if (!match) return notFound(reply);
    const pageNumber = Number(match[1]);
    const entries = await sitemapEntries(app.db, pageNumber, sitemapPageSize);
    if (entries.length === 0) return notFound(reply);
    const base = app.config.publicUrl;
    return sendXml(
      reply,
      urlset(
        entries.map((e) => ({
          loc: `${base}/theses/${e.submissionId}`,
          lastmod: e.datestamp.slice(0, 10),
        })),
      ),
    );
  });
};

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
