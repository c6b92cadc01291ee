import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { publishThesis } from "../../testing/public-theses.js";
import { BAD_PAGE_NUMBER, listPage, pastTheEndPage, type PageSite } from "./public-pages.js";
import { PUBLIC_PAGE_SIZE } from "./public-repository.js";

/**
 * The public list's `page` (docs/decisions/027-oai-pmh-and-public-pages.md, amendment on page
 * numbers): a value that is no page number is a 400 page in the list's frame, a page past the end
 * a 404 page that says so; neither is "Thesis not found".
 */

let t: TestApp;
// One more than a page: the list has two pages.
const THESES = PUBLIC_PAGE_SIZE + 1;

beforeAll(async () => {
  t = await createTestApp({ ETS_INSTITUTION: "University of Ghana" });
  for (let i = 1; i <= THESES; i++) {
    await publishThesis(t, {
      title: `Paged thesis ${i}`,
      programme: i % 2 === 0 ? "MPhil Economics" : "MPhil Geography",
    });
  }
});
afterAll(async () => {
  await t.close();
});

async function page(url: string) {
  const response = await t.app.inject({ method: "GET", url });
  const document = new JSDOM(response.body).window.document;
  return { response, document, text: document.body.textContent ?? "" };
}

/** Complete HTML: a title, the language, one main landmark, the list's frame, no error's insides. */
function expectCompletePage(document: Document, body: string) {
  expect(body.startsWith("<!doctype html>")).toBe(true);
  expect(document.title).not.toBe("");
  expect(document.documentElement.getAttribute("lang")).toBe("en");
  expect(document.querySelectorAll("main")).toHaveLength(1);
  expect(document.querySelector("h1")?.textContent).toBe("Theses");
  // The list's search form, so the visitor can go on from here.
  expect(document.querySelector("form[role=search] input[name=q]")).not.toBeNull();
  expect(body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|Error:|stack/i);
  expect(body).not.toContain("Thesis not found");
}

