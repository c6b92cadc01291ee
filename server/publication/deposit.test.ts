import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import JSZip from "jszip";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { createUser, type TestUser } from "../../testing/factories.js";
import { parseXml, publishThesis } from "../../testing/published-records.js";
import { startSwordServer, type SwordServer } from "../../testing/sword-server.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../../testing/test-app.js";
import {
  DEPOSIT_MAX_ATTEMPTS,
  depositRetryDelayMs,
  processDueDeposits,
  type DepositDeps,
} from "./deposit-service.js";
import { buildPackage, removePackage } from "./deposit-package.js";
import { SwordClient } from "./deposit-sword.js";
import { readPublishedRecord } from "./repository.js";
import { nowIso } from "../db/database.js";

const NO_WEB = path.join(os.tmpdir(), "ets-no-web");
const PASSWORD = "s3cret-sword-pass";
const MINUTE = 60 * 1000;
const DIM_NS = "http://www.dspace.org/xmlns/dspace/dim";

let database: TestDatabase;
let filesDir: string;
let sword: SwordServer;
let app: FastifyInstance;
let admin: TestUser;
let student: TestUser;
const logLines: string[] = [];
const extraApps: FastifyInstance[] = [];

async function startApp(
  env: Record<string, string>,
  options: { ownConnection?: boolean } = {},
): Promise<FastifyInstance> {
  const config = testConfig(
    { DATABASE_URL: database.url, STORAGE_URL: `file:${filesDir}`, LOG_LEVEL: "info", ...env },
    { depositWorker: false },
  );
  const built = await buildApp(config, {
    ...(options.ownConnection ? {} : { db: database.db }),
    webRoot: NO_WEB,
    logStream: { write: (line) => void logLines.push(line) },
  });
  await built.ready();
  return built;
}

function depsOf(instance: FastifyInstance, holder: string): DepositDeps {
  return {
    db: instance.db,
    storage: instance.storage,
    links: instance.config,
    sword: instance.config.repositorySword!,
    log: instance.log,
    holder,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-deposit-files-"));
  sword = await startSwordServer({ username: "depositor", password: PASSWORD });
  app = await startApp({ REPOSITORY_SWORD_URL: sword.serviceDocumentUrl });
  admin = await createUser(database.db, "admin");
  student = await createUser(database.db, "student");
});
afterAll(async () => {
  for (const other of extraApps) await other.close();
  await app.close();
  await sword.close();
  await database.drop();
  fs.rmSync(filesDir, { recursive: true, force: true });
});
beforeEach(() => {
  sword.failNextDeposits(0);
  sword.loseNextAnswers(0);
});
afterEach(async () => {
  // Leave no deposit due for the next test's passes.
  await database.db.deleteFrom("deposits").execute();
});

function target() {
  return { db: database.db, storage: app.storage };
}

async function requestDeposit(indexNumber: string, headers = admin.headers) {
  return app.inject({
    method: "POST",
    url: `/api/admin/submissions/${indexNumber}/publication/deposit`,
    headers,
  });
}

