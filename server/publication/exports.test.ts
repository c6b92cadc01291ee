import { MarcRecord } from "@natlibfi/marc-record";
import { MARCXML } from "@natlibfi/marc-record-serializers";
import { XMLSerializer } from "@xmldom/xmldom";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../testing/factories.js";
import { parseXml, publishThesis, textsOf } from "../../testing/published-records.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { DC_NAMESPACE, OAI_DC_NAMESPACE } from "./formats/dublin-core.js";
import { ETDMS_NAMESPACE } from "./formats/etdms.js";
import { MARC_NAMESPACE } from "./formats/marcxml.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { awardedIds, awardedRecords, countAwarded, exportAwarded, safZip } from "./exports.js";

let t: TestApp;
let admin: TestUser;
let student: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, "admin");
  student = await createUser(t.db, "student");
});
afterAll(async () => {
  await t.close();
});

function target() {
  return { db: t.db, storage: t.app.storage };
}

async function get(url: string, headers = admin.headers) {
  return t.app.inject({ method: "GET", url, headers });
}

/** The dcvalue texts of a DSpace metadata file, as "element.qualifier" → values. */
function dcValues(xml: string): Map<string, string[]> {
  const root = parseXml(xml).documentElement!;
  const values = new Map<string, string[]>();
  const nodes: Element[] = Array.from(root.getElementsByTagName("dcvalue"));
  for (const node of nodes) {
    const key = `${node.getAttribute("element")}.${node.getAttribute("qualifier")}`;
    values.set(key, [...(values.get(key) ?? []), node.textContent ?? ""]);
  }
  return values;
}

/** Every MARC record of a MARCXML collection, read and strictly validated by the MARC library. */
async function marcRecords(xml: string): Promise<MarcRecord[]> {
  const root = parseXml(xml).documentElement!;
  expect(root.namespaceURI).toBe(MARC_NAMESPACE);
  expect(root.localName).toBe("collection");
  const nodes: Element[] = Array.from(root.getElementsByTagNameNS(MARC_NAMESPACE, "record"));
  const serializer = new XMLSerializer();
  const records: MarcRecord[] = [];
  for (const node of nodes) {
    const parsed = await MARCXML.from(serializer.serializeToString(node), { strict: true });
    records.push(MarcRecord.clone(parsed, { strict: true }));
  }
  return records;
}

function titlesOf(records: MarcRecord[]): string[] {
  return records.map(
    (record) => record.get(/^245$/)[0]!.subfields!.find((sub) => sub.code === "a")!.value!,
  );
}

