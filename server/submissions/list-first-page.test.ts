import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PAGE_SIZE_CHOICES,
  SUBMISSION_SORTS,
  submissionListQuerySchema,
} from "../../common/submissions-api.js";
import { generateSubmissions } from "../../scripts/bench-data.js";
import { createTestDatabase, type TestDatabase } from "../../testing/test-app.js";
import { insertWithTiedCreationTimes } from "../../testing/factories.js";
import { listSubmissions, plainListPageQuery } from "./repository.js";

// Page 1 of the plain list (no term, no filter) in each size the list offers is a statement of its
// own, with the size written into it: PostgreSQL plans a statement without placeholders once per
// connection, where the size-and-offset statement was planned again on every request. Its rows
// must be those of the other pages' statement, in every sort and order.

let t: TestDatabase;
const SIZE = 130;

beforeAll(async () => {
  t = await createTestDatabase();
  const rows = generateSubmissions(SIZE, new Date("2026-01-01T00:00:00Z"));
  await insertWithTiedCreationTimes(
    t.db,
    rows.map((r) => r.fields),
  );
});
afterAll(async () => {
  await t.drop();
});

const ids = async (sort: string, order: string, page: number, pageSize: number) =>
  (
    await listSubmissions(t.db, submissionListQuerySchema.parse({ sort, order, page, pageSize }))
  ).items.map((s) => s.id);

describe("page 1 of the plain list in each offered size", () => {
  it("has the rows, in order, of the paged statement's pages (size 20, not offered)", async () => {
    expect(PAGE_SIZE_CHOICES.length).toBeGreaterThan(0);
    for (const sort of SUBMISSION_SORTS) {
      for (const order of ["asc", "desc"]) {
        const reference: number[] = [];
        for (let page = 1; page <= 7; page += 1)
          reference.push(...(await ids(sort, order, page, 20)));
        expect(reference).toHaveLength(SIZE);
        for (const size of PAGE_SIZE_CHOICES) {
          expect(await ids(sort, order, 1, size), `${sort} ${order}, ${size} rows`).toEqual(
            reference.slice(0, size),
          );
        }
      }
    }
  });

  it("is a statement without placeholders, which PostgreSQL never plans again", async () => {
    for (const size of PAGE_SIZE_CHOICES) {
      const compiled = plainListPageQuery("name", "asc", size).build(t.db).compile();
      expect(compiled.parameters).toEqual([]);
      expect(compiled.sql).toContain(`limit ${size}`);
    }
    if (t.kind !== "postgres") return;
    // Executed as the app runs it: a named statement on one connection. A custom plan is one made
    // for the execution's values; with none to plan for, every execution uses the one plan.
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      const first = plainListPageQuery("updatedAt", "desc", 25).build(t.db).compile();
      for (let run = 0; run < 8; run += 1) {
        const { rows } = await client.query({ name: "first_page", text: first.sql, values: [] });
        expect(rows).toHaveLength(25);
      }
      const { rows } = await client.query<{ custom_plans: string; generic_plans: string }>(
        "select custom_plans, generic_plans from pg_prepared_statements where name = 'first_page'",
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]?.custom_plans)).toBe(0);
      expect(Number(rows[0]?.generic_plans)).toBe(8);
    } finally {
      await client.end();
    }
  });
});
