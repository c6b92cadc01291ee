import zlib from "node:zlib";
import Fastify from "fastify";
import { JSDOM } from "jsdom";
import type { Updateable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { publishThesis } from "../../testing/public-theses.js";
import { uniquePdf } from "../../testing/documents.js";
import { createUser } from "../../testing/factories.js";
import { downloadCount, countDownload, parseRange, sweepDownloadReaders } from "./downloads.js";
import { jsonForScript } from "./public-pages.js";
import { rebuildPublicKeywords } from "../db/dialect.js";
import type { PublicationsTable } from "../db/schema.js";
import { listPublicTheses } from "./public-repository.js";
import { publicRoutes } from "./public-routes.js";

let t: TestApp;
let open: number;
let embargoed: number;
let withdrawn: number;
let unpublished: number;
// Past 64 KB, so the store's stream comes in several chunks and a range crosses them.
const pdf = Buffer.concat([uniquePdf(), Buffer.alloc(200_000, 0x20)]);

beforeAll(async () => {
  t = await createTestApp({ ETS_INSTITUTION: "University of Ghana" });
  open = await publishThesis(t, {
    studentName: "Ama Mensah",
    title: "Cocoa prices </script><b>and</b> farmers",
    abstract: "First paragraph.\n\nSecond paragraph.",
    programme: "MPhil Agricultural Economics",
    keywords: ["cocoa", "price risk"],
    awardDate: "2026-07-30",
    file: pdf,
  });
  embargoed = await publishThesis(t, {
    studentName: "Kofi Owusu",
    title: "Mobile money in rural Ghana",
    programme: "MPhil Economics",
    keywords: ["mobile money"],
    embargo: "1y",
    embargoUntil: "2099-03-12",
    file: true,
  });
  withdrawn = await publishThesis(t, {
    studentName: "Yaa Asantewaa",
    title: "A withdrawn study",
    withdrawn: { at: "2026-08-03T10:00:00.000Z", reason: "Data could not be verified" },
    file: true,
  });
  unpublished = await publishThesis(t, { title: "Not yet public" });
  await t.db
    .updateTable("publications")
    .set({ published_at: null })
    .where("submission_id", "=", unpublished)
    .execute();
});
afterAll(async () => {
  await t.close();
});

async function page(url: string) {
  const response = await t.app.inject({ method: "GET", url });
  const dom = new JSDOM(response.body);
  return { response, document: dom.window.document };
}

function meta(document: Document, name: string): string[] {
  return Array.from(document.querySelectorAll(`meta[name="${name}"]`)).map(
    (m) => m.getAttribute("content") ?? "",
  );
}

describe("/theses/:id", () => {
  it("shows the record, the citation tags and the JSON-LD, with the file link", async () => {
    const { response, document } = await page(`/theses/${open}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(document.querySelector("h1")?.textContent).toBe(
      "Cocoa prices </script><b>and</b> farmers",
    );
    expect(document.querySelector("h1 b")).toBeNull();
    expect(meta(document, "citation_title")).toEqual(["Cocoa prices </script><b>and</b> farmers"]);
    expect(meta(document, "citation_author")).toEqual(["Ama Mensah"]);
    expect(meta(document, "citation_publication_date")).toEqual(["2026/07/30"]);
    expect(meta(document, "citation_dissertation_institution")).toEqual(["University of Ghana"]);
    expect(meta(document, "citation_keywords")).toEqual(["cocoa; price risk"]);
    expect(meta(document, "citation_language")).toEqual(["eng"]);
    expect(meta(document, "citation_pdf_url")).toEqual([
      `http://localhost:3000/theses/${open}/file`,
    ]);

    const scripts = document.querySelectorAll('script[type="application/ld+json"]');
    expect(scripts).toHaveLength(1);
    const ld = JSON.parse(scripts[0]?.textContent ?? "") as Record<string, unknown>;
    expect(ld["@type"]).toBe("Thesis");
    expect(ld.name).toBe("Cocoa prices </script><b>and</b> farmers");
    expect((ld.author as { name: string }).name).toBe("Ama Mensah");
    expect((ld.encoding as { contentUrl: string }).contentUrl).toMatch(/\/file$/);
    // No executable script at all: the page is complete without JavaScript.
    expect(document.querySelectorAll("script:not([type='application/ld+json'])")).toHaveLength(0);

    const text = document.body.textContent ?? "";
    for (const expected of [
      "Ama Mensah",
      "MPhil Agricultural Economics",
      "Master of Philosophy (MPhil)",
      "Kofi Boateng",
      "30 July 2026",
      "14 May 2026",
      "Second paragraph.",
      "version 1",
      "Downloads",
    ]) {
      expect(text).toContain(expected);
    }
    const download = document.querySelector("a.download");
    expect(download?.getAttribute("href")).toBe(`/theses/${open}/file`);
    expect(download?.textContent).toMatch(/^Download PDF \(\d/);
    const keywordLinks = Array.from(document.querySelectorAll("ul.keywords a")).map((a) =>
      a.getAttribute("href"),
    );
    expect(keywordLinks).toEqual(["/theses?keyword=cocoa", "/theses?keyword=price%20risk"]);

    const policy = String(response.headers["content-security-policy"]);
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toMatch(/unsafe-inline/);
    // Tools fetching in the page's frame (Lighthouse's robots.txt check) may read this site; no
    // script may run to use it.
    expect(policy).toMatch(/connect-src 'self'(;|$)/);
    expect(policy).not.toMatch(/script-src/);
  });

  it("goes out compressed to a reader that accepts it, the same page once inflated", async () => {
    const plain = await t.app.inject({ method: "GET", url: `/theses/${open}` });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await t.app.inject({
      method: "GET",
      url: `/theses/${open}`,
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers["content-security-policy"]).toBe(plain.headers["content-security-policy"]);
    expect(br.headers["cache-control"]).toBe("public, max-age=300");
    const inflated = zlib.brotliDecompressSync(br.rawPayload).toString();
    expect(inflated).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);

    const gzip = await t.app.inject({
      method: "GET",
      url: "/theses",
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain("<h1>");
  });

  it("an embargoed thesis: metadata public, no file link, the date it opens", async () => {
    const { response, document } = await page(`/theses/${embargoed}`);
    expect(response.statusCode).toBe(200);
    expect(meta(document, "citation_title")).toEqual(["Mobile money in rural Ghana"]);
    expect(meta(document, "citation_pdf_url")).toEqual([]);
    expect(document.querySelector("a.download")).toBeNull();
    expect(document.body.textContent).toContain("Available from 12 March 2099");
    const ld = JSON.parse(
      document.querySelector('script[type="application/ld+json"]')?.textContent ?? "",
    ) as Record<string, unknown>;
    expect(ld.encoding).toBeUndefined();
  });

  it("a withdrawn thesis says so, with no file link", async () => {
    const { response, document } = await page(`/theses/${withdrawn}`);
    expect(response.statusCode).toBe(200);
    expect(document.body.textContent).toContain(
      "This thesis was withdrawn: Data could not be verified",
    );
    expect(document.querySelector("a.download")).toBeNull();
    expect(meta(document, "robots")).toEqual(["noindex"]);
  });

  it("an unpublished or unknown thesis is a 404 page of its own, not the SPA", async () => {
    for (const url of [`/theses/${unpublished}`, "/theses/999999", "/theses/abc", "/theses/0"]) {
      const { response, document } = await page(url);
      expect(response.statusCode).toBe(404);
      expect(document.querySelector("h1")?.textContent).toBe("Thesis not found");
    }
  });
});

describe("/theses", () => {
  it("lists published theses, newest first, without unpublished or withdrawn ones", async () => {
    const { response, document } = await page("/theses");
    expect(response.statusCode).toBe(200);
    const titles = Array.from(document.querySelectorAll("ol.results li > a")).map(
      (a) => a.textContent,
    );
    expect(titles).toEqual([
      "Mobile money in rural Ghana",
      "Cocoa prices </script><b>and</b> farmers",
    ]);
    expect(document.querySelector("h2")?.textContent).toBe("2 theses");
    // The search form works without JavaScript: a GET form with labelled fields.
    const form = document.querySelector("form[role=search]");
    expect(form?.getAttribute("method")).toBe("get");
    expect(document.querySelector("label[for=q]")?.textContent).toMatch(/title, author or keyword/);
    expect(document.querySelector("label[for=programme]")).not.toBeNull();
  });

  it("searches by title, author, keyword and programme", async () => {
    const titles = async (url: string) =>
      Array.from((await page(url)).document.querySelectorAll("ol.results li > a")).map(
        (a) => a.textContent,
      );
    expect(await titles("/theses?q=MOBILE")).toEqual(["Mobile money in rural Ghana"]);
    expect(await titles("/theses?q=mensah")).toEqual(["Cocoa prices </script><b>and</b> farmers"]);
    expect(await titles("/theses?q=price%20risk")).toEqual([
      "Cocoa prices </script><b>and</b> farmers",
    ]);
    expect(await titles("/theses?programme=MPhil%20Economics")).toEqual([
      "Mobile money in rural Ghana",
    ]);
    expect(await titles("/theses?keyword=cocoa")).toEqual([
      "Cocoa prices </script><b>and</b> farmers",
    ]);
    // A keyword link matches whole keywords only.
    expect(await titles("/theses?keyword=coc")).toEqual([]);
    // The user's text is literal: % and _ match themselves.
    expect(await titles("/theses?q=%25")).toEqual([]);
    expect(await titles("/theses?q=withdrawn")).toEqual([]);
    const none = await page("/theses?q=zzzz");
    expect(none.document.body.textContent).toContain("No published thesis matches");
  });

  it("pages, and caps the total as the admin list does", async () => {
    const first = await listPublicTheses(t.db, { page: 1 }, 1, { totalCap: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.totalCapped).toBe(true);
    const second = await listPublicTheses(t.db, { page: 2 }, 1);
    expect(second.items.map((i) => i.submissionId)).toEqual([open]);
    expect(second.total).toBe(2);
    // Not a page number: a 400 page naming the rule (public-routes-page.test.ts has the rest).
    const bad = await page("/theses?page=0");
    expect(bad.response.statusCode).toBe(400);
    const far = await page("/theses?page=99999");
    expect(far.response.statusCode).toBe(404);
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("robots.txt names the sitemap", async () => {
    const response = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Sitemap: http://localhost:3000/sitemap.xml");
    expect(response.body).toContain("Disallow: /api/");
    // The files stay crawlable: Google Scholar fetches citation_pdf_url.
    expect(response.body).not.toMatch(/Disallow: \/theses/);
  });

  it("lists the list and every listed thesis", async () => {
    const response = await t.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(response.statusCode).toBe(200);
    const dom = new JSDOM(response.body, { contentType: "application/xml" });
    const locs = Array.from(dom.window.document.getElementsByTagName("loc")).map(
      (l) => l.textContent,
    );
    expect(locs).toEqual([
      "http://localhost:3000/theses",
      `http://localhost:3000/theses/${open}`,
      `http://localhost:3000/theses/${embargoed}`,
    ]);
  });

  it("beyond a file's limit, a sitemap index of numbered files", async () => {
    // The same routes with one thesis per sitemap file.
    const small = Fastify();
    small.decorate("db", t.db);
    small.decorate("config", t.config);
    small.decorate("storage", t.app.storage);
    await small.register(publicRoutes, { sitemapPageSize: 1 });
    try {
      const index = await small.inject({ method: "GET", url: "/sitemap.xml" });
      const dom = new JSDOM(index.body, { contentType: "application/xml" });
      expect(dom.window.document.documentElement.tagName).toBe("sitemapindex");
      const locs = Array.from(dom.window.document.getElementsByTagName("loc")).map(
        (l) => l.textContent,
      );
      expect(locs).toEqual([
        "http://localhost:3000/sitemap-1.xml",
        "http://localhost:3000/sitemap-2.xml",
      ]);
      const second = await small.inject({ method: "GET", url: "/sitemap-2.xml" });
      expect(second.body).toContain(`/theses/${embargoed}</loc>`);
      const past = await small.inject({ method: "GET", url: "/sitemap-3.xml" });
      expect(past.statusCode).toBe(404);
    } finally {
      await small.close();
    }
  });
});

describe("/theses/:id/file", () => {
  const ua = (n: number) => ({ "user-agent": `reader ${n}` });

  it("sends the whole file with Accept-Ranges and an ETag", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: ua(1),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["accept-ranges"]).toBe("bytes");
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.rawPayload.equals(pdf)).toBe(true);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
  });

  it("is never compressed, so a range is the file's own bytes", async () => {
    // From byte 100: not counted as a download.
    const response = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { ...ua(2), range: "bytes=100-199", "accept-encoding": "br, gzip" },
    });
    expect(response.statusCode).toBe(206);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["content-length"]).toBe("100");
    expect(response.rawPayload.equals(pdf.subarray(100, 200))).toBe(true);
  });

  it("answers ranges with 206, the last bytes, and 416 past the end", async () => {
    const part = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: "bytes=100-199", ...ua(2) },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${pdf.length}`);
    expect(part.rawPayload.equals(pdf.subarray(100, 200))).toBe(true);

    const across = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: "bytes=65000-140000", ...ua(2) },
    });
    expect(across.statusCode).toBe(206);
    expect(across.headers["content-length"]).toBe("75001");
    expect(across.rawPayload.equals(pdf.subarray(65000, 140001))).toBe(true);

    const tail = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: "bytes=-10", ...ua(2) },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(pdf.subarray(pdf.length - 10))).toBe(true);

    const open_ended = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: `bytes=${pdf.length - 3}-`, ...ua(2) },
    });
    expect(open_ended.rawPayload.equals(pdf.subarray(pdf.length - 3))).toBe(true);

    const past = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: `bytes=${pdf.length}-`, ...ua(2) },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${pdf.length}`);
  });

  it("If-Range: the range only while the ETag still matches", async () => {
    const first = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: ua(3),
    });
    const etag = String(first.headers.etag);
    const same = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: "bytes=0-9", "if-range": etag, ...ua(3) },
    });
    expect(same.statusCode).toBe(206);
    const changed = await t.app.inject({
      method: "GET",
      url: `/theses/${open}/file`,
      headers: { range: "bytes=0-9", "if-range": '"something-else"', ...ua(3) },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(pdf.length);
  });

  it("is 404 while embargoed, when withdrawn, and when not published", async () => {
    for (const id of [embargoed, withdrawn, unpublished]) {
      const response = await t.app.inject({ method: "GET", url: `/theses/${id}/file` });
      expect(response.statusCode).toBe(404);
    }
  });

  it("counts a reader once a minute, shows the count, and never stores the address", async () => {
    const id = await publishThesis(t, { title: "Counted", file: true });
    const get = (headers: Record<string, string>) =>
      t.app.inject({ method: "GET", url: `/theses/${id}/file`, headers });
    await get({ "user-agent": "A" });
    await get({ "user-agent": "A" });
    // A range from the middle is a viewer reading on, not a new download.
    await get({ "user-agent": "B", range: "bytes=10-20" });
    await get({ "user-agent": "C" });
    await t.app.inject({
      method: "HEAD",
      url: `/theses/${id}/file`,
      headers: { "user-agent": "D" },
    });
    expect(await downloadCount(t.db, id)).toBe(2);
    const shown = await page(`/theses/${id}`);
    expect(shown.document.body.textContent).toMatch(/Downloads\s*2/);

    const readers = await t.db
      .selectFrom("thesis_download_readers")
      .select("reader_hash")
      .where("submission_id", "=", id)
      .execute();
    expect(readers).toHaveLength(2);
    for (const r of readers) {
      expect(r.reader_hash).not.toContain("127.0.0.1");
      expect(r.reader_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }

    // A minute later the same reader counts again; the sweep removes readers past their minute.
    const later = new Date(Date.now() + 61_000);
    expect(await countDownload(t.db, id, readers[0]?.reader_hash ?? "", later)).toBe(true);
    expect(await countDownload(t.db, id, readers[0]?.reader_hash ?? "", later)).toBe(false);
    expect(await downloadCount(t.db, id)).toBe(3);
    expect(await sweepDownloadReaders(t.db, new Date(Date.now() + 62_000))).toBeGreaterThanOrEqual(
      1,
    );
  });
});

