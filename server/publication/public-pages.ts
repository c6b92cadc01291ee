import { createHash } from "node:crypto";
import type { PublishedRecord } from "../../common/publication.js";
import type { PublicListPage, PublicListQuery } from "./public-repository.js";

/**
 * The public pages' HTML (docs/decisions/027-oai-pmh-and-public-pages.md), written on the server
 * and complete without JavaScript: crawlers read the Highwire Press `citation_*` tags (Google
 * Scholar's inclusion guidelines) and the schema.org `Thesis` JSON-LD from the first answer. One
 * inline stylesheet in the product's colours and type (web/styles/global.css' tokens), allowed by
 * its hash in the pages' own Content Security Policy; nothing else is loaded.
 */

export interface PageSite {
  repositoryName: string;
  institution: string;
  publicUrl: string;
}

/** HTML text and attribute values: &, <, >, " and ' escaped. */
export function html(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * JSON inside <script type="application/ld+json">: `<` as \u003c so neither `</script>` nor
 * `<!--` can end or change the block, and the two line separators JavaScript once refused.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2027-03-12" as "12 March 2027". */
export function longDate(day: string): string {
  const [year, month, date] = day.slice(0, 10).split("-").map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1] ?? ""} ${year}`;
}

/** A size in words: "4.2 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const STYLE = `
:root{--navy-900:#0e2236;--navy-800:#16324f;--navy-100:#e6eef6;--gold-100:#fdf3dc;--amber-800:#7a4d00;--red-700:#b3261e;--red-100:#fde8e7;--grey-900:#1c232b;--grey-600:#5b6670;--grey-300:#c9d1d9;--grey-100:#f5f7f9;--focus:#1a73e8}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:"Segoe UI",system-ui,-apple-system,Roboto,"Helvetica Neue",Arial,sans-serif;font-size:1rem;line-height:1.55;color:var(--grey-900);background:var(--grey-100)}
a{color:var(--navy-800)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header.site{background:var(--navy-900);color:#fff;padding:1rem}
header.site a{color:#fff;font-weight:600;text-decoration:none;font-size:1.125rem}
main{max-width:48rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 .75rem;color:var(--navy-900)}
h2{font-size:1.25rem;margin:2rem 0 .5rem;color:var(--navy-900)}
.card{background:#fff;border:1px solid var(--grey-300);border-radius:14px;padding:1.25rem}
.muted{color:var(--grey-600)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
ul.keywords{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
ul.keywords a{display:inline-block;padding:.5rem .75rem;min-height:44px;border-radius:999px;background:var(--navy-100);text-decoration:none}
.download{display:inline-block;background:var(--navy-800);color:#fff;padding:.75rem 1.25rem;min-height:44px;border-radius:8px;font-weight:600;text-decoration:none}
.notice{background:var(--gold-100);color:var(--amber-800);border-radius:8px;padding:.75rem 1rem;font-weight:600}
.withdrawn{background:var(--red-100);color:var(--red-700);border-radius:8px;padding:.75rem 1rem;font-weight:600}
form.search{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:1rem 0}
form.search label{display:block;font-weight:600;margin-bottom:.25rem}
form.search input,form.search select{font:inherit;min-height:44px;padding:.5rem .75rem;border:1px solid var(--grey-600);border-radius:8px;background:#fff;max-width:100%}
form.search button{font:inherit;min-height:44px;padding:.5rem 1.25rem;border:0;border-radius:8px;background:var(--navy-800);color:#fff;font-weight:600;cursor:pointer}
ol.results{list-style:none;padding:0;margin:0}
ol.results li{background:#fff;border:1px solid var(--grey-300);border-radius:8px;padding:1rem;margin-bottom:.75rem}
ol.results a{font-weight:600;font-size:1.0625rem}
nav.pages{display:flex;justify-content:space-between;gap:1rem;margin-top:1rem}
nav.pages a{display:inline-block;min-height:44px;padding:.5rem 0}
details{margin-top:.5rem}summary{cursor:pointer;min-height:44px;padding:.5rem 0}
pre.licence{white-space:pre-wrap;font:inherit;background:#fff;border:1px solid var(--grey-300);border-radius:8px;padding:1rem}
@media print{header.site,.skip,form.search,nav.pages{display:none}body{background:#fff}}
`.trim();

/**
 * The Content-Security-Policy of every public page: its one inline stylesheet and nothing else
 * loaded. `connect-src 'self'` opens nothing to the page (no script may run: script-src falls back
 * to 'none'); it lets tools that fetch in the page's frame read this site's files, as Lighthouse
 * does for /robots.txt (with 'none' its SEO audit "robots.txt is not valid" fails: unable to
 * download).
 */
export const PUBLIC_PAGE_POLICY = [
  "default-src 'none'",
  "connect-src 'self'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

function page(site: PageSite, title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
${head}<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><a href="/theses">${html(site.repositoryName)}</a></header>
<main id="main">
${body}
</main>
</body>
</html>
`;
}

function metaTag(name: string, content: string): string {
  return `<meta name="${html(name)}" content="${html(content)}">\n`;
}

export interface ThesisPageData {
  record: PublishedRecord;
  downloads: number;
}

/** The thesis's public page: the record, the file (or when it will be public), the citation tags. */
export function thesisPage(site: PageSite, data: ThesisPageData): string {
  const { record } = data;
  const url = `${site.publicUrl}/theses/${record.submissionId}`;
  const fileUrl = `${url}/file`;
  const withFile = record.filesPublic && record.file !== null && record.withdrawn === null;
  const description =
    record.abstract.length > 300 ? `${record.abstract.slice(0, 297)}...` : record.abstract;

  let head = "";
  head += `<link rel="canonical" href="${html(url)}">\n`;
  head += metaTag("description", description);
  if (record.withdrawn !== null) head += metaTag("robots", "noindex");
  head += metaTag("citation_title", record.title);
  head += metaTag("citation_author", record.author.name);
  head += metaTag("citation_publication_date", record.awardDate.replace(/-/g, "/"));
  head += metaTag("citation_dissertation_institution", site.institution);
  head += metaTag("citation_dissertation_name", record.degree.name);
  if (withFile) head += metaTag("citation_pdf_url", fileUrl);
  head += metaTag("citation_keywords", record.keywords.join("; "));
  head += metaTag("citation_language", record.language);
  head += metaTag("citation_abstract_html_url", url);
  const jsonLd: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Thesis",
    "@id": url,
    url,
    name: record.title,
    headline: record.title,
    author: { "@type": "Person", name: record.author.name },
    abstract: record.abstract,
    keywords: record.keywords.join(", "),
    inLanguage: record.language,
    datePublished: record.awardDate,
    inSupportOf: record.degree.name,
    sourceOrganization: { "@type": "Organization", name: site.institution },
    contributor: record.supervisors.map((s) => ({
      "@type": "Person",
      name: s.name,
      ...(s.orcid ? { sameAs: `https://orcid.org/${s.orcid}` } : {}),
    })),
  };
  if (withFile && record.file) {
    jsonLd.encoding = {
      "@type": "MediaObject",
      contentUrl: fileUrl,
      encodingFormat: record.file.contentType,
      contentSize: `${record.file.size} B`,
    };
  }
  head += `<script type="application/ld+json">${jsonForScript(jsonLd)}</script>\n`;

  const facts: [string, string][] = [
    ["Author", html(record.author.name)],
    ["Degree", html(`${record.degree.name} (${record.degree.abbreviation})`)],
    ["Programme", html(record.programme)],
  ];
  if (record.department) facts.push(["Department", html(record.department)]);
  if (record.supervisors.length > 0) {
    facts.push([
      record.supervisors.length === 1 ? "Supervisor" : "Supervisors",
      record.supervisors
        .map((s) =>
          s.orcid
            ? `${html(s.name)} (<a href="https://orcid.org/${html(s.orcid)}">ORCID ${html(s.orcid)}</a>)`
            : html(s.name),
        )
        .join("<br>"),
    ]);
  }
  if (record.examinationDate) facts.push(["Examined", html(longDate(record.examinationDate))]);
  facts.push(["Awarded", html(longDate(record.awardDate))]);
  facts.push(["Published", html(longDate(record.publishedAt))]);
  facts.push(["Language", html(record.language)]);
  if (record.handle) facts.push(["Repository", html(record.handle)]);
  facts.push(["Downloads", String(data.downloads)]);

  let file: string;
  if (record.withdrawn !== null) {
    file = `<p class="withdrawn" role="status">This thesis was withdrawn: ${html(record.withdrawn.reason)}</p>`;
  } else if (withFile && record.file) {
    file = `<p><a class="download" href="/theses/${record.submissionId}/file">Download PDF (${html(fileSize(record.file.size))})</a></p>`;
  } else if (record.file === null) {
    file = `<p class="notice">The thesis file is not available online.</p>`;
  } else if (record.embargo.until) {
    file = `<p class="notice">Available from ${html(longDate(record.embargo.until))}</p>`;
  } else {
    file = `<p class="notice">The thesis file is not publicly available.</p>`;
  }

  const year = record.awardDate.slice(0, 4);
  const citation = `${record.author.name} (${year}). ${record.title} [${record.degree.name}, ${site.institution}]. ${url}`;

  const body = `<article>
<h1>${html(record.title)}</h1>
<p class="muted">${html(record.author.name)} · ${html(record.degree.abbreviation)} · ${html(year)}</p>
${file}
<dl class="facts">
${facts.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join("\n")}
</dl>
<h2>Abstract</h2>
<p>${html(record.abstract).replace(/\n+/g, "</p><p>")}</p>
<h2>Keywords</h2>
<ul class="keywords">
${record.keywords.map((k) => `<li><a href="/theses?keyword=${encodeURIComponent(k)}">${html(k)}</a></li>`).join("\n")}
</ul>
<h2>Licence</h2>
<p>Distributed under the school's licence, version ${record.licence.version}.</p>
<details><summary>Read the licence</summary><pre class="licence">${html(record.licence.text)}</pre></details>
<h2>Cite this thesis</h2>
<p>${html(citation)}</p>
</article>
<p><a href="/theses">All theses</a></p>`;
  return page(site, `${record.title} | ${site.repositoryName}`, head, body);
}

function listLink(query: PublicListQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.programme) params.set("programme", query.programme);
  if (query.keyword) params.set("keyword", query.keyword);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `/theses?${text}` : "/theses";
}

/** The list's heading words: how many theses, and the search they answer. */
function countWords(query: PublicListQuery, result: PublicListPage): string {
  const count = result.totalCapped
    ? `More than ${result.total.toLocaleString("en-GB")} theses`
    : result.total === 1
      ? "1 thesis"
      : `${result.total.toLocaleString("en-GB")} theses`;
  const filters = [
    query.q ? `matching “${html(query.q)}”` : "",
    query.programme ? `in ${html(query.programme)}` : "",
    query.keyword ? `with the keyword “${html(query.keyword)}”` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `${count}${filters ? ` ${filters}` : ""}`;
}

/**
 * The list's frame: the repository's heading, the search form with the visitor's search in it,
 * then `results` (the page of results, or why there is none).
 */
function listFrame(
  site: PageSite,
  query: PublicListQuery,
  programmes: string[],
  title: string,
  head: string,
  results: string,
): string {
  const options = [`<option value="">All programmes</option>`]
    .concat(
      programmes.map(
        (p) =>
          `<option value="${html(p)}"${p === query.programme ? " selected" : ""}>${html(p)}</option>`,
      ),
    )
    .join("");
  const body = `<h1>${html(site.repositoryName)}</h1>
<p>Theses and dissertations of ${html(site.institution)}, open to all.</p>
<form class="search" method="get" action="/theses" role="search">
<div><label for="q">Search by title, author or keyword</label>
<input id="q" name="q" type="search" value="${html(query.q ?? "")}" maxlength="200"></div>
<div><label for="programme">Programme</label>
<select id="programme" name="programme">${options}</select></div>
${query.keyword ? `<input type="hidden" name="keyword" value="${html(query.keyword)}">` : ""}
<div><button type="submit">Search</button></div>
</form>
${results}`;
  return page(site, title, head, body);
}

/** How many pages the list has, at most `maxPage` (the deepest it pages). */
function lastPage(result: PublicListPage, pageSize: number, maxPage: number): number {
  return Math.min(maxPage, Math.max(1, Math.ceil(result.total / pageSize)));
}

/**
 * The list of published theses: the search form, one page of results, and the pager, which
 * links no further than `maxPage`.
 */
export function listPage(
  site: PageSite,
  query: PublicListQuery,
  result: PublicListPage,
  programmes: string[],
  pageSize: number,
  maxPage: number,
): string {
  const items = result.items
    .map(
      (item) => `<li><a href="/theses/${item.submissionId}">${html(item.title)}</a>
<div>${html(item.author)}</div>
<div class="muted">${html(item.degreeName)} · ${html(item.programme)} · ${html(item.awardDate.slice(0, 4))}</div></li>`,
    )
    .join("\n");
  const last = lastPage(result, pageSize, maxPage);
  const pager: string[] = [];
  if (query.page > 1)
    pager.push(`<a href="${html(listLink(query, query.page - 1))}" rel="prev">Previous page</a>`);
  else pager.push("<span></span>");
  const more = query.page < last || (result.totalCapped && result.items.length === pageSize);
  if (more && query.page < maxPage) {
    pager.push(`<a href="${html(listLink(query, query.page + 1))}" rel="next">Next page</a>`);
  }
  const results = `<h2 id="results-heading">${countWords(query, result)}${query.page > 1 ? `, page ${query.page}` : ""}</h2>
${result.items.length > 0 ? `<ol class="results" aria-labelledby="results-heading">\n${items}\n</ol>` : `<p>No published thesis matches. Try fewer or other words.</p>`}
<nav class="pages" aria-label="Pages">${pager.join("")}</nav>`;
  const title = query.page > 1 ? `${site.repositoryName}, page ${query.page}` : site.repositoryName;
  return listFrame(
    site,
    query,
    programmes,
    title,
    `<link rel="canonical" href="${html(site.publicUrl + listLink(query, query.page))}">\n${metaTag("description", `Theses and dissertations of ${site.institution}.`)}`,
    results,
  );
}

/** What a list page answers for a `page` that is not a whole number from 1 (a 400). */
export const BAD_PAGE_NUMBER = "Page must be a whole number from 1";

/**
 * The list's frame for a `page` that is no page number (`abc`, `0`, `-1`, `1.5`): what a page
 * number is, and a link to page 1 of the same search. Only a hand-edited address asks for one;
 * the product's own links never do.
 */
export function badPageNumberPage(
  site: PageSite,
  query: Omit<PublicListQuery, "page">,
  programmes: string[],
): string {
  const first = { ...query, page: 1 };
  return listFrame(
    site,
    first,
    programmes,
    `Page number not valid | ${site.repositoryName}`,
    metaTag("robots", "noindex"),
    `<h2 id="results-heading">${BAD_PAGE_NUMBER}</h2>
<p>The address asks for a page of the list that cannot exist.</p>
<p><a href="${html(listLink(first, 1))}">Go to page 1</a></p>`,
  );
}

/**
 * The list's frame for a page number past the list's last page (or past `maxPage`, the deepest
 * the list pages): how many pages there are, and links to the first and the last.
 */
export function pastTheEndPage(
  site: PageSite,
  query: PublicListQuery,
  result: PublicListPage,
  programmes: string[],
  pageSize: number,
  maxPage: number,
): string {
  const last = lastPage(result, pageSize, maxPage);
  const extent =
    result.total === 0
      ? "No published thesis matches. Try fewer or other words."
      : result.totalCapped || result.total > maxPage * pageSize
        ? `${countWords(query, result)}. The list shows its first ${maxPage} pages; a narrower search finds the rest.`
        : `${countWords(query, result)}, on ${last === 1 ? "1 page" : `${last} pages`}.`;
  const links = [`<a href="${html(listLink(query, 1))}">Go to page 1</a>`];
  if (last > 1) {
    links.push(`<a href="${html(listLink(query, last))}">Go to the last page (page ${last})</a>`);
  }
  return listFrame(
    site,
    query,
    programmes,
    `Past the end of the list | ${site.repositoryName}`,
    metaTag("robots", "noindex"),
    `<h2 id="results-heading">This page is past the end of the list</h2>
<p>${extent}</p>
<p>${links.join(" · ")}</p>`,
  );
}

/** A page that says a thesis is not here (404), in the same frame. */
export function notFoundPage(site: PageSite): string {
  return page(
    site,
    `Not found | ${site.repositoryName}`,
    metaTag("robots", "noindex"),
    `<h1>Thesis not found</h1>
<p>There is no published thesis at this address. It may not be published yet.</p>
<p><a href="/theses">Browse all theses</a></p>`,
  );
}