describe("/theses?page= that is no page number", () => {
  it.each(["abc", "0", "-1", "1.5", "00", "1e2", "+1"])(
    "page=%s is a 400 page in the list's frame that says what a page number is",
    async (value) => {
      const { response, document, text } = await page(`/theses?page=${encodeURIComponent(value)}`);
      expect(response.statusCode).toBe(400);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(response.headers["cache-control"]).toBe("no-cache");
      expectCompletePage(document, response.body);
      expect(document.querySelector("h2")?.textContent).toBe(BAD_PAGE_NUMBER);
      expect(text).toContain("Page must be a whole number from 1");
      expect(document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe(
        "noindex",
      );
      const first = Array.from(document.querySelectorAll("main a")).find(
        (a) => a.textContent === "Go to page 1",
      );
      expect(first?.getAttribute("href")).toBe("/theses");
      // No list is shown for a page that cannot exist.
      expect(document.querySelector("ol.results")).toBeNull();
    },
  );

  it("keeps the visitor's search in the form and in the link to page 1", async () => {
    const { response, document } = await page(
      "/theses?q=paged&programme=MPhil%20Economics&page=abc",
    );
    expect(response.statusCode).toBe(400);
    expect(document.querySelector<HTMLInputElement>("input[name=q]")?.value).toBe("paged");
    expect(document.querySelector<HTMLOptionElement>("option[selected]")?.value).toBe(
      "MPhil Economics",
    );
    const first = Array.from(document.querySelectorAll("main a")).find(
      (a) => a.textContent === "Go to page 1",
    );
    expect(first?.getAttribute("href")).toBe("/theses?q=paged&programme=MPhil+Economics");
  });
});

describe("/theses?page= within the list", () => {
  it("an empty page, a leading zero and page 2 are list pages", async () => {
    for (const [url, count] of [
      ["/theses?page=", PUBLIC_PAGE_SIZE],
      ["/theses?page=01", PUBLIC_PAGE_SIZE],
      ["/theses?page=2", 1],
    ] as const) {
      const { response, document } = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(document.querySelectorAll("ol.results li"), url).toHaveLength(count);
    }
    const second = await page("/theses?page=2");
    expect(second.document.querySelector("h2")?.textContent).toBe(`${THESES} theses, page 2`);
    expect(second.document.querySelector("a[rel=next]")).toBeNull();
  });
});

describe("/theses?page= past the end of the list", () => {
  it.each(["3", "500", "501", "99999", "99999999999999999999", `1${"0".repeat(400)}`])(
    "page=%s is a 404 page in the list's frame that says how far the list goes",
    async (value) => {
      const { response, document, text } = await page(`/theses?page=${value}`);
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["cache-control"]).toBe("no-cache");
      expectCompletePage(document, response.body);
      expect(document.title).toBe("Past the end of the list | Theses");
      expect(document.querySelector("h2")?.textContent).toBe(
        "This page is past the end of the list",
      );
      expect(text).toContain(`${THESES} theses, on 2 pages.`);
      const links = Array.from(document.querySelectorAll("main p a")).map((a) => [
        a.textContent,
        a.getAttribute("href"),
      ]);
      expect(links).toEqual([
        ["Go to page 1", "/theses"],
        ["Go to the last page (page 2)", "/theses?page=2"],
      ]);
      expect(text).not.toContain("No published thesis matches");
    },
  );

  it("a search's page past its end counts that search's theses", async () => {
    const { response, text, document } = await page("/theses?programme=MPhil%20Economics&page=2");
    expect(response.statusCode).toBe(404);
    expect(text).toContain(`${Math.floor(THESES / 2)} theses in MPhil Economics, on 1 page.`);
    const links = Array.from(document.querySelectorAll("main p a")).map((a) =>
      a.getAttribute("href"),
    );
    expect(links).toEqual(["/theses?programme=MPhil+Economics"]);
  });

  it("a search with no match has no page 2, and says there is no match", async () => {
    const { response, text } = await page("/theses?q=zzzz&page=2");
    expect(response.statusCode).toBe(404);
    expect(text).toContain("No published thesis matches. Try fewer or other words.");
    // Page 1 of it is the list's own answer, a 200.
    const first = await page("/theses?q=zzzz");
    expect(first.response.statusCode).toBe(200);
    expect(first.text).toContain("No published thesis matches");
  });
});

describe("the list's deepest page (more theses than it shows)", () => {
  const site: PageSite = {
    repositoryName: "Theses",
    institution: "University of Ghana",
    publicUrl: "http://localhost:3000",
  };
  const capped = { items: [], total: 10_000, totalCapped: true };

  it("page 500 of a capped list links no further", () => {
    const full = {
      ...capped,
      items: Array.from({ length: 20 }, (_, i) => ({
        submissionId: i + 1,
        title: `T${i}`,
        author: "A",
        programme: "P",
        degreeName: "D",
        awardDate: "2026-01-01",
      })),
    };
    const at = (n: number) =>
      new JSDOM(listPage(site, { page: n }, full, [], 20, 500)).window.document;
    expect(at(499).querySelector("a[rel=next]")?.getAttribute("href")).toBe("/theses?page=500");
    expect(at(500).querySelector("a[rel=next]")).toBeNull();
  });

  it("past it, says the list shows its first 500 pages and links to page 500", () => {
    const document = new JSDOM(pastTheEndPage(site, { page: 1 }, capped, [], 20, 500)).window
      .document;
    expect(document.body.textContent).toContain(
      "More than 10,000 theses. The list shows its first 500 pages; a narrower search finds the rest.",
    );
    expect(
      Array.from(document.querySelectorAll("main p a")).map((a) => a.getAttribute("href")),
    ).toEqual(["/theses", "/theses?page=500"]);
  });
});

describe("the error pages' caching", () => {
  it("a thesis that is not here is not cached either", async () => {
    const { response, text } = await page("/theses/999999");
    expect(response.statusCode).toBe(404);
    expect(text).toContain("Thesis not found");
    expect(response.headers["cache-control"]).toBe("no-cache");
    const list = await page("/theses");
    expect(list.response.headers["cache-control"]).toBe("public, max-age=300");
  });
});
