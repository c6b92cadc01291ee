import { afterAll, beforeAll, describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { nowIso } from "../db/database.js";
import type { PeriodicJob } from "../jobs/periodic.js";
import { createTestApp, testConfig, type TestApp } from "../../testing/test-app.js";
import {
  GOOD_METADATA,
  publicationFixture,
  publish,
  send,
  type PublicationFixture,
} from "../../testing/publication.js";
import { EMBARGO_LIFTING_JOB, liftDueEmbargoes, startEmbargoLifting } from "./embargo.js";
import { readPublishedRecord } from "./repository.js";

let t: TestApp;
const open: FastifyInstance[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const app of open) await app.close();
  await t.close();
});

const at = (day: string) => new Date(`${day}T09:00:00.000Z`);

async function datestampOf(submissionId: number): Promise<string> {
  const row = await t.db
    .selectFrom("publications")
    .select("datestamp")
    .where("submission_id", "=", submissionId)
    .executeTakeFirstOrThrow();
  return row.datestamp;
}

describe("each embargo choice", () => {
  // Award date 2026-07-20: the ends are counted from it (ADR 020).
  const cases: ["none" | "6m" | "1y" | "2y", string | null][] = [
    ["none", null],
    ["6m", "2027-01-20"],
    ["1y", "2027-07-20"],
    ["2y", "2028-07-20"],
  ];

  it.each(cases)(
    "%s: metadata public at once, files from its end day (counted from the award date), and the job moves the datestamp on that day",
    async (choice, until) => {
      const f = await publicationFixture(t);
      await publish(t.app, f, { choice, awardDate: "2026-07-20" });
      const record = await readPublishedRecord(t.db, f.submission.id, nowIso(at("2026-08-01")));
      expect(record?.embargo).toEqual({ choice, until });
      expect(record?.title).toBeTruthy();
      expect(record?.filesPublic).toBe(choice === "none");
      if (until === null) return;

      const dayBefore = new Date(at(until).getTime() - 24 * 3600 * 1000);
      const published = await datestampOf(f.submission.id);
      await liftDueEmbargoes(t.db, dayBefore);
      expect(await datestampOf(f.submission.id)).toBe(published);
      expect(
        (await readPublishedRecord(t.db, f.submission.id, nowIso(dayBefore)))?.filesPublic,
      ).toBe(false);

      const lifted = await liftDueEmbargoes(t.db, at(until));
      expect(lifted).toContain(f.submission.id);
      expect(await datestampOf(f.submission.id)).toBe(nowIso(at(until)));
      const after = await readPublishedRecord(t.db, f.submission.id, nowIso(at(until)));
      expect(after?.filesPublic).toBe(true);
      expect(after?.datestamp).toBe(nowIso(at(until)));
      // Run again: nothing more to lift, the datestamp stays.
      expect(await liftDueEmbargoes(t.db, at(until))).not.toContain(f.submission.id);
    },
  );
});