describe("pieces", () => {
  it("parseRange", () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: "whole" });
    expect(parseRange("bytes=0-", 100)).toEqual({ kind: "part", start: 0, end: 99 });
    expect(parseRange("bytes=90-200", 100)).toEqual({ kind: "part", start: 90, end: 99 });
    expect(parseRange("bytes=-500", 100)).toEqual({ kind: "part", start: 0, end: 99 });
    expect(parseRange("bytes=-0", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=100-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=5-1", 100)).toEqual({ kind: "whole" });
    expect(parseRange("bytes=0-1,5-6", 100)).toEqual({ kind: "whole" });
    expect(parseRange("items=0-1", 100)).toEqual({ kind: "whole" });
  });

  it("jsonForScript cannot end its script block", () => {
    const text = jsonForScript({ a: "</script><script>alert(1)</script><!--" });
    expect(text).not.toMatch(/<\/?script|<!--/i);
    expect(JSON.parse(text)).toEqual({ a: "</script><script>alert(1)</script><!--" });
  });
});

describe("a name beyond ASCII", () => {
  it("is found through the search index, as in the admin list", async () => {
    const id = await publishThesis(t, { studentName: "Adwoa Ɔsei", title: "Fishing communities" });
    const result = await listPublicTheses(t.db, { q: "Ɔsei", page: 1 });
    expect(result.items.map((i) => i.submissionId)).toEqual([id]);
  });
});

