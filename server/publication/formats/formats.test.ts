import { MarcRecord } from "@natlibfi/marc-record";
import { MARCXML } from "@natlibfi/marc-record-serializers";
import { describe, expect, it } from "vitest";
import { parseXml, samplePublishedRecord, textsOf } from "../../../testing/published-records.js";
import { dspaceEtdms } from "./dspace.js";
import { DC_NAMESPACE, OAI_DC_NAMESPACE, dublinCore } from "./dublin-core.js";
import { ETDMS_NAMESPACE, etdms } from "./etdms.js";
import { MARC_NAMESPACE, abstractParts, marcXml } from "./marcxml.js";
import { escapeAttribute, escapeText, xmlSafe } from "./xml.js";

const links = { publicUrl: "https://theses.example.edu" };
const withUniversity = { ...links, universityName: "University of Ghana" };
const strict = { strict: true } as const;

/** The MARC library's reading of our MARCXML, validated strictly (leader, tags, characters). */
async function readMarc(xml: string): Promise<MarcRecord> {
  const parsed = await MARCXML.from(xml, strict);
  return MarcRecord.clone(parsed, strict);
}

function subfield(record: MarcRecord, tag: string, code: string): string[] {
  return record
    .get(new RegExp(`^${tag}$`))
    .flatMap((field) => field.subfields ?? [])
    .filter((sub) => sub.code === code)
    .map((sub) => sub.value ?? "");
}

describe("XML text", () => {
  it("escapes markup and removes the characters XML 1.0 forbids, keeping tab, newline and astral characters", () => {
    const raw = "a<b>&c\u0001\u000B\u000C\u0000d\t\n\r\uD800e\uFFFE\uFFFF😀";
    expect(xmlSafe(raw)).toBe("a<b>&cd\t\n\re😀");
    expect(escapeText(raw)).toBe("a&lt;b&gt;&amp;cd\t\n\re😀");
    expect(escapeAttribute('say "hi"\n')).toBe("say &quot;hi&quot;&#10;");
  });
});

describe("Dublin Core (oai_dc)", () => {
  it("writes an oai_dc:dc root in the oai_dc namespace with the dc elements, and no XML declaration", () => {
    const xml = dublinCore(samplePublishedRecord(), links);
    expect(xml.startsWith("<?xml")).toBe(false);
    const root = parseXml(xml).documentElement!;
    expect(root.namespaceURI).toBe(OAI_DC_NAMESPACE);
    expect(root.localName).toBe("dc");
    expect(textsOf(root, DC_NAMESPACE, "title")).toEqual([
      "Groundwater recharge in the Volta basin",
    ]);
    expect(textsOf(root, DC_NAMESPACE, "creator")).toEqual(["Ama Mensah"]);
    expect(textsOf(root, DC_NAMESPACE, "subject")).toEqual(["hydrology", "groundwater", "Volta"]);
    expect(textsOf(root, DC_NAMESPACE, "contributor")).toEqual(["Kofi Boateng", "Efua Owusu"]);
    expect(textsOf(root, DC_NAMESPACE, "date")).toEqual(["2026-07-30"]);
    expect(textsOf(root, DC_NAMESPACE, "language")).toEqual(["eng"]);
    expect(textsOf(root, DC_NAMESPACE, "identifier")).toEqual([
      "https://theses.example.edu/theses/42",
    ]);
    expect(textsOf(root, DC_NAMESPACE, "rights")).toEqual([]);
  });

  it("carries any text through escaping: markup characters come back as written, forbidden controls are gone", () => {
    const title = `Tides & "waves" <in> the Gulf of Guinea\u0007\u001B: a 'study' ]]> 𝛼`;
    const root = parseXml(dublinCore(samplePublishedRecord({ title }), links)).documentElement!;
    expect(textsOf(root, DC_NAMESPACE, "title")).toEqual([
      `Tides & "waves" <in> the Gulf of Guinea: a 'study' ]]> 𝛼`,
    ]);
  });

  it("names the handle and the embargo when there are any", () => {
    const record = samplePublishedRecord({
      handle: "123456789/7",
      filesPublic: false,
      embargo: { choice: "1y", until: "2027-08-03" },
    });
    const root = parseXml(dublinCore(record, links)).documentElement!;
    expect(textsOf(root, DC_NAMESPACE, "identifier")).toEqual([
      "https://theses.example.edu/theses/42",
      "https://hdl.handle.net/123456789/7",
    ]);
    expect(textsOf(root, DC_NAMESPACE, "rights")).toEqual([
      "The files are under embargo until 2027-08-03.",
    ]);
  });
});