describe("a patent or sensitive embargo", () => {
  const base = (f: PublicationFixture) =>
    `/api/submissions/${f.submission.indexNumber}/publication`;
  const admin = (f: PublicationFixture) =>
    `/api/admin/submissions/${f.submission.indexNumber}/publication`;

  it("needs a written reason, and is not published until the school approves it with an end date", async () => {
    const f = await publicationFixture(t);
    const noReason = await send(t.app, "PUT", `${base(f)}/embargo`, f.student.headers, {
      choice: "sensitive",
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ fields: { field: string }[] }>().fields.map((x) => x.field)).toEqual([
      "reason",
    ]);

    await send(t.app, "PUT", base(f), f.student.headers, GOOD_METADATA);
    await send(t.app, "POST", `${base(f)}/licence`, f.student.headers, {
      version: f.licenceVersion,
    });
    const chosen = await send(t.app, "PUT", `${base(f)}/embargo`, f.student.headers, {
      choice: "sensitive",
      reason: "A patent application on the irrigation method is pending.",
    });
    expect(chosen.json<{ data: { state: string } }>().data.state).toBe("awaiting_approval");
    const confirmed = await send(t.app, "PUT", admin(f), f.admin.headers, {
      degreeId: f.degreeId,
      department: "Department of Agricultural Engineering",
      awardDate: "2026-07-20",
      confirm: true,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await readPublishedRecord(t.db, f.submission.id, nowIso())).toBeNull();

    const noDate = await send(t.app, "POST", `${admin(f)}/embargo-decision`, f.admin.headers, {
      decision: "approve",
    });
    expect(noDate.statusCode).toBe(400);
    const tooLong = await send(t.app, "POST", `${admin(f)}/embargo-decision`, f.admin.headers, {
      decision: "approve",
      until: "2032-01-01",
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ fields: { field: string }[] }>().fields[0]?.field).toBe("until");

    const approved = await send(t.app, "POST", `${admin(f)}/embargo-decision`, f.admin.headers, {
      decision: "approve",
      until: "2029-07-20",
    });
    expect(approved.statusCode).toBe(200);
    const record = await readPublishedRecord(t.db, f.submission.id, nowIso());
    expect(record?.embargo).toEqual({ choice: "sensitive", until: "2029-07-20" });
    expect(record?.filesPublic).toBe(false);
    expect(
      (await readPublishedRecord(t.db, f.submission.id, nowIso(at("2029-07-20"))))?.filesPublic,
    ).toBe(true);
    const audit = await t.db
      .selectFrom("audit_log")
      .select("event")
      .where("subject", "=", f.submission.indexNumber)
      .where("event", "in", ["publication.embargo_approved", "publication.published"])
      .execute();
    expect(audit.map((a) => a.event).sort()).toEqual([
      "publication.embargo_approved",
      "publication.published",
    ]);
  });

  it("refused (with a note), stays unpublished until the student chooses again", async () => {
    const f = await publicationFixture(t);
    await send(t.app, "PUT", base(f), f.student.headers, GOOD_METADATA);
    await send(t.app, "POST", `${base(f)}/licence`, f.student.headers, {
      version: f.licenceVersion,
    });
    await send(t.app, "PUT", `${base(f)}/embargo`, f.student.headers, {
      choice: "sensitive",
      reason: "Commercial partner's data.",
    });
    await send(t.app, "PUT", admin(f), f.admin.headers, {
      degreeId: f.degreeId,
      department: "Department of Economics",
      awardDate: "2026-07-20",
      confirm: true,
    });
    const noNote = await send(t.app, "POST", `${admin(f)}/embargo-decision`, f.admin.headers, {
      decision: "refuse",
    });
    expect(noNote.statusCode).toBe(400);
    const refused = await send(t.app, "POST", `${admin(f)}/embargo-decision`, f.admin.headers, {
      decision: "refuse",
      note: "The partner agreement allows a 2-year embargo; please choose that.",
    });
    expect(refused.json<{ data: { embargo: { approval: string } } }>().data.embargo.approval).toBe(
      "refused",
    );
    expect(await readPublishedRecord(t.db, f.submission.id, nowIso())).toBeNull();
    const rechosen = await send(t.app, "PUT", `${base(f)}/embargo`, f.student.headers, {
      choice: "2y",
    });
    expect(rechosen.json<{ data: { state: string } }>().data.state).toBe("published");
    expect((await readPublishedRecord(t.db, f.submission.id, nowIso()))?.embargo).toEqual({
      choice: "2y",
      until: "2028-07-20",
    });
  });
});

describe("the lifting job on two servers sharing the database", () => {
  it("lifts an embargo once, on whichever server holds the lease, when the clock reaches its day", async () => {
    const f = await publicationFixture(t);
    await publish(t.app, f, { choice: "6m", awardDate: "2026-07-20" });
    let now = at("2027-01-19");
    const start = async (holder: string): Promise<PeriodicJob> => {
      const config = testConfig({
        DATABASE_URL: t.database.url,
        STORAGE_URL: `file:${path.join(os.tmpdir(), "ets-embargo-files")}`,
      });
      const app = await buildApp(config, { webRoot: path.join(os.tmpdir(), "ets-no-web") });
      open.push(app);
      const job = startEmbargoLifting(app, { holder, clock: () => now });
      await app.ready();
      return job;
    };
    const a = await start("server-a");
    const b = await start("server-b");
    await a.tick();
    await b.tick();
    const before = await datestampOf(f.submission.id);
    expect((await readPublishedRecord(t.db, f.submission.id, nowIso(now)))?.filesPublic).toBe(
      false,
    );

    // The day comes; both servers tick, more than an interval apart, twice each.
    now = at("2027-01-20");
    await a.tick();
    await b.tick();
    now = new Date(now.getTime() + 2 * 3600 * 1000);
    await b.tick();
    await a.tick();

    const after = await datestampOf(f.submission.id);
    expect(after).not.toBe(before);
    expect(after).toBe(nowIso(at("2027-01-20")));
    const lifts = await t.db
      .selectFrom("audit_log")
      .select("details")
      .where("event", "=", "publication.embargo_lifted")
      .execute();
    const mentioning = lifts.filter((row) =>
      String(JSON.parse(row.details ?? "{}").submissionIds)
        .split(",")
        .includes(String(f.submission.id)),
    );
    expect(mentioning).toHaveLength(1);
    const lease = await t.db
      .selectFrom("job_leases")
      .select("holder")
      .where("name", "=", EMBARGO_LIFTING_JOB)
      .executeTakeFirst();
    expect(["server-a", "server-b"]).toContain(lease?.holder);
  });
});