describe("one thesis's export", () => {
  it("is a DSpace Simple Archive Format zip: dublin_core.xml, metadata_etdms.xml, license.txt, contents and the thesis file", async () => {
    const thesis = await publishThesis(target(), { title: "Tides & <currents> of Accra" });
    const res = await get(`/api/admin/submissions/${thesis.indexNumber}/publication/export/saf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toContain(`thesis-${thesis.submissionId}-saf.zip`);

    const zip = await JSZip.loadAsync(res.rawPayload);
    const folder = `item_${thesis.submissionId}`;
    expect(
      Object.keys(zip.files)
        .filter((name) => !zip.files[name]!.dir)
        .sort(),
    ).toEqual(
      [
        `${folder}/Mensah thesis final.pdf`,
        `${folder}/contents`,
        `${folder}/dublin_core.xml`,
        `${folder}/license.txt`,
        `${folder}/metadata_etdms.xml`,
      ].sort(),
    );
    const dc = dcValues(await zip.file(`${folder}/dublin_core.xml`)!.async("string"));
    expect(dc.get("title.none")).toEqual(["Tides & <currents> of Accra"]);
    expect(dc.get("contributor.author")).toEqual(["Ama Mensah"]);
    expect(dc.get("contributor.advisor")).toEqual(["Kofi Boateng"]);
    expect(dc.get("subject.none")).toEqual(["hydrology", "groundwater"]);
    expect(dc.get("date.issued")).toEqual(["2026-07-30"]);
    expect(dc.get("identifier.uri")).toEqual([
      `http://localhost:3000/theses/${thesis.submissionId}`,
    ]);
    expect(dc.get("embargo.terms")).toBeUndefined();
    const etdms = parseXml(await zip.file(`${folder}/metadata_etdms.xml`)!.async("string"));
    expect(etdms.documentElement!.getAttribute("schema")).toBe("etdms");
    const degree = dcValues(await zip.file(`${folder}/metadata_etdms.xml`)!.async("string"));
    expect(degree.get("degree.level")).toEqual(["2"]);
    expect(degree.get("degree.discipline")).toEqual(["MPhil Earth Science"]);
    expect(await zip.file(`${folder}/contents`)!.async("string")).toBe(
      "Mensah thesis final.pdf\tbundle:ORIGINAL\nlicense.txt\tbundle:LICENSE\n",
    );
    expect(await zip.file(`${folder}/license.txt`)!.async("string")).toContain("licence");
    const pdf = await zip.file(`${folder}/Mensah thesis final.pdf`)!.async("nodebuffer");
    expect(pdf.equals(thesis.bytes!)).toBe(true);
  });

  it("carries an embargoed thesis's file for the library, readable by administrators only, with the embargo's end", async () => {
    const thesis = await publishThesis(target(), {
      embargo: { choice: "1y", until: "2099-07-30" },
    });
    const res = await get(`/api/admin/submissions/${thesis.indexNumber}/publication/export/saf`);
    expect(res.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(res.rawPayload);
    const folder = `item_${thesis.submissionId}`;
    expect(await zip.file(`${folder}/contents`)!.async("string")).toBe(
      "Mensah thesis final.pdf\tbundle:ORIGINAL\tpermissions:-r 'Administrator'\nlicense.txt\tbundle:LICENSE\n",
    );
    const dc = dcValues(await zip.file(`${folder}/dublin_core.xml`)!.async("string"));
    expect(dc.get("embargo.terms")).toEqual(["2099-07-30"]);
    const pdf = await zip.file(`${folder}/Mensah thesis final.pdf`)!.async("nodebuffer");
    expect(pdf.equals(thesis.bytes!)).toBe(true);
  });

  it("is a MARCXML collection of one record that the MARC library validates", async () => {
    const thesis = await publishThesis(target(), { title: "Cocoa yields under shade" });
    const res = await get(
      `/api/admin/submissions/${thesis.indexNumber}/publication/export/marcxml`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/marcxml+xml");
    const records = await marcRecords(res.body);
    expect(titlesOf(records)).toEqual(["Cocoa yields under shade"]);
  });

  it("is ETD-MS and Dublin Core", async () => {
    const thesis = await publishThesis(target(), { title: "Malaria in the north" });
    const etdms = await get(
      `/api/admin/submissions/${thesis.indexNumber}/publication/export/etdms`,
    );
    expect(etdms.statusCode).toBe(200);
    const theses = parseXml(etdms.body).getElementsByTagNameNS(ETDMS_NAMESPACE, "thesis");
    expect(theses.length).toBe(1);
    expect(textsOf(parseXml(etdms.body), DC_NAMESPACE, "title")).toEqual(["Malaria in the north"]);
    const dc = await get(`/api/admin/submissions/${thesis.indexNumber}/publication/export/dc`);
    expect(dc.statusCode).toBe(200);
    const doc = parseXml(dc.body);
    expect(doc.getElementsByTagNameNS(OAI_DC_NAMESPACE, "dc").length).toBe(1);
    expect(textsOf(doc, DC_NAMESPACE, "title")).toEqual(["Malaria in the north"]);
  });

  it("is refused for a thesis not published (404) and a withdrawn one (409), and for an unknown format (400)", async () => {
    const draft = await publishThesis(target(), { unpublished: true });
    const withdrawn = await publishThesis(target(), { withdrawn: true });
    expect(
      (await get(`/api/admin/submissions/${draft.indexNumber}/publication/export/saf`)).statusCode,
    ).toBe(404);
    expect(
      (await get(`/api/admin/submissions/${withdrawn.indexNumber}/publication/export/dc`))
        .statusCode,
    ).toBe(409);
    const bad = await get(`/api/admin/submissions/${draft.indexNumber}/publication/export/pdf`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe("format");
    expect((await get(`/api/admin/submissions/nobody/publication/export/dc`)).statusCode).toBe(404);
  });

  it("says the thesis file is missing from the store before streaming, instead of a cut-off zip", async () => {
    const thesis = await publishThesis(target());
    const stored = await t.db
      .selectFrom("submission_documents")
      .select("sha256")
      .where("submission_id", "=", thesis.submissionId)
      .executeTakeFirstOrThrow();
    await t.app.storage.delete(stored.sha256);
    const res = await get(`/api/admin/submissions/${thesis.indexNumber}/publication/export/saf`);
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toContain("missing from the file store");
    expect(res.json()).not.toHaveProperty("stack");
    // The metadata formats need no file.
    expect(
      (await get(`/api/admin/submissions/${thesis.indexNumber}/publication/export/marcxml`))
        .statusCode,
    ).toBe(200);
  });

  it("is for administrators only", async () => {
    const thesis = await publishThesis(target());
    const url = `/api/admin/submissions/${thesis.indexNumber}/publication/export/dc`;
    expect((await get(url, student.headers)).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
  });
});

describe("the bulk export by award date", () => {
  const range = "awardFrom=2031-01-01&awardTo=2031-12-31";
  let inRange: { submissionId: number; title: string; bytes: Buffer | null }[];

  beforeAll(async () => {
    // Out of order on purpose: the export follows the award date, then the id.
    const specs = [
      { title: "Second: Sahel rainfall", awardDate: "2031-06-01" },
      { title: "First: Volta fisheries", awardDate: "2031-02-01" },
      { title: "Third: Kumasi markets", awardDate: "2031-06-01", withFile: false },
    ];
    inRange = [];
    for (const spec of specs) {
      const thesis = await publishThesis(target(), spec);
      inRange.push({ submissionId: thesis.submissionId, title: spec.title, bytes: thesis.bytes });
    }
    await publishThesis(target(), { title: "Too early", awardDate: "2030-12-31" });
    await publishThesis(target(), { title: "Too late", awardDate: "2032-01-01" });
    await publishThesis(target(), { title: "Withdrawn", awardDate: "2031-03-01", withdrawn: true });
    await publishThesis(target(), { title: "Draft", awardDate: "2031-03-01", unpublished: true });
  });

  it("streams a MARCXML collection of the range's published theses, by award date, each record valid", async () => {
    const res = await get(`/api/admin/publication/export/marcxml?${range}`);
    expect(res.statusCode).toBe(200);
    expect(titlesOf(await marcRecords(res.body))).toEqual([
      "First: Volta fisheries",
      "Second: Sahel rainfall",
      "Third: Kumasi markets",
    ]);
  });

  it("streams a Simple Archive Format zip with one folder per thesis", async () => {
    const res = await get(`/api/admin/publication/export/saf?${range}`);
    expect(res.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(res.rawPayload);
    const folders = new Set(Object.keys(zip.files).map((name) => name.split("/")[0]));
    expect([...folders].sort()).toEqual(
      inRange.map((thesis) => `item_${thesis.submissionId}`).sort(),
    );
    // The paper-only thesis has no file, so its contents name the licence alone.
    const paper = inRange[2]!;
    expect(await zip.file(`item_${paper.submissionId}/contents`)!.async("string")).toBe(
      "license.txt\tbundle:LICENSE\n",
    );
    for (const thesis of inRange) {
      const dc = dcValues(
        await zip.file(`item_${thesis.submissionId}/dublin_core.xml`)!.async("string"),
      );
      expect(dc.get("title.none")).toEqual([thesis.title]);
    }
  });

  it("streams ETD-MS and Dublin Core documents of the same theses", async () => {
    const etdms = parseXml((await get(`/api/admin/publication/export/etdms?${range}`)).body);
    expect(etdms.getElementsByTagNameNS(ETDMS_NAMESPACE, "thesis").length).toBe(3);
    const dc = parseXml((await get(`/api/admin/publication/export/dc?${range}`)).body);
    expect(textsOf(dc, DC_NAMESPACE, "title")).toEqual([
      "First: Volta fisheries",
      "Second: Sahel rainfall",
      "Third: Kumasi markets",
    ]);
  });

  it("pages by keyset without losing or repeating a thesis across pages with equal award dates", async () => {
    const ids: number[] = [];
    for await (const id of awardedIds(t.db, { from: "2031-01-01", to: "2031-12-31" }, 1)) {
      ids.push(id);
    }
    const june = inRange
      .slice(0)
      .filter((_, index) => index !== 1)
      .map((thesis) => thesis.submissionId)
      .sort((a, b) => a - b);
    expect(ids).toEqual([inRange[1]!.submissionId, ...june]);
  });

  it("refuses a Simple Archive Format zip of more theses than it takes, naming awardTo, before streaming", async () => {
    const deps = { db: t.db, storage: t.app.storage, links: t.config };
    const range = { from: "2031-01-01", to: "2031-12-31" };
    expect(await countAwarded(t.db, range)).toBe(3);
    await expect(exportAwarded(deps, range, "saf", 2)).rejects.toMatchObject({
      code: "validation",
      fields: [{ field: "awardTo", message: expect.stringContaining("holds 3 published theses") }],
    });
    // The same range fits a zip of three, and the XML formats take it whatever the limit.
    for (const [format, limit] of [
      ["saf", 3],
      ["marcxml", 2],
    ] as const) {
      const download = await exportAwarded(deps, range, format, limit);
      let bytes = 0;
      for await (const chunk of download.stream) bytes += (chunk as Buffer).length;
      expect(bytes).toBeGreaterThan(1000);
    }
  });

  it("reads a range's zip back whole: one folder per thesis, every entry's CRC checked", async () => {
    const res = await get(
      `/api/admin/publication/export/saf?awardFrom=2031-01-01&awardTo=2031-12-31`,
    );
    expect(res.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(res.rawPayload, { checkCRC32: true });
    const folders = new Set(Object.keys(zip.files).map((name) => name.split("/")[0]));
    expect([...folders].sort()).toEqual(
      inRange.map((thesis) => `item_${thesis.submissionId}`).sort(),
    );
    for (const thesis of inRange) {
      const pdf = zip.file(`item_${thesis.submissionId}/Mensah thesis final.pdf`);
      if (thesis.bytes) {
        expect((await pdf!.async("nodebuffer")).equals(thesis.bytes)).toBe(true);
      } else {
        expect(pdf).toBeNull();
      }
    }
  });

  it("when the client goes away halfway, stops reading records and removes the zip's spooled directory", async () => {
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-saf-spool-"));
    try {
      let recordsRead = 0;
      let recordsClosed = false;
      async function* tracked() {
        try {
          for await (const record of awardedRecords(
            t.db,
            { from: "2031-01-01", to: "2031-12-31" },
            new Date().toISOString(),
          )) {
            recordsRead += 1;
            yield record;
          }
        } finally {
          recordsClosed = true;
        }
      }
      const deps = { db: t.db, storage: t.app.storage, links: t.config };
      // A tiny directory page: the first thesis's entries already spill to the spool file.
      const zip = safZip(tracked(), deps, { spoolDir, directoryPageSize: 256 });
      let bytes = 0;
      for await (const chunk of zip) {
        bytes += (chunk as Buffer).length;
        if (recordsRead === 2) break; // the second thesis has started: the reader goes away
      }
      if (!zip.closed) await new Promise((resolve) => zip.once("close", resolve));
      expect(bytes).toBeGreaterThan(0);
      expect(recordsRead).toBe(2);
      expect(recordsClosed).toBe(true);
      expect(fs.readdirSync(spoolDir)).toEqual([]);
      // The database is free for the next export.
      expect(await countAwarded(t.db, { from: "2031-01-01", to: "2031-12-31" })).toBe(3);
    } finally {
      fs.rmSync(spoolDir, { recursive: true, force: true });
    }
  });

  it("names the field when the range is wrong", async () => {
    const backwards = await get(
      `/api/admin/publication/export/dc?awardFrom=2031-12-31&awardTo=2031-01-01`,
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toEqual([
      { field: "awardTo", message: "must be on or after awardFrom" },
    ]);
    const notADate = await get(
      `/api/admin/publication/export/dc?awardFrom=2031-02-30&awardTo=2031-03-01`,
    );
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json().fields[0].field).toBe("awardFrom");
    const missing = await get(`/api/admin/publication/export/dc?awardFrom=2031-02-01`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields[0].field).toBe("awardTo");
  });

  it("answers an empty range with an empty document, not an error", async () => {
    const res = await get(
      `/api/admin/publication/export/marcxml?awardFrom=1990-01-01&awardTo=1990-12-31`,
    );
    expect(res.statusCode).toBe(200);
    expect(await marcRecords(res.body)).toEqual([]);
  });
});

describe("the university's name (ETS_INSTITUTION)", () => {
  it("is the degree grantor in the SAF export's etdms file and MARC 502 $c, the department staying in 710 $b", async () => {
    const named = await createTestApp({ ETS_INSTITUTION: "University of Ghana" });
    try {
      const namedAdmin = await createUser(named.db, "admin");
      const thesis = await publishThesis({ db: named.db, storage: named.app.storage });
      const base = `/api/admin/submissions/${thesis.indexNumber}/publication/export`;
      const saf = await named.app.inject({ url: `${base}/saf`, headers: namedAdmin.headers });
      expect(saf.statusCode).toBe(200);
      const zip = await JSZip.loadAsync(saf.rawPayload);
      const degree = dcValues(
        await zip.file(`item_${thesis.submissionId}/metadata_etdms.xml`)!.async("string"),
      );
      expect(degree.get("degree.grantor")).toEqual(["University of Ghana"]);
      expect(degree.get("degree.discipline")).toEqual(["MPhil Earth Science"]);

      const marc = await named.app.inject({ url: `${base}/marcxml`, headers: namedAdmin.headers });
      const [record] = await marcRecords(marc.body);
      const values = (tag: string, code: string) =>
        record!
          .get(new RegExp(`^${tag}$`))
          .flatMap((field) => field.subfields ?? [])
          .filter((sub) => sub.code === code)
          .map((sub) => sub.value);
      expect(values("502", "c")).toEqual(["University of Ghana"]);
      expect(values("710", "a")).toEqual(["University of Ghana"]);
      expect(values("710", "b")).toHaveLength(1);
    } finally {
      await named.close();
    }
  });
});