describe("the public list's search index (migration 023)", () => {
  // An app of its own: the list above counts its theses.
  let s: TestApp;
  const ids: number[] = [];
  let hidden: { withdrawn: number; unpublished: number; undated: number };

  const names = ["Ama Mensah", "Kofi Owusu", "Yaa Mensah-Bonsu", "Kwame O'Brien", "Esi Ghartey"];
  const titles = [
    "Cocoa prices and smallholder farmers",
    "Mobile money: 50% of savings",
    "Groundwater_recharge in the Volta basin",
    'The "informal" economy of Kumasi',
    "Urban flooding and drainage",
  ];
  const keywordSets = [["cocoa", "price risk"], ["mobile money"], ["ghana", "water"], ["policy"]];
  const programmes = ["MPhil Economics", "MPhil Geography"];

  beforeAll(async () => {
    s = await createTestApp({});
    for (let i = 0; i < 24; i++) {
      ids.push(
        await publishThesis(s, {
          studentName: names[i % names.length] as string,
          title: `${titles[i % titles.length] as string} ${i}`,
          keywords: keywordSets[i % keywordSets.length] as string[],
          programme: programmes[i % programmes.length] as string,
          // Three theses share each moment: the submission id breaks the tie.
          publishedAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 3))).toISOString(),
          ...(i % 7 === 0 ? { embargo: "1y" as const } : {}),
        }),
      );
    }
    // A programme smaller than a term's matches: its theses are tested (publicSearchInRange).
    await publishThesis(s, {
      studentName: "Akosua Mensah",
      title: "Kente weaving in Bonwire",
      keywords: ["kente"],
      programme: "MPhil History",
      publishedAt: new Date(Date.UTC(2026, 0, 4)).toISOString(),
    });
    // Five theses of one moment sharing a keyword: a keyword's range breaks the tie by id.
    for (let i = 0; i < 5; i++) {
      await publishThesis(s, {
        studentName: "Kojo Tetteh",
        title: `Same day study ${i}`,
        keywords: ["same day", i % 2 === 0 ? "even" : "odd"],
        programme: programmes[i % 2] as string,
        publishedAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
      });
    }
    hidden = {
      withdrawn: await publishThesis(s, {
        studentName: "Ama Mensah",
        title: "Cocoa prices withdrawn",
        keywords: ["cocoa"],
        withdrawn: { at: "2026-08-03T10:00:00.000Z", reason: "Data could not be verified" },
      }),
      unpublished: await publishThesis(s, {
        studentName: "Ama Mensah",
        title: "Cocoa prices unpublished",
        keywords: ["cocoa"],
      }),
      undated: await publishThesis(s, {
        studentName: "Ama Mensah",
        title: "Cocoa prices with no award date",
        keywords: ["cocoa"],
      }),
    };
    await s.db
      .updateTable("publications")
      .set({ published_at: null })
      .where("submission_id", "=", hidden.unpublished)
      .execute();
    await s.db
      .updateTable("publications")
      .set({ award_date: null })
      .where("submission_id", "=", hidden.undated)
      .execute();
  });
  afterAll(async () => {
    await s.close();
  });

  /**
   * The list by its definition, computed here from every listed thesis: the term a substring of
   * "title, author, keywords" ignoring (ASCII) case, the keyword a whole keyword, newest first.
   */
  async function expected(query: { q?: string; programme?: string; keyword?: string }) {
    const rows = await s.db
      .selectFrom("publications as p")
      .innerJoin("submissions as sub", "sub.id", "p.submission_id")
      .select([
        "p.submission_id",
        "p.keywords",
        "p.published_at",
        "sub.thesis_title",
        "sub.student_name",
        "sub.programme",
      ])
      .where("p.published_at", "is not", null)
      .where("p.withdrawn_at", "is", null)
      .where("p.award_date", "is not", null)
      .execute();
    const term = query.q?.trim().toLowerCase();
    return rows
      .filter((r) => {
        const keywords = JSON.parse(r.keywords) as string[];
        const text = [r.thesis_title ?? "", r.student_name, ...keywords].join("\u001f");
        return (
          (term === undefined || text.toLowerCase().includes(term)) &&
          (query.programme === undefined || r.programme === query.programme) &&
          (query.keyword === undefined ||
            keywords.some((k) => k.toLowerCase() === query.keyword?.trim().toLowerCase()))
        );
      })
      .sort((a, b) =>
        a.published_at === b.published_at
          ? Number(b.submission_id) - Number(a.submission_id)
          : String(b.published_at) < String(a.published_at)
            ? -1
            : 1,
      )
      .map((r) => Number(r.submission_id));
  }

  // Each way of finding a page, forced by the limits: the default (on PostgreSQL a term alone
  // without a separator from the word postings); the word postings for a term in one word only;
  // the walk along the list's order (or a keyword's range) whole, or bounded within it; a walk
  // too short, so the matches first after it; the matches first at once (these four without the
  // word postings, termWords 0).
  const ways = [
    {},
    { termWords: 1 },
    // A common term's count in one word: its postings merged with a keyword's range.
    { fewMatches: 0, termWords: 1 },
    { fewMatches: 0, walkRows: 1_000, termWords: 0 },
    { fewMatches: 0, walkRows: 6, termWords: 0 },
    { fewMatches: 0, walkRows: 1, termWords: 0 },
    { fewMatches: 1_000_000, termWords: 0 },
  ];

  async function allPages(
    query: { q?: string; programme?: string; keyword?: string },
    limits: (typeof ways)[number],
  ) {
    const found: number[] = [];
    let total = -1;
    for (let page = 1; page <= 20; page++) {
      const result = await listPublicTheses(s.db, { ...query, page }, 4, limits);
      total = result.total;
      expect(result.totalCapped).toBe(false);
      found.push(...result.items.map((i) => i.submissionId));
      if (result.items.length < 4) break;
    }
    return { found, total };
  }

  const queries = [
    { q: "cocoa" }, // a title word
    { q: "MENSAH" }, // the author, in another case
    { q: "price risk" }, // a keyword, with its space
    { q: "mensah-bonsu" },
    { q: "o'brien" }, // a quote
    { q: '"informal"' }, // double quotes: FTS5 syntax, taken literally
    { q: '"' }, // a double quote alone: not the keywords' JSON quotes
    { q: "50%" }, // % and _ are literal
    { q: "%" },
    { q: "r_c" },
    { q: "_" },
    { q: "gh" }, // short terms: no trigram
    { q: "a" },
    { q: "recharge in" },
    { q: "withdrawn" }, // only a withdrawn thesis has it
    { q: "unpublished" },
    { q: "award date" },
    { q: "zzzz" },
    { programme: "MPhil Geography" },
    { keyword: "cocoa" },
    { keyword: "coc" }, // whole keywords only
    { keyword: "Mobile Money" },
    { q: "mensah", programme: "MPhil Economics" },
    { q: "mensah", programme: "MPhil History" },
    { q: "owusu", programme: "MPhil History" },
    { q: "gh", programme: "MPhil History" },
    { q: "a", keyword: "water" },
    // Keyword links (migration 025): alone, in another case, within a programme, with a term
    // (common, rare, without a trigram, none), and with both.
    { keyword: "ghana" },
    { keyword: "GHANA" },
    { keyword: " policy " },
    { keyword: "price" }, // part of a keyword: not a keyword
    { keyword: "water", programme: "MPhil Geography" },
    { keyword: "cocoa", programme: "MPhil Economics" },
    { keyword: "cocoa", programme: "MPhil Geography" },
    { keyword: "ghana", q: "mensah" },
    { keyword: "ghana", q: "groundwater" },
    { keyword: "ghana", q: "gh" },
    { keyword: "cocoa", q: "prices 12" },
    { keyword: "price risk", q: "zzzz" },
    { keyword: "policy", q: "kumasi", programme: "MPhil Geography" },
    { keyword: "mobile money", q: "O", programme: "MPhil Economics" },
    { keyword: "same day" },
    { keyword: "Same Day", programme: "MPhil Economics" },
    { keyword: "same day", q: "study" },
    // The keyword's text elsewhere (a title, an author, part of a keyword) with a common term:
    // the count's candidates hold both texts, and only a whole keyword counts.
    { keyword: "price", q: "cocoa" },
    { keyword: "cocoa", q: "prices" },
    { keyword: "mensah", q: "cocoa" },
    { keyword: "price", q: "cocoa", programme: "MPhil Economics" },
  ];

  it("finds by title, author and keyword, literally, in the list's order and every way", async () => {
    for (const query of queries) {
      const want = await expected(query);
      for (const limits of ways) {
        const { found, total } = await allPages(query, limits);
        expect({ query, limits, found }).toEqual({ query, limits, found: want });
        expect(total).toBe(want.length);
      }
    }
    // The oracle itself is not empty where it should not be.
    expect((await expected({ q: "cocoa" })).length).toBe(9);
    expect((await expected({ q: "%" })).length).toBe(5);
    expect((await expected({ q: '"' })).length).toBe(5);
  });

  it("never lists a withdrawn, unpublished or undated thesis", async () => {
    for (const q of ["cocoa prices", "mensah", "ama", "co"]) {
      for (const limits of ways) {
        const { found } = await allPages({ q }, limits);
        expect(found.length).toBeGreaterThan(0);
        expect(found).not.toContain(hidden.withdrawn);
        expect(found).not.toContain(hidden.unpublished);
        expect(found).not.toContain(hidden.undated);
      }
    }
  });

  it("pages a keyword link with its total capped, every way, as the list's definition", async () => {
    for (const query of [
      { keyword: "cocoa" },
      { keyword: "Ghana", programme: "MPhil Economics" },
      { keyword: "ghana", q: "e" },
      { keyword: "policy", q: "o" },
    ]) {
      const want = await expected(query);
      expect(want.length).toBeGreaterThan(3);
      for (const limits of ways) {
        const capped = { ...limits, totalCap: 3 };
        for (let page = 1; (page - 1) * 2 < want.length; page++) {
          const result = await listPublicTheses(s.db, { ...query, page }, 2, capped);
          expect({ query, limits, page, ids: result.items.map((i) => i.submissionId) }).toEqual({
            query,
            limits,
            page,
            ids: want.slice((page - 1) * 2, page * 2),
          });
          expect(result.total).toBe(3);
          expect(result.totalCapped).toBe(true);
        }
      }
    }
  });

  it("caps the total as the admin list does", async () => {
    const result = await listPublicTheses(s.db, { q: "mensah", page: 1 }, 2, { totalCap: 3 });
    expect(result.total).toBe(3);
    expect(result.totalCapped).toBe(true);
    expect(result.items.map((i) => i.submissionId)).toEqual(
      (await expected({ q: "mensah" })).slice(0, 2),
    );
  });

  it("follows every write: title, name, keywords, withdrawal, publication, deletion", async () => {
    const id = ids[5] as number;
    const search = async (q: string) =>
      (await listPublicTheses(s.db, { q, page: 1 }, 100)).items.map((i) => i.submissionId);
    await s.db
      .updateTable("submissions")
      .set({ thesis_title: "Sickle cell screening" })
      .where("id", "=", id)
      .execute();
    expect(await search("sickle cell")).toEqual([id]);
    await s.db
      .updateTable("submissions")
      .set({ student_name: "Adjoa Quaye" })
      .where("id", "=", id)
      .execute();
    expect(await search("quaye")).toEqual([id]);
    expect(await search("sickle cell")).toEqual([id]);
    await s.db
      .updateTable("publications")
      .set({ keywords: JSON.stringify(["haemoglobin"]) })
      .where("submission_id", "=", id)
      .execute();
    expect(await search("haemoglobin")).toEqual([id]);
    // A change of anything else leaves the text as it was.
    await s.db
      .updateTable("publications")
      .set({ department: "Department of Biochemistry" })
      .where("submission_id", "=", id)
      .execute();
    expect(await search("haemoglobin")).toEqual([id]);
    await s.db
      .updateTable("publications")
      .set({ withdrawn_at: "2026-09-01T00:00:00.000Z", withdrawn_reason: "Duplicate" })
      .where("submission_id", "=", id)
      .execute();
    expect(await search("quaye")).toEqual([]);
    await s.db
      .updateTable("publications")
      .set({ withdrawn_at: null, withdrawn_reason: null })
      .where("submission_id", "=", id)
      .execute();
    expect(await search("quaye")).toEqual([id]);
    // A thesis published later: listed, and found, from then on.
    await s.db
      .updateTable("publications")
      .set({ published_at: "2026-10-01T00:00:00.000Z" })
      .where("submission_id", "=", hidden.unpublished)
      .execute();
    expect(await search("prices unpublished")).toEqual([hidden.unpublished]);
    await s.db.deleteFrom("submissions").where("id", "=", hidden.unpublished).execute();
    expect(await search("prices unpublished")).toEqual([]);
    expect(await search("cocoa prices")).toEqual(await expected({ q: "cocoa prices" }));
  });

  it("moves a thesis between programme lists when an administrator changes its programme", async () => {
    const admin = await createUser(s.db, "admin", { name: "Efua Registrar" });
    const id = ids[3] as number; // MPhil Geography, an author "Kwame O'Brien"
    const inProgramme = async (query: { q?: string; programme: string }) => {
      const lists = [];
      for (const limits of ways) lists.push((await allPages(query, limits)).found);
      return lists;
    };
    expect((await inProgramme({ programme: "MPhil Geography" }))[0]).toContain(id);
    const { version } = await s.db
      .selectFrom("submissions")
      .select("version")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const response = await s.app.inject({
      method: "PATCH",
      url: `/api/admin/submissions/${id}`,
      headers: admin.headers,
      payload: { version, changes: { programme: "MPhil Economics" } },
    });
    expect(response.statusCode).toBe(200);
    for (const query of [
      { programme: "MPhil Economics" },
      { programme: "MPhil Geography" },
      { q: "o'brien", programme: "MPhil Economics" },
      { q: "o'brien", programme: "MPhil Geography" },
    ]) {
      const want = await expected(query);
      expect(want.includes(id)).toBe(query.programme === "MPhil Economics");
      for (const found of await inProgramme(query))
        expect({ query, found }).toEqual({ query, found: want });
    }
    // A withdrawn thesis leaves every programme's list, and keeps its programme when it returns.
    await s.db
      .updateTable("publications")
      .set({ withdrawn_at: "2026-09-01T00:00:00.000Z", withdrawn_reason: "Duplicate" })
      .where("submission_id", "=", id)
      .execute();
    expect((await inProgramme({ programme: "MPhil Economics" }))[0]).not.toContain(id);
    await s.db
      .updateTable("publications")
      .set({ withdrawn_at: null, withdrawn_reason: null })
      .where("submission_id", "=", id)
      .execute();
    expect((await inProgramme({ programme: "MPhil Economics" }))[0]).toContain(id);
    expect((await inProgramme({ programme: "MPhil Geography" }))[0]).not.toContain(id);
  });
});