async function depositOf(indexNumber: string) {
  const res = await app.inject({
    method: "GET",
    url: `/api/admin/submissions/${indexNumber}/publication/deposit`,
    headers: admin.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.deposit;
}

function itemsWithSlug(slug: string) {
  return sword.items.filter((item) => item.slug === slug);
}

describe("SWORD v2 deposit", () => {
  it("deposits a published thesis as a METS DSpace SIP, completes it, and keeps the handle on the record", async () => {
    const thesis = await publishThesis(target(), { title: "Coastal erosion at Keta" });
    const queued = await requestDeposit(thesis.indexNumber);
    expect(queued.statusCode).toBe(202);
    expect(queued.json().data.deposit).toMatchObject({ state: "queued", attempts: 0 });

    const seenBefore = sword.requests.length;
    const report = await processDueDeposits(depsOf(app, "server-a"));
    expect(report).toEqual({ deposited: 1, retried: 0, failed: 0 });

    const slug = `ets-thesis-${thesis.submissionId}`;
    const [item] = itemsWithSlug(slug);
    expect(itemsWithSlug(slug)).toHaveLength(1);
    expect(item!.inProgress).toBe(false);

    // What went over the wire: the service document, the package In-Progress, the completion.
    const seen = sword.requests.slice(seenBefore);
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /sd",
      "POST /collection/theses",
      `POST /edit/${item!.id}`,
    ]);
    expect(seen.every((r) => r.authorized)).toBe(true);
    const post = seen[1]!.headers;
    expect(post.packaging).toBe("http://purl.org/net/sword/package/METSDSpaceSIP");
    expect(post["in-progress"]).toBe("true");
    expect(post["content-type"]).toBe("application/zip");
    expect(post["content-disposition"]).toBe(`attachment; filename=ets-${thesis.submissionId}.zip`);
    expect(post["content-md5"]).toBe(item!.md5);
    expect(seen[2]!.headers["in-progress"]).toBe("false");

    // The package: mets.xml with the metadata as DIM, and the thesis file.
    const zip = await JSZip.loadAsync(item!.body);
    const mets = parseXml(await zip.file("mets.xml")!.async("string"));
    const fields: Element[] = Array.from(mets.getElementsByTagNameNS(DIM_NS, "field"));
    const title = fields.find((f) => f.getAttribute("element") === "title");
    expect(title?.textContent).toBe("Coastal erosion at Keta");
    expect(mets.documentElement!.getAttribute("PROFILE")).toBe("DSpace METS SIP Profile 1.0");
    const pdf = await zip.file("Mensah thesis final.pdf")!.async("nodebuffer");
    expect(pdf.equals(thesis.bytes!)).toBe(true);

    const handle = `${sword.origin}/handle/${item!.handle}`;
    expect(await depositOf(thesis.indexNumber)).toMatchObject({
      state: "deposited",
      handle,
      lastError: null,
      nextAttemptAt: null,
    });
    const record = await readPublishedRecord(database.db, thesis.submissionId, nowIso());
    expect(record?.handle).toBe(handle);
  });

  it("retries a failed deposit after its back-off and deposits it exactly once", async () => {
    const thesis = await publishThesis(target());
    expect((await requestDeposit(thesis.indexNumber)).statusCode).toBe(202);
    sword.failNextDeposits(1);
    const now = new Date();

    expect(await processDueDeposits(depsOf(app, "server-a"), now)).toEqual({
      deposited: 0,
      retried: 1,
      failed: 0,
    });
    const failed = await depositOf(thesis.indexNumber);
    expect(failed.state).toBe("queued");
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toContain("The repository is busy");
    expect(failed.nextAttemptAt).toBe(nowIso(new Date(now.getTime() + depositRetryDelayMs(1))));

    // Not due yet: nothing is sent.
    const seen = sword.requests.length;
    await processDueDeposits(depsOf(app, "server-a"), now);
    expect(sword.requests.length).toBe(seen);

    await processDueDeposits(depsOf(app, "server-a"), new Date(now.getTime() + 2 * MINUTE));
    const slug = `ets-thesis-${thesis.submissionId}`;
    expect(itemsWithSlug(slug)).toHaveLength(1);
    expect(itemsWithSlug(slug)[0]!.inProgress).toBe(false);
    expect(await depositOf(thesis.indexNumber)).toMatchObject({ state: "deposited", attempts: 1 });

    // Asking again once deposited sends nothing.
    expect((await requestDeposit(thesis.indexNumber)).json().data.deposit.state).toBe("deposited");
    await processDueDeposits(depsOf(app, "server-a"), new Date(now.getTime() + 60 * MINUTE));
    expect(itemsWithSlug(slug)).toHaveLength(1);
  });

  it("publishes one item when the repository took the package but its answer was lost", async () => {
    const thesis = await publishThesis(target());
    await requestDeposit(thesis.indexNumber);
    sword.loseNextAnswers(1);
    const now = new Date();
    expect((await processDueDeposits(depsOf(app, "server-a"), now)).retried).toBe(1);
    await processDueDeposits(depsOf(app, "server-a"), new Date(now.getTime() + 2 * MINUTE));

    const items = itemsWithSlug(`ets-thesis-${thesis.submissionId}`);
    // The lost one stays an unfinished item the repository never publishes (ADR 026).
    expect(items.map((item) => item.inProgress)).toEqual([true, false]);
    expect(await depositOf(thesis.indexNumber)).toMatchObject({ state: "deposited" });
  });

  it("completes the stored item on a retry instead of sending the package again", async () => {
    const thesis = await publishThesis(target());
    await requestDeposit(thesis.indexNumber);
    // A worker sent the package and kept its item, then died before completing it.
    const collection = `${sword.origin}/collection/theses`;
    const before = sword.items.length;
    const record = await readPublishedRecord(database.db, thesis.submissionId, nowIso());
    const pkg = await buildPackage(
      { db: database.db, storage: app.storage, links: app.config },
      record!,
    );
    const receipt = await new SwordClient(app.config.repositorySword!).deposit(collection, pkg, {
      slug: `ets-thesis-${thesis.submissionId}`,
      inProgress: true,
    });
    removePackage(pkg.path);
    const now = new Date();
    await database.db
      .updateTable("deposits")
      .set({
        state: "depositing",
        claimed_by: "dead-server",
        claim_expires_at: nowIso(new Date(now.getTime() - 1000)),
        edit_iri: receipt.seIri,
      })
      .where("submission_id", "=", thesis.submissionId)
      .execute();

    expect((await processDueDeposits(depsOf(app, "server-b"), now)).deposited).toBe(1);
    expect(sword.items.length).toBe(before + 1);
    expect(sword.items.at(-1)!.inProgress).toBe(false);
    expect(sword.requests.at(-1)).toMatchObject({
      method: "POST",
      path: new URL(receipt.seIri).pathname,
    });
  });

  it("does not complete a stored item once the thesis was withdrawn, and gives up at once", async () => {
    const thesis = await publishThesis(target());
    await requestDeposit(thesis.indexNumber);
    const now = new Date();
    await database.db
      .updateTable("deposits")
      .set({ edit_iri: `${sword.origin}/edit/999` })
      .where("submission_id", "=", thesis.submissionId)
      .execute();
    await database.db
      .updateTable("publications")
      .set({ withdrawn_at: nowIso(now), withdrawn_reason: "Withdrawn at the author's request." })
      .where("submission_id", "=", thesis.submissionId)
      .execute();
    const seen = sword.requests.length;
    expect(await processDueDeposits(depsOf(app, "server-a"), now)).toEqual({
      deposited: 0,
      retried: 0,
      failed: 1,
    });
    expect(sword.requests.length).toBe(seen);
    const view = await depositOf(thesis.indexNumber);
    expect(view).toMatchObject({ state: "failed", attempts: 1 });
    expect(view.lastError).toContain("no longer published");
  });

  it("deposits each thesis once when two app instances on one database work the queue together", async () => {
    const second = await startApp(
      { REPOSITORY_SWORD_URL: sword.serviceDocumentUrl },
      { ownConnection: true },
    );
    extraApps.push(second);
    const theses = [];
    for (let i = 0; i < 6; i += 1) theses.push(await publishThesis(target()));
    for (const thesis of theses) await requestDeposit(thesis.indexNumber);
    const now = new Date();
    const reports = await Promise.all([
      processDueDeposits(depsOf(app, "server-a"), now),
      processDueDeposits(depsOf(second, "server-b"), now),
    ]);
    expect(reports[0]!.deposited + reports[1]!.deposited).toBe(6);
    for (const thesis of theses) {
      const items = itemsWithSlug(`ets-thesis-${thesis.submissionId}`);
      expect(items).toHaveLength(1);
      expect(items[0]!.inProgress).toBe(false);
    }
  });

  it("gives up after the last attempt, says why, and lets an administrator queue it again", async () => {
    const thesis = await publishThesis(target());
    await requestDeposit(thesis.indexNumber);
    sword.failNextDeposits(DEPOSIT_MAX_ATTEMPTS);
    let at = Date.now();
    for (let attempt = 0; attempt < DEPOSIT_MAX_ATTEMPTS; attempt += 1) {
      await processDueDeposits(depsOf(app, "server-a"), new Date(at));
      at += 7 * 3600 * 1000;
    }
    const failed = await depositOf(thesis.indexNumber);
    expect(failed).toMatchObject({ state: "failed", attempts: DEPOSIT_MAX_ATTEMPTS });
    expect(failed.lastError).toContain("500");
    const again = await requestDeposit(thesis.indexNumber);
    expect(again.json().data.deposit).toMatchObject({
      state: "queued",
      attempts: 0,
      lastError: null,
    });
    await processDueDeposits(depsOf(app, "server-a"), new Date(at));
    expect(await depositOf(thesis.indexNumber)).toMatchObject({ state: "deposited" });
  });

  it("never writes the repository's credentials to the log, the queue or an answer", async () => {
    const thesis = await publishThesis(target());
    await requestDeposit(thesis.indexNumber);
    // Wrong password: the repository refuses; then an unreachable repository.
    const refused = await startApp({
      REPOSITORY_SWORD_URL: sword.serviceDocumentUrl.replace(PASSWORD, "wrong-pass-123"),
    });
    extraApps.push(refused);
    await processDueDeposits(depsOf(refused, "server-c"), new Date());
    const closed = await startSwordServer({ username: "depositor", password: PASSWORD });
    const gone = closed.serviceDocumentUrl;
    await closed.close();
    const unreachable = await startApp({ REPOSITORY_SWORD_URL: gone });
    extraApps.push(unreachable);
    await processDueDeposits(depsOf(unreachable, "server-d"), new Date(Date.now() + 2 * MINUTE));

    const view = await depositOf(thesis.indexNumber);
    expect(view.attempts).toBe(2);
    expect(view.lastError).toMatch(/ECONNREFUSED/);
    const list = await app.inject({
      method: "GET",
      url: "/api/admin/publication/deposits",
      headers: admin.headers,
    });
    const rows = await database.db.selectFrom("deposits").selectAll().execute();
    const everything = [
      logLines.join("\n"),
      list.body,
      JSON.stringify(view),
      JSON.stringify(rows),
    ].join("\n");
    for (const secret of [PASSWORD, "wrong-pass-123", "depositor:"]) {
      expect(everything).not.toContain(secret);
    }
    expect(logLines.join("\n")).toContain("deposit failed; will retry");
  });
});

