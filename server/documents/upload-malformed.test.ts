import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, makeSubmission, type TestUser } from "../../testing/factories.js";
import { validPdf } from "../../testing/pdf-fixtures.js";
import {
  createDocumentsTestApp,
  multipartBody,
  stagingFiles,
  storedKeys,
  type DocumentsTestApp,
} from "../../testing/uploads.js";

/**
 * An upload whose multipart body is malformed answered 500 (busboy's error, or the part's, went
 * unrecognised); it is the client's to fix, so 400 naming the file, with nothing kept.
 */

let t: DocumentsTestApp;
let student: TestUser;
let filesDir: string;

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-malformed-"));
  t = await createDocumentsTestApp(`file:${filesDir}`, { RATE_LIMIT_UPLOADS: "1000" });
  student = await createUser(t.db, "student", { indexNumber: "10900301" });
  await makeSubmission(t.db, { indexNumber: "10900301" });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

const URL = "/api/submissions/10900301/documents/supervisorForm";

function send(contentType: string, payload: Buffer) {
  return t.app.inject({
    method: "POST",
    url: URL,
    headers: { ...student.headers, "content-type": contentType },
    payload,
  });
}

const form = () =>
  multipartBody([
    {
      name: "file",
      fileName: "supervisor-form.pdf",
      contentType: "application/pdf",
      content: validPdf(),
    },
  ]);
const boundaryOf = (contentType: string) => contentType.replace(/^.*boundary=/, "");

describe("an upload with a malformed multipart body", () => {
  it.each([
    [
      "cut off inside the file",
      () => {
        const { payload, contentType } = form();
        return { contentType, payload: payload.subarray(0, payload.length - 400) };
      },
    ],
    ["without a boundary", () => ({ contentType: "multipart/form-data", payload: form().payload })],
    [
      "with a boundary the body does not use",
      () => ({
        contentType: "multipart/form-data; boundary=not-this-one",
        payload: form().payload,
      }),
    ],
    [
      "with a boundary of 300 characters",
      () => {
        const { payload, contentType } = form();
        const long = "b".repeat(300);
        return {
          contentType: `multipart/form-data; boundary=${long}`,
          payload: Buffer.from(
            payload.toString("latin1").replaceAll(boundaryOf(contentType), long),
            "latin1",
          ),
        };
      },
    ],
  ])("%s is refused with 400 naming the file, and nothing is kept", async (_case, make) => {
    const { contentType, payload } = make();
    const res = await send(contentType, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: "validation",
      fields: [{ field: "file", message: "the form data is malformed or cut short" }],
    });
    expect(await t.db.selectFrom("submission_documents").selectAll().execute()).toEqual([]);
    expect(await storedKeys(t.storage)).toEqual([]);
    expect(stagingFiles(t.stagingDir)).toEqual([]);
  });

  it("does not stop a well-formed one from being stored", async () => {
    const { contentType, payload } = form();
    const res = await send(contentType, payload);
    expect(res.statusCode).toBe(201);
    expect(await storedKeys(t.storage)).toHaveLength(1);
  });
});
