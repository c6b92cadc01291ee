import { DOMParser } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { createDatabase } from "../db/database.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { oaiSchemaErrors, publishThesis, touchPublication } from "../../testing/public-theses.js";
import { OAI_NAMESPACE, OAI_PAGE_SIZE } from "./oai-protocol.js";
import { decodeToken, encodeToken } from "./oai-tokens.js";
import { publicSecret } from "./public-secrets.js";
import { readPublishedRecord, readPublishedRecords } from "./repository.js";
import path from "node:path";
import os from "node:os";

let t: TestApp;
const HOST = "localhost";

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Answer {
  status: number;
  type: string;
  xml: string;
  doc: Document;
}

async function oai(query: string, method: "GET" | "POST" = "GET"): Promise<Answer> {
  const response =
    method === "GET"
      ? await t.app.inject({ method: "GET", url: `/oai?${query}` })
      : await t.app.inject({
          method: "POST",
          url: "/oai",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: query,
        });
  const xml = response.body;
  return {
    status: response.statusCode,
    type: String(response.headers["content-type"]),
    xml,
    doc: new DOMParser().parseFromString(xml, "text/xml") as unknown as Document,
  };
}

function all(doc: Document, name: string): Element[] {
  return Array.from(doc.getElementsByTagNameNS(OAI_NAMESPACE, name));
}
function text(doc: Document, name: string): string[] {
  return all(doc, name).map((e) => e.textContent ?? "");
}
function errorCodes(doc: Document): string[] {
  return all(doc, "error").map((e) => e.getAttribute("code") ?? "");
}
async function expectValid(answer: Answer): Promise<void> {
  expect(answer.status).toBe(200);
  expect(answer.type).toMatch(/^text\/xml/);
  expect(await oaiSchemaErrors(answer.xml)).toEqual([]);
}

describe("OAI-PMH with an empty repository", () => {
  it("says there are no sets yet (noSetHierarchy) and no records (noRecordsMatch)", async () => {
    const sets = await oai("verb=ListSets");
    await expectValid(sets);
    expect(errorCodes(sets.doc)).toEqual(["noSetHierarchy"]);
    const records = await oai("verb=ListRecords&metadataPrefix=oai_dc");
    await expectValid(records);
    expect(errorCodes(records.doc)).toEqual(["noRecordsMatch"]);
  });
});