describe("deposit requests", () => {
  it("are refused with the setting named when no repository is configured", async () => {
    const plain = await startApp({});
    extraApps.push(plain);
    const thesis = await publishThesis(target());
    const res = await plain.inject({
      method: "POST",
      url: `/api/admin/submissions/${thesis.indexNumber}/publication/deposit`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain("REPOSITORY_SWORD_URL");
  });

  it("are refused for a thesis not published or withdrawn, and for students", async () => {
    const draft = await publishThesis(target(), { unpublished: true });
    const withdrawn = await publishThesis(target(), { withdrawn: true });
    expect((await requestDeposit(draft.indexNumber)).statusCode).toBe(409);
    expect((await requestDeposit(withdrawn.indexNumber)).statusCode).toBe(409);
    const published = await publishThesis(target());
    expect((await requestDeposit(published.indexNumber, student.headers)).statusCode).toBe(403);
    expect((await requestDeposit("no-such-index")).statusCode).toBe(404);
  });

  it("queue a selection in bulk, listing what was refused and why", async () => {
    const a = await publishThesis(target());
    const b = await publishThesis(target());
    const draft = await publishThesis(target(), { unpublished: true });
    const res = await app.inject({
      method: "POST",
      url: "/api/admin/publication/deposits",
      headers: admin.headers,
      payload: { indexNumbers: [a.indexNumber, b.indexNumber, draft.indexNumber, "missing-1"] },
    });
    expect(res.statusCode).toBe(202);
    const body = res.json().data;
    expect(body.queued.map((d: { indexNumber: string }) => d.indexNumber).sort()).toEqual(
      [a.indexNumber, b.indexNumber].sort(),
    );
    expect(body.refused).toEqual([
      { indexNumber: draft.indexNumber, reason: expect.stringContaining("not published") },
      { indexNumber: "missing-1", reason: "There is no submission with this index number." },
    ]);
    const tooMany = await app.inject({
      method: "POST",
      url: "/api/admin/publication/deposits",
      headers: admin.headers,
      payload: { indexNumbers: Array.from({ length: 101 }, (_, i) => `x${i}`) },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fields[0].field).toBe("indexNumbers");
  });

  it("list deposits a page at a time, by state", async () => {
    const theses = [];
    for (let i = 0; i < 3; i += 1) theses.push(await publishThesis(target()));
    for (const thesis of theses) await requestDeposit(thesis.indexNumber);
    const res = await app.inject({
      method: "GET",
      url: "/api/admin/publication/deposits?state=queued",
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((d: { indexNumber: string }) => d.indexNumber)).toEqual(
      theses.map((thesis) => thesis.indexNumber).reverse(),
    );
    expect(res.json().next).toBeNull();
    const none = await app.inject({
      method: "GET",
      url: "/api/admin/publication/deposits?state=deposited",
      headers: admin.headers,
    });
    expect(none.json().data).toEqual([]);
  });
});

describe("the retry back-off", () => {
  it("doubles from a minute and stops growing at six hours", () => {
    expect(depositRetryDelayMs(1)).toBe(MINUTE);
    expect(depositRetryDelayMs(2)).toBe(2 * MINUTE);
    expect(depositRetryDelayMs(4)).toBe(8 * MINUTE);
    expect(depositRetryDelayMs(20)).toBe(6 * 60 * MINUTE);
  });
});