describe("the keyword links' table (migration 025)", () => {
  let k: TestApp;
  let ids: number[] = [];
  const odd = 'Qu"ote \\ 100% under_SCORE';

  beforeAll(async () => {
    k = await createTestApp({});
    ids = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        await publishThesis(k, {
          studentName: `Author ${i}`,
          title: `Thesis ${i}`,
          programme: i % 2 === 0 ? "MPhil Economics" : "MPhil Geography",
          // Repeated in another case: one row, as the list's lower() sees one keyword.
          keywords: i === 0 ? [odd, "Cocoa", "cocoa", "COCOA"] : ["cocoa", `k${i % 3}`],
          publishedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        }),
      );
    }
  });
  afterAll(async () => {
    await k.close();
  });

  /** The table's rows as a full recomputation from the publications gives them. */
  async function recomputed() {
    const rows = await k.db
      .selectFrom("publications as p")
      .innerJoin("submissions as sub", "sub.id", "p.submission_id")
      .select(["p.submission_id", "p.keywords", "p.published_at", "sub.programme"])
      .where("p.published_at", "is not", null)
      .where("p.withdrawn_at", "is", null)
      .where("p.award_date", "is not", null)
      .where("p.embargo_choice", "is not", null)
      .where("p.licence_version", "is not", null)
      .where("p.degree_id", "is not", null)
      .execute();
    return rows
      .flatMap((r) =>
        [...new Set((JSON.parse(r.keywords) as string[]).map((w) => w.toLowerCase()))].map(
          (keyword) =>
            `${keyword} | ${String(r.published_at)} | ${Number(r.submission_id)} | ${r.programme}`,
        ),
      )
      .sort();
  }

  async function stored() {
    const rows = await k.db.selectFrom("publication_keywords").selectAll().execute();
    return rows
      .map(
        (r) =>
          `${r.keyword} | ${r.published_at} | ${Number(r.submission_id)} | ${r.list_programme}`,
      )
      .sort();
  }

  const keywordLink = async (keyword: string, programme?: string) =>
    (await listPublicTheses(k.db, { keyword, programme, page: 1 }, 100)).items.map(
      (i) => i.submissionId,
    );

  it("equals a full recomputation after every write that can change it", async () => {
    const id = ids[1] as number;
    const check = async (step: string) => {
      expect({ step, rows: await stored() }).toEqual({ step, rows: await recomputed() });
    };
    await check("as published");
    expect((await stored()).length).toBe(2 + 5 * 2);
    const update = (set: Updateable<PublicationsTable>) =>
      k.db.updateTable("publications").set(set).where("submission_id", "=", id).execute();

    await update({ keywords: JSON.stringify(["Malaria", "k1", "malaria"]) });
    await check("keywords edited");
    expect(await keywordLink("MALARIA")).toEqual([id]);
    await update({ published_at: "2027-03-01T00:00:00.000Z" });
    await check("published_at changed");
    await update({ withdrawn_at: "2026-09-01T00:00:00.000Z", withdrawn_reason: "Duplicate" });
    await check("withdrawn");
    expect(await keywordLink("malaria")).toEqual([]);
    await update({ withdrawn_at: null, withdrawn_reason: null });
    await check("withdrawal undone");
    await update({ award_date: null });
    await check("a listing condition cleared");
    await update({ award_date: "2026-07-30", keywords: JSON.stringify(["cocoa"]) });
    await check("the condition back, with other keywords");
    await update({ published_at: null });
    await check("unpublished");
    await update({ published_at: "2026-02-01T00:00:00.000Z" });
    await check("published again");

    await k.db
      .updateTable("submissions")
      .set({ programme: "MPhil History" })
      .where("id", "=", id)
      .execute();
    await check("programme changed");
    expect(await keywordLink("cocoa", "MPhil History")).toEqual([id]);
    expect(await keywordLink("cocoa", "MPhil Geography")).not.toContain(id);

    const before = await stored();
    await k.db
      .updateTable("submissions")
      .set({ student_name: "Someone Else", thesis_title: "Another title" })
      .where("id", "=", id)
      .execute();
    expect(await stored()).toEqual(before);
    await update({ department: "Department of History" });
    expect(await stored()).toEqual(before);

    await k.db
      .deleteFrom("publications")
      .where("submission_id", "=", ids[2] as number)
      .execute();
    await check("publication deleted");
    await k.db
      .deleteFrom("submissions")
      .where("id", "=", ids[3] as number)
      .execute();
    await check("submission deleted");
    await publishThesis(k, { title: "A late one", keywords: ["Late", "cocoa"] });
    await check("a new publication");

    const kept = await stored();
    await rebuildPublicKeywords(k.db);
    expect(await stored()).toEqual(kept);
  });

  it("matches a keyword with quotes, a backslash, % and _ exactly, ignoring case", async () => {
    const first = ids[0] as number;
    expect(await keywordLink(odd)).toEqual([first]);
    expect(await keywordLink(odd.toUpperCase())).toEqual([first]);
    expect(await keywordLink(odd.toLowerCase(), "MPhil Economics")).toEqual([first]);
    expect(await keywordLink(odd, "MPhil Geography")).toEqual([]);
    for (const near of [
      'qu"ote',
      "%",
      "_",
      'Qu"ote \\ 1%0 under_SCORE',
      'Qu"ote \\ 100% under-SCORE',
      'Qu\\"ote \\ 100% under_SCORE',
      JSON.stringify(odd),
    ]) {
      expect({ near, found: await keywordLink(near) }).toEqual({ near, found: [] });
    }
    const page = await listPublicTheses(k.db, { keyword: odd, q: "thesis 0", page: 1 });
    expect(page.items.map((i) => i.submissionId)).toEqual([first]);
    expect(page.total).toBe(1);
  });
});