describe("OAI-PMH verbs", () => {
  let open: number;
  let embargoed: number;
  let withdrawn: number;
  let unpublished: number;

  beforeAll(async () => {
    open = await publishThesis(t, {
      title: "Cocoa prices & <farmers>",
      programme: "MPhil Agricultural Economics",
      datestamp: "2026-08-01T10:00:00.000Z",
      file: true,
    });
    embargoed = await publishThesis(t, {
      programme: "MPhil Economics",
      degree: { name: "Doctor of Philosophy", abbreviation: "PhD", level: "doctoral" },
      embargo: "1y",
      embargoUntil: "2099-03-12",
      datestamp: "2026-08-02T10:00:00.000Z",
      file: true,
    });
    withdrawn = await publishThesis(t, {
      datestamp: "2026-08-03T10:00:00.000Z",
      withdrawn: { at: "2026-08-03T10:00:00.000Z", reason: "Plagiarism found" },
    });
    // A submission with a publication row not yet published: never in the repository.
    unpublished = await publishThesis(t, { datestamp: "2026-08-04T10:00:00.000Z" });
    await t.db
      .updateTable("publications")
      .set({ published_at: null })
      .where("submission_id", "=", unpublished)
      .execute();
  });

  it("reads a page's records together exactly as pub-core's one reader reads each", async () => {
    const now = new Date().toISOString();
    const ids = [open, embargoed, withdrawn, unpublished];
    const together = await readPublishedRecords(t.db, ids, now);
    expect([...together.keys()].sort((a, b) => a - b)).toEqual([open, embargoed, withdrawn]);
    for (const id of ids) {
      expect(together.get(id) ?? null).toEqual(await readPublishedRecord(t.db, id, now));
    }
    // The embargo's end decides with the clock, in both.
    const later = "2099-03-12T00:00:00.000Z";
    expect((await readPublishedRecords(t.db, [embargoed], later)).get(embargoed)?.filesPublic).toBe(
      true,
    );
  });

  it("Identify: name, base URL, granularity, transient deletions, earliest datestamp", async () => {
    const a = await oai("verb=Identify");
    await expectValid(a);
    expect(text(a.doc, "baseURL")).toEqual(["http://localhost:3000/oai"]);
    expect(text(a.doc, "granularity")).toEqual(["YYYY-MM-DDThh:mm:ssZ"]);
    expect(text(a.doc, "deletedRecord")).toEqual(["transient"]);
    expect(text(a.doc, "earliestDatestamp")).toEqual(["2026-08-01T10:00:00Z"]);
    expect(text(a.doc, "protocolVersion")).toEqual(["2.0"]);
    const request = all(a.doc, "request")[0] as Element;
    expect(request.getAttribute("verb")).toBe("Identify");
  });

  it("answers a POSTed form the same as GET", async () => {
    const a = await oai("verb=Identify", "POST");
    await expectValid(a);
    expect(text(a.doc, "repositoryName")).toEqual(["Theses"]);
  });

  it("ListMetadataFormats: oai_dc, etdms, marc21, for the repository and for one item", async () => {
    const a = await oai("verb=ListMetadataFormats");
    await expectValid(a);
    expect(text(a.doc, "metadataPrefix")).toEqual(["oai_dc", "etdms", "marc21"]);
    const one = await oai(`verb=ListMetadataFormats&identifier=oai:${HOST}:${open}`);
    await expectValid(one);
    expect(text(one.doc, "metadataPrefix")).toHaveLength(3);
    const none = await oai(`verb=ListMetadataFormats&identifier=oai:${HOST}:${unpublished}`);
    await expectValid(none);
    expect(errorCodes(none.doc)).toEqual(["idDoesNotExist"]);
  });

  it("ListSets: a set per programme and per degree", async () => {
    const a = await oai("verb=ListSets");
    await expectValid(a);
    expect(text(a.doc, "setSpec").sort()).toEqual([
      "degree:doctor-of-philosophy",
      "degree:master-of-philosophy",
      "programme:mphil-agricultural-economics",
      "programme:mphil-economics",
    ]);
  });

  it("GetRecord in each format; escaped text; sets in the header", async () => {
    for (const prefix of ["oai_dc", "etdms", "marc21"]) {
      const a = await oai(`verb=GetRecord&identifier=oai:${HOST}:${open}&metadataPrefix=${prefix}`);
      await expectValid(a);
      expect(text(a.doc, "identifier")).toEqual([`oai:${HOST}:${open}`]);
      expect(text(a.doc, "datestamp")).toEqual(["2026-08-01T10:00:00Z"]);
      expect(text(a.doc, "setSpec")).toEqual([
        "programme:mphil-agricultural-economics",
        "degree:master-of-philosophy",
      ]);
      expect(a.doc.documentElement.textContent).toContain("Cocoa prices & <farmers>");
      expect(all(a.doc, "metadata")).toHaveLength(1);
    }
  });

  it("an embargoed record carries no link to its file; an open one does", async () => {
    const e = await oai(`verb=GetRecord&identifier=oai:${HOST}:${embargoed}&metadataPrefix=oai_dc`);
    await expectValid(e);
    expect(e.xml).not.toContain(`/theses/${embargoed}/file`);
    const o = await oai(`verb=GetRecord&identifier=oai:${HOST}:${open}&metadataPrefix=marc21`);
    expect(o.xml).toContain(`/theses/${open}`);
  });

  it("a withdrawn record is a deleted header without metadata", async () => {
    const a = await oai(`verb=GetRecord&identifier=oai:${HOST}:${withdrawn}&metadataPrefix=oai_dc`);
    await expectValid(a);
    const header = all(a.doc, "header")[0] as Element;
    expect(header.getAttribute("status")).toBe("deleted");
    expect(all(a.doc, "metadata")).toHaveLength(0);
  });

  it("ListIdentifiers and ListRecords: published records only, in id order, deleted ones marked", async () => {
    const ids = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc");
    await expectValid(ids);
    expect(text(ids.doc, "identifier")).toEqual([
      `oai:${HOST}:${open}`,
      `oai:${HOST}:${embargoed}`,
      `oai:${HOST}:${withdrawn}`,
    ]);
    expect(all(ids.doc, "header").map((h) => h.hasAttribute("status"))).toEqual([
      false,
      false,
      true,
    ]);
    expect(all(ids.doc, "header")[2]?.getAttribute("status")).toBe("deleted");
    const records = await oai("verb=ListRecords&metadataPrefix=etdms");
    await expectValid(records);
    expect(all(records.doc, "record")).toHaveLength(3);
    expect(all(records.doc, "metadata")).toHaveLength(2);
    // A list that fits one page has no resumption token.
    expect(all(records.doc, "resumptionToken")).toHaveLength(0);
  });

  it("from and until, at day and second granularity, inclusive", async () => {
    const day = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-08-02&until=2026-08-02",
    );
    await expectValid(day);
    expect(text(day.doc, "identifier")).toEqual([`oai:${HOST}:${embargoed}`]);
    const seconds = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-08-01T10:00:00Z&until=2026-08-02T10:00:00Z",
    );
    await expectValid(seconds);
    expect(text(seconds.doc, "identifier")).toEqual([
      `oai:${HOST}:${open}`,
      `oai:${HOST}:${embargoed}`,
    ]);
    const after = await oai("verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-08-02T10:00:01Z");
    expect(text(after.doc, "identifier")).toEqual([`oai:${HOST}:${withdrawn}`]);
    const none = await oai("verb=ListRecords&metadataPrefix=oai_dc&until=2020-01-01");
    await expectValid(none);
    expect(errorCodes(none.doc)).toEqual(["noRecordsMatch"]);
  });

  it("a set selects its records; an unknown set matches nothing", async () => {
    const degree = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=degree:doctor-of-philosophy",
    );
    await expectValid(degree);
    expect(text(degree.doc, "identifier")).toEqual([`oai:${HOST}:${embargoed}`]);
    const programme = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=programme:mphil-agricultural-economics",
    );
    expect(text(programme.doc, "identifier")).toEqual([`oai:${HOST}:${open}`]);
    const unknown = await oai("verb=ListRecords&metadataPrefix=oai_dc&set=programme:astrology");
    await expectValid(unknown);
    expect(errorCodes(unknown.doc)).toEqual(["noRecordsMatch"]);
  });

  describe("every error, schema-valid, echoing arguments only when legal", () => {
    const cases: [string, string][] = [
      ["", "badVerb"],
      ["verb=Frobnicate", "badVerb"],
      ["verb=Identify&verb=Identify", "badVerb"],
      ["verb=Identify&extra=1", "badArgument"],
      ["verb=GetRecord&identifier=oai:localhost:1", "badArgument"],
      ["verb=ListRecords", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=etdms", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=yesterday", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-30", "badArgument"],
      [
        "verb=ListRecords&metadataPrefix=oai_dc&from=2026-08-01&until=2026-08-02T00:00:00Z",
        "badArgument",
      ],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2026-08-03&until=2026-08-01", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&set=not a set", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=abc", "badArgument"],
      ["verb=ListRecords&metadataPrefix=<b>", "badArgument"],
      ["verb=ListRecords&metadataPrefix=mods", "cannotDisseminateFormat"],
      ["verb=GetRecord&identifier=oai:localhost:1&metadataPrefix=mods", "cannotDisseminateFormat"],
      ["verb=GetRecord&identifier=oai:elsewhere.org:1&metadataPrefix=oai_dc", "idDoesNotExist"],
      ["verb=GetRecord&identifier=oai:localhost:999999&metadataPrefix=oai_dc", "idDoesNotExist"],
      ["verb=ListRecords&resumptionToken=not-a-token", "badResumptionToken"],
      ["verb=ListSets&resumptionToken=anything", "badResumptionToken"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2030-01-01", "noRecordsMatch"],
    ];
    for (const [query, code] of cases) {
      it(`${query || "(no arguments)"} → ${code}`, async () => {
        const a = await oai(query);
        await expectValid(a);
        expect(errorCodes(a.doc)).toContain(code);
        const request = all(a.doc, "request")[0] as Element;
        if (code === "badArgument" || code === "badVerb") {
          expect(request.attributes.length).toBe(0);
        } else {
          expect(request.hasAttribute("verb")).toBe(true);
        }
      });
    }
  });
});