describe("ETD-MS 1.1", () => {
  it("writes a thesis root in the ETD-MS 1.1 namespace with the dc elements and the degree", () => {
    const root = parseXml(etdms(samplePublishedRecord(), links)).documentElement!;
    expect(root.namespaceURI).toBe(ETDMS_NAMESPACE);
    expect(root.localName).toBe("thesis");
    expect(textsOf(root, DC_NAMESPACE, "title")).toEqual([
      "Groundwater recharge in the Volta basin",
    ]);
    expect(textsOf(root, ETDMS_NAMESPACE, "name")).toEqual(["Doctor of Philosophy"]);
    expect(textsOf(root, ETDMS_NAMESPACE, "level")).toEqual(["2"]);
    expect(textsOf(root, ETDMS_NAMESPACE, "discipline")).toEqual(["Earth Science"]);
    expect(textsOf(root, ETDMS_NAMESPACE, "grantor")).toEqual(["Department of Earth Science"]);
  });

  it("names the university as the grantor when its name is set, in ETD-MS and in DSpace's etdms file, and the department when unset", () => {
    const root = parseXml(etdms(samplePublishedRecord(), withUniversity)).documentElement!;
    expect(textsOf(root, ETDMS_NAMESPACE, "grantor")).toEqual(["University of Ghana"]);
    expect(textsOf(root, ETDMS_NAMESPACE, "discipline")).toEqual(["Earth Science"]);
    // DSpace's etdms schema file says the same.
    const dspace = parseXml(dspaceEtdms(samplePublishedRecord(), withUniversity)).documentElement!;
    const grantors = Array.from(dspace.getElementsByTagName("dcvalue"))
      .filter((node) => node.getAttribute("qualifier") === "grantor")
      .map((node) => node.textContent);
    expect(grantors).toEqual(["University of Ghana"]);
    const unset = parseXml(dspaceEtdms(samplePublishedRecord(), links)).documentElement!;
    expect(
      Array.from(unset.getElementsByTagName("dcvalue"))
        .filter((node) => node.getAttribute("qualifier") === "grantor")
        .map((node) => node.textContent),
    ).toEqual(["Department of Earth Science"]);
  });

  it("gives a master's degree level 1", () => {
    const record = samplePublishedRecord({
      degree: { name: "Master of Philosophy", abbreviation: "MPhil", level: "masters" },
    });
    const root = parseXml(etdms(record, links)).documentElement!;
    expect(textsOf(root, ETDMS_NAMESPACE, "level")).toEqual(["1"]);
  });
});

describe("MARCXML", () => {
  it("writes a record in the MARC 21 slim namespace that a MARC library reads and validates strictly", async () => {
    const xml = marcXml(
      samplePublishedRecord({ handle: "123456789/7", title: "Rivers & <lakes>" }),
      links,
    );
    expect(xml.startsWith("<?xml")).toBe(false);
    const root = parseXml(xml).documentElement!;
    expect(root.namespaceURI).toBe(MARC_NAMESPACE);
    expect(root.localName).toBe("record");

    const marc = await readMarc(xml);
    expect(marc.leader).toHaveLength(24);
    expect(marc.leader.slice(5, 8)).toBe("nam");
    const field008 = marc.get(/^008$/)[0]!.value!;
    expect(field008).toHaveLength(40);
    expect(field008.slice(0, 6)).toBe("260803");
    expect(field008.slice(7, 11)).toBe("2026");
    expect(field008.slice(24, 25)).toBe("m");
    expect(field008.slice(35, 38)).toBe("eng");
    expect(subfield(marc, "100", "a")).toEqual(["Ama Mensah"]);
    expect(subfield(marc, "245", "a")).toEqual(["Rivers & <lakes>"]);
    expect(subfield(marc, "502", "b")).toEqual(["Doctor of Philosophy"]);
    expect(subfield(marc, "502", "c")).toEqual(["Department of Earth Science"]);
    expect(subfield(marc, "502", "d")).toEqual(["2026"]);
    expect(subfield(marc, "520", "a")).toEqual([
      "We measure recharge across the basin. The second paragraph follows.",
    ]);
    expect(subfield(marc, "653", "a")).toEqual(["hydrology", "groundwater", "Volta"]);
    expect(subfield(marc, "650", "a")).toEqual(["Earth Science"]);
    expect(subfield(marc, "700", "1")).toEqual(["https://orcid.org/0000-0002-1825-0097"]);
    expect(subfield(marc, "856", "u")).toEqual([
      "https://theses.example.edu/theses/42",
      "https://hdl.handle.net/123456789/7",
    ]);
    expect(subfield(marc, "506", "a")).toEqual([]);
  });

  it("names the university in 502 $c and 710 with the department as its unit, or the department alone when unset", async () => {
    const marc = await readMarc(marcXml(samplePublishedRecord(), withUniversity));
    expect(subfield(marc, "502", "c")).toEqual(["University of Ghana"]);
    expect(subfield(marc, "710", "a")).toEqual(["University of Ghana"]);
    expect(subfield(marc, "710", "b")).toEqual(["Department of Earth Science"]);
    expect(subfield(marc, "710", "e")).toEqual(["degree granting institution"]);
    expect(marc.get(/^710$/)[0]!.ind1).toBe("2");

    const unset = await readMarc(marcXml(samplePublishedRecord(), links));
    expect(subfield(unset, "502", "c")).toEqual(["Department of Earth Science"]);
    expect(subfield(unset, "710", "a")).toEqual(["Department of Earth Science"]);
    expect(subfield(unset, "710", "b")).toEqual([]);
  });

  it("notes a running embargo in 506", async () => {
    const record = samplePublishedRecord({
      filesPublic: false,
      embargo: { choice: "2y", until: "2028-08-03" },
    });
    const marc = await readMarc(marcXml(record, links));
    expect(subfield(marc, "506", "a")).toEqual(["Files under embargo until 2028-08-03."]);
  });

  it("splits a long abstract over several 520s between words, each short enough for binary MARC", async () => {
    const abstract = Array.from({ length: 900 }, (_, index) => `word${index}`).join(" ");
    const marc = await readMarc(marcXml(samplePublishedRecord({ abstract }), links));
    const parts = subfield(marc, "520", "a");
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.length <= 3000)).toBe(true);
    expect(parts.join(" ")).toBe(abstract);
    expect(abstractParts(abstract)).toEqual(parts);
  });

  it("fails the MARC library's strict validation when a record is broken (the check can fail)", async () => {
    const broken = marcXml(samplePublishedRecord(), links).replace(
      /<leader>[^<]*<\/leader>/,
      "<leader>short</leader>",
    );
    await expect(readMarc(broken)).rejects.toThrow(/invalid/i);
  });
});
