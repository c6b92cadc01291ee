import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PublishedRecord } from "../../common/publication.js";
import type { Executor } from "../db/database.js";
import type { FileStorage } from "../files/storage.js";
import { zipStream, type ZipEntry } from "../files/zip.js";
import { dspaceDcValues, dspaceEtdmsValues } from "./formats/dspace.js";
import type { FormatLinks } from "./formats/links.js";
import { element, textElement } from "./formats/xml.js";
import { safFileName } from "./exports.js";
import { openFinalThesis } from "./repository.js";
import type { SwordPackage } from "./deposit-sword.js";

/**
 * The SWORD package (ADR 026): METS DSpace SIP, a zip holding `mets.xml` and the thesis file.
 * The METS document carries the metadata as DSpace Intermediate Metadata (DIM: the same dc and
 * etdms values the Simple Archive Format export writes) in one dmdSec, the file in the CONTENT
 * file group (DSpace's ORIGINAL bundle), and a structMap tying them together, as DSpace's METS
 * SIP profile expects. Built in a temporary file, so its MD5 (Content-MD5) is known before it is
 * sent and memory stays flat whatever the thesis's size.
 */

const METS_NS = "http://www.loc.gov/METS/";
const DIM_NS = "http://www.dspace.org/xmlns/dspace/dim";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function metsDocument(record: PublishedRecord, links: FormatLinks): string {
  const fields = [
    ...dspaceDcValues(record, links).map(([name, qualifier, value]) =>
      dimField("dc", name, qualifier, value),
    ),
    ...dspaceEtdmsValues(record, links).map(([name, qualifier, value]) =>
      dimField("etdms", name, qualifier, value),
    ),
  ];
  const dmd = element(
    "dmdSec",
    [
      element(
        "mdWrap",
        [element("xmlData", [element("dim:dim", fields, { "xmlns:dim": DIM_NS })])],
        { MDTYPE: "OTHER", OTHERMDTYPE: "DIM" },
      ),
    ],
    { ID: "dmd_1" },
  );
  const file = record.file;
  const fileSec = file
    ? [
        element("fileSec", [
          element(
            "fileGrp",
            [
              element(
                "file",
                [
                  element("FLocat", [], {
                    LOCTYPE: "URL",
                    "xlink:href": safFileName(file.fileName),
                  }),
                ],
                { ID: "file_1", MIMETYPE: file.contentType, SIZE: String(file.size) },
              ),
            ],
            { USE: "CONTENT" },
          ),
        ]),
      ]
    : [];
  const structMap = element(
    "structMap",
    [
      element("div", file ? [element("fptr", [], { FILEID: "file_1" })] : [], {
        ID: "div_1",
        DMDID: "dmd_1",
        TYPE: "DSpace Item",
      }),
    ],
    { ID: "struct_1", LABEL: "DSpace Object", TYPE: "LOGICAL" },
  );
  return (
    XML_DECLARATION +
    element("mets", [dmd, ...fileSec, structMap], {
      xmlns: METS_NS,
      "xmlns:xlink": XLINK_NS,
      ID: `ets-${record.submissionId}`,
      OBJID: `ets:${record.submissionId}`,
      LABEL: "DSpace Item",
      PROFILE: "DSpace METS SIP Profile 1.0",
    })
  );
}

function dimField(schema: string, name: string, qualifier: string, value: string): string {
  return textElement("dim:field", value, {
    mdschema: schema,
    element: name,
    qualifier: qualifier === "none" ? null : qualifier,
  });
}

/**
 * Writes the package to a temporary file in the store's staging folder and measures it. The
 * caller removes `path` when done (removePackage).
 */
export async function buildPackage(
  deps: { db: Executor; storage: FileStorage; links: FormatLinks },
  record: PublishedRecord,
): Promise<SwordPackage> {
  fs.mkdirSync(deps.storage.stagingDir, { recursive: true });
  const target = path.join(
    deps.storage.stagingDir,
    `sword-${record.submissionId}-${randomBytes(6).toString("hex")}.zip`,
  );
  const mtime = new Date(record.datestamp);
  const entries: ZipEntry[] = [
    { name: "mets.xml", data: Buffer.from(metsDocument(record, deps.links), "utf8"), mtime },
  ];
  if (record.file) {
    entries.push({
      name: safFileName(record.file.fileName),
      // Deflated, not stored: the entry's sizes follow its data (a data descriptor), and Java's
      // ZipInputStream, which a repository may read the package with, refuses a stored entry
      // whose sizes come after it. One file per deposit: the CPU is no concern.
      mtime,
      sizeHint: record.file.size,
      // Opened when the zip reaches it, so a failure before then leaves no file open.
      data: async () => {
        const opened = await openFinalThesis(deps.db, deps.storage, record.submissionId);
        if (!opened) throw new Error("the final thesis file is no longer on record");
        return opened.stream;
      },
    });
  }
  const zip = zipStream(entries);
  const hash = createHash("md5");
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(zip, measure, fs.createWriteStream(target));
  } catch (error) {
    removePackage(target);
    throw error;
  }
  return {
    path: target,
    size,
    md5: hash.digest("hex"),
    fileName: `ets-${record.submissionId}.zip`,
  };
}

export function removePackage(filePath: string): void {
  fs.rmSync(filePath, { force: true });
}