describe("resumption over more than a page", () => {
  const created: number[] = [];

  beforeAll(async () => {
    // A database of its own for this harvest: the ids at the start are exactly these.
    for (let i = 0; i < OAI_PAGE_SIZE * 2 + 30; i++) {
      created.push(
        await publishThesis(t, {
          programme: "MSc Harvesting",
          datestamp: `2026-09-01T00:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.000Z`,
          publishedAt: "2026-09-01T00:00:00.000Z",
        }),
      );
    }
  });

  async function harvest(
    first: string,
    between: (page: number) => Promise<void>,
    app = t,
  ): Promise<{ ids: string[]; tokens: Element[] }> {
    const ids: string[] = [];
    const tokens: Element[] = [];
    let query = first;
    for (let page = 0; page < 20; page++) {
      const a = await oai(query);
      await expectValid(a);
      expect(errorCodes(a.doc)).toEqual([]);
      ids.push(...text(a.doc, "identifier"));
      const token = all(a.doc, "resumptionToken")[0];
      if (!token) break;
      tokens.push(token);
      const value = token.textContent ?? "";
      if (value === "") break;
      await between(page);
      query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(value)}`;
    }
    void app;
    return { ids, tokens };
  }

  it("sends every record there at the start exactly once while records are added and changed", async () => {
    const set = "verb=ListIdentifiers&metadataPrefix=oai_dc&set=programme:msc-harvesting";
    const added: number[] = [];
    const { ids, tokens } = await harvest(set, async (page) => {
      // Between pages: a new thesis in the set, a change to one already sent and one not yet sent.
      added.push(await publishThesis(t, { programme: "MSc Harvesting" }));
      await touchPublication(t.db, created[page] as number);
      await touchPublication(t.db, created[created.length - 1 - page] as number);
    });
    const expected = created.map((id) => `oai:${HOST}:${id}`);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    // Three pages: two tokens with a value, then the empty one that closes the list.
    expect(tokens.map((e) => e.getAttribute("cursor"))).toEqual(["0", "100", "200"]);
    expect(tokens.map((e) => (e.textContent ?? "") === "")).toEqual([false, false, true]);
    expect(tokens[0]?.getAttribute("expirationDate")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // What was added or changed during the harvest is there for the next one, from its start.
    expect(added).toHaveLength(2);
    const next = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=programme:msc-harvesting&from=2026-09-02",
    );
    const nextIds = text(next.doc, "identifier");
    for (const id of added) expect(nextIds).toContain(`oai:${HOST}:${id}`);
  });

  it("ListRecords pages carry records, and a token works after a restart on a new connection", async () => {
    const first = await oai("verb=ListRecords&metadataPrefix=oai_dc&set=programme:msc-harvesting");
    await expectValid(first);
    expect(all(first.doc, "record")).toHaveLength(OAI_PAGE_SIZE);
    const token = all(first.doc, "resumptionToken")[0]?.textContent ?? "";
    expect(token).not.toBe("");
    const lastOfFirst = text(first.doc, "identifier").at(-1);

    // The app goes away; another starts over a fresh connection to the same database.
    await t.app.close();
    const db = createDatabase(t.config.database);
    const restarted = await buildApp(t.config, {
      db,
      webRoot: path.join(os.tmpdir(), "ets-no-web"),
    });
    try {
      const response = await restarted.inject({
        method: "GET",
        url: `/oai?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`,
      });
      expect(await oaiSchemaErrors(response.body)).toEqual([]);
      const doc = new DOMParser().parseFromString(response.body, "text/xml") as unknown as Document;
      expect(errorCodes(doc)).toEqual([]);
      const ids = text(doc, "identifier");
      expect(ids).toHaveLength(OAI_PAGE_SIZE);
      expect(Number(ids[0]?.split(":")[2])).toBeGreaterThan(Number(lastOfFirst?.split(":")[2]));
    } finally {
      await restarted.close();
      await db.destroy();
      t.app = await buildApp(t.config, { db: t.db, webRoot: path.join(os.tmpdir(), "ets-no-web") });
    }
  });

  it("refuses forged, altered, expired and other verbs' tokens", async () => {
    const first = await oai(
      "verb=ListIdentifiers&metadataPrefix=oai_dc&set=programme:msc-harvesting",
    );
    const token = all(first.doc, "resumptionToken")[0]?.textContent ?? "";
    const key = await publicSecret(t.db, "oai-resumption-token");
    const good = decodeToken(key, token, Date.now());
    expect(good.ok).toBe(true);
    if (!good.ok) return;

    // The same payload, moved on, but signed with another key.
    const forged = encodeToken(Buffer.alloc(32, 7), { ...good.payload, after: 0 });
    // The payload changed, the signature kept.
    const [body, signature] = token.split(".") as [string, string];
    const changed = JSON.parse(Buffer.from(body, "base64url").toString()) as Record<
      string,
      unknown
    >;
    changed.after = 1;
    const altered = `${Buffer.from(JSON.stringify(changed)).toString("base64url")}.${signature}`;
    const expired = encodeToken(key, { ...good.payload, expires: Date.now() - 1000 });
    for (const bad of [forged, altered, expired, `${token}x`]) {
      const a = await oai(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(bad)}`);
      await expectValid(a);
      expect(errorCodes(a.doc)).toEqual(["badResumptionToken"]);
    }
    const otherVerb = await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
    expect(errorCodes(otherVerb.doc)).toEqual(["badResumptionToken"]);
    expect(decodeToken(key, expired, Date.now())).toEqual({ ok: false, reason: "expired" });
  });
});
