import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../auth/tokens.js";
import { migrateToLatest } from "../db/database.js";
import { migrationProvider } from "../db/migrations/index.js";
import { createExaminer, examinerLinksOf } from "../../testing/examiners.js";
import { makeSubmission } from "../../testing/factories.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { findLinkByTokenHash } from "./link-repository.js";

/**
 * Migration 015 on a database whose examiners already hold links (issue 24): each examination's
 * single link (migration 006's token_hash) becomes its invitation in examiner_links, with its
 * expiry and revocation, and opens the examination as before.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("migration 015 (examiner links)", () => {
  it("moves each examination's link into examiner_links, where the same token opens it", async () => {
    const { db } = database;
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(
      "014_mail_secrets",
    );
    expect(error).toBeUndefined();
    const submission = await makeSubmission(db, { sgsStage: "sent_to_examiners" });
    const internal = await createExaminer(db, { kind: "internal" });
    const external = await createExaminer(db, { kind: "external" });
    const liveToken = "L".repeat(43);
    const revokedToken = "R".repeat(43);
    const insert = (examinerId: number, role: string, token: string, revokedAt: string | null) =>
      sql`insert into examinations (submission_id, examiner_id, role, state, nominated_at,
          token_hash, link_created_at, link_expires_at, link_revoked_at, sent_at, created_at,
          updated_at)
        values (${submission.id}, ${examinerId}, ${role}, 'sent', '2026-02-01T09:00:00.000Z',
          ${hashToken(token)}, '2026-02-06T09:00:00.000Z', '2099-06-06T09:00:00.000Z',
          ${revokedAt}, '2026-02-06T09:00:00.000Z', '2026-02-01T09:00:00.000Z',
          '2026-02-06T09:00:00.000Z')`.execute(db);
    await insert(internal.id, "internal", liveToken, null);
    await insert(external.id, "external", revokedToken, "2026-03-01T10:00:00.000Z");

    expect(await migrateToLatest(db)).toContain("015_examiner_links");

    const live = await findLinkByTokenHash(db, hashToken(liveToken));
    expect(live).toMatchObject({
      submissionId: submission.id,
      role: "internal",
      state: "sent",
      linkExpiresAt: "2099-06-06T09:00:00.000Z",
      linkRevokedAt: null,
    });
    const revoked = await findLinkByTokenHash(db, hashToken(revokedToken));
    expect(revoked?.linkRevokedAt).toBe("2026-03-01T10:00:00.000Z");
    expect(await examinerLinksOf(db, live?.examinationId ?? 0)).toEqual([
      {
        token_hash: hashToken(liveToken),
        purpose: "invitation",
        created_at: "2026-02-06T09:00:00.000Z",
        expires_at: "2099-06-06T09:00:00.000Z",
        revoked_at: null,
      },
    ]);
    // The old column holds no hash any more: examiner_links is the one place.
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from examinations
      where token_hash is not null`.execute(db);
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
