import {
  sql,
  type AliasedExpression,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from "kysely";
import {
  DOCUMENTS,
  type DocumentItem,
  type ExaminerState,
  type SgsStage,
} from "../../common/workflow.js";
import type { Submission, SubmissionFields } from "../../common/submission.js";
import {
  LIST_TOTAL_CAP,
  NONE,
  PAGE_SIZE_CHOICES,
  submissionFiltersSchema,
  type SubmissionFilters,
  type SubmissionListQuery,
  type SubmissionSort,
} from "../../common/submissions-api.js";
import {
  countSearchIndexMatches,
  isAsciiTerm,
  searchConditionRowByRow,
  searchIndexServes,
  searchTermGrams,
  SEARCH_GRAM_LENGTH,
  countShortTermMatches,
  hotQuery,
  runHotQuery,
  shortSearchTerm,
  shortTermMatchCondition,
  shortTermNamePage,
  submissionSearchCondition,
} from "../db/dialect.js";
import type { Executor } from "../db/database.js";
import type { Database, NewSubmissionRow, SubmissionRow } from "../db/schema.js";
import { refreshReportRollups } from "../db/report-rollups.js";
import { enqueueTimelineWebhooks } from "../webhooks/events.js";

/** Row types never leave this module. */

const DOCUMENT_COLUMNS: Record<
  DocumentItem,
  { submitted: keyof SubmissionRow; receivedOn: keyof SubmissionRow }
> = {
  thesis: { submitted: "thesis_submitted", receivedOn: "thesis_received_on" },
  turnitinReport: {
    submitted: "turnitin_report_submitted",
    receivedOn: "turnitin_report_received_on",
  },
  supervisorForm: {
    submitted: "supervisor_form_submitted",
    receivedOn: "supervisor_form_received_on",
  },
  statementOfResult: {
    submitted: "statement_of_result_submitted",
    receivedOn: "statement_of_result_received_on",
  },
  financialClearance: {
    submitted: "financial_clearance_submitted",
    receivedOn: "financial_clearance_received_on",
  },
};

export function documentColumns(item: DocumentItem) {
  return DOCUMENT_COLUMNS[item];
}

export function rowToSubmission(row: SubmissionRow): Submission {
  const documents = Object.fromEntries(
    DOCUMENTS.map((item) => {
      const cols = DOCUMENT_COLUMNS[item];
      return [
        item,
        {
          submitted: Number(row[cols.submitted]) === 1,
          receivedOn: (row[cols.receivedOn] as string | null) ?? null,
        },
      ];
    }),
  ) as Submission["documents"];
  return {
    id: row.id,
    studentName: row.student_name,
    indexNumber: row.index_number,
    programme: row.programme,
    contact: row.contact,
    studentEmail: row.student_email,
    documents,
    sgsStage: row.sgs_stage as SgsStage | null,
    internalExaminer: row.internal_examiner as ExaminerState | null,
    externalExaminer: row.external_examiner as ExaminerState | null,
    thesisStatus: row.thesis_status,
    effectiveDate: row.effective_date,
    thesisTitle: row.thesis_title,
    thesisAbstract: row.thesis_abstract,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    financialClearanceBy:
      row.financial_clearance_by && row.financial_clearance_by_at
        ? { system: row.financial_clearance_by, at: row.financial_clearance_by_at }
        : null,
  };
}

/** The columns that hold a submission's fields (everything but id, times and version). */
export function fieldsToColumns(fields: SubmissionFields) {
  const columns: Record<string, string | number | null> = {
    student_name: fields.studentName,
    index_number: fields.indexNumber,
    programme: fields.programme,
    contact: fields.contact,
    student_email: fields.studentEmail,
    sgs_stage: fields.sgsStage,
    internal_examiner: fields.internalExaminer,
    external_examiner: fields.externalExaminer,
    thesis_status: fields.thesisStatus,
    effective_date: fields.effectiveDate,
  };
  for (const item of DOCUMENTS) {
    const cols = DOCUMENT_COLUMNS[item];
    columns[cols.submitted] = fields.documents[item].submitted ? 1 : 0;
    columns[cols.receivedOn] = fields.documents[item].receivedOn;
  }
  return columns as Omit<NewSubmissionRow, "id" | "created_at" | "updated_at" | "version">;
}

export async function insertSubmission(
  db: Executor,
  fields: SubmissionFields,
  at: string,
  id?: number,
): Promise<Submission> {
  const row = await db
    .insertInto("submissions")
    .values({
      ...(id === undefined ? {} : { id }),
      ...fieldsToColumns(fields),
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return rowToSubmission(row);
}

/** Inserts many submissions with multi-row statements; returns them in the order given. */
export async function insertSubmissions(
  db: Executor,
  all: SubmissionFields[],
  at: string,
): Promise<Submission[]> {
  const created: Submission[] = [];
  // 200 rows of 27 columns stay well under SQLite's and PostgreSQL's parameter limits.
  for (let start = 0; start < all.length; start += 200) {
    const rows = await db
      .insertInto("submissions")
      .values(
        all
          .slice(start, start + 200)
          .map((fields) => ({ ...fieldsToColumns(fields), created_at: at, updated_at: at })),
      )
      .returningAll()
      .execute();
    const byIndexNumber = new Map(rows.map((row) => [row.index_number, rowToSubmission(row)]));
    for (const fields of all.slice(start, start + 200)) {
      const submission = byIndexNumber.get(fields.indexNumber);
      if (submission) created.push(submission);
    }
  }
  return created;
}

export async function findSubmissionByIndexNumber(
  db: Executor,
  indexNumber: string,
): Promise<Submission | null> {
  const row = await db
    .selectFrom("submissions")
    .selectAll()
    .where("index_number", "=", indexNumber)
    .executeTakeFirst();
  return row ? rowToSubmission(row) : null;
}

export async function findSubmissionById(db: Executor, id: number): Promise<Submission | null> {
  const row = await db
    .selectFrom("submissions")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? rowToSubmission(row) : null;
}

/**
 * Takes the submission's row lock for the rest of the transaction, so two uploads of one item
 * (or an upload and a review) cannot both read the same versions and decide on them. A no-op
 * write: PostgreSQL locks the row; SQLite's write transaction already holds the database.
 */
export async function lockSubmission(db: Executor, submissionId: number): Promise<void> {
  await db
    .updateTable("submissions")
    .set((eb) => ({ version: eb.ref("version") }))
    .where("id", "=", submissionId)
    .execute();
}

export async function countSubmissions(db: Executor): Promise<number> {
  const { count } = await db
    .selectFrom("submissions")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

// ---------------------------------------------------------------------------------------------
// Listing and searching

const SORT_COLUMNS = {
  name: "student_name",
  indexNumber: "index_number",
  programme: "programme",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<SubmissionSort, keyof SubmissionRow>;

/** The WHERE clause of the list and the export: every filter given, all of them must hold. */
export function matchesFilters(db: Executor, filters: SubmissionFilters, unindexed = false) {
  return (eb: ExpressionBuilder<Database, "submissions">) => {
    const conditions: Expression<SqlBool>[] = [];
    const term = filters.q?.trim();
    if (term) conditions.push(submissionSearchCondition(db, term));
    // `column || ''` is the same value (and the same NULL) but no index serves it: a walk along
    // the sort index tests the filters row by row instead of being planned around them (SQLite,
    // not knowing the page stops after 25 rows, would sort 100,000 rows of one stage instead).
    const column = (
      name: "programme" | "thesis_status" | "sgs_stage" | "internal_examiner" | "external_examiner",
    ) =>
      unindexed
        ? sql<string>`(${sql.ref(`submissions.${name}`)} || '')`
        : eb.ref(`submissions.${name}`);
    if (filters.programme) conditions.push(eb(column("programme"), "=", filters.programme));
    if (filters.thesisStatus) {
      conditions.push(eb(column("thesis_status"), "=", filters.thesisStatus));
    }
    const valueOrNone = (
      name: "sgs_stage" | "internal_examiner" | "external_examiner",
      value: string | undefined,
    ) => {
      if (value === undefined) return;
      conditions.push(value === NONE ? eb(column(name), "is", null) : eb(column(name), "=", value));
    };
    valueOrNone("sgs_stage", filters.sgsStage);
    valueOrNone("internal_examiner", filters.internalExaminer);
    valueOrNone("external_examiner", filters.externalExaminer);
    if (filters.missingDocument) {
      const column = DOCUMENT_COLUMNS[filters.missingDocument].submitted;
      conditions.push(eb(`submissions.${column}`, "=", 0));
    }
    if (filters.documents === "missing") {
      // An accepted upload sets the item's flag, as a paper copy recorded by hand does.
      conditions.push(
        eb.or(
          DOCUMENTS.map((item) => eb(`submissions.${DOCUMENT_COLUMNS[item].submitted}`, "=", 0)),
        ),
      );
    } else if (filters.documents === "waiting") {
      conditions.push(eb.exists(currentVersionsIn(eb, "pending")));
    } else if (filters.documents === "returned") {
      conditions.push(eb.exists(currentVersionsIn(eb, "returned")));
    }
    return eb.and(conditions);
  };
}

/**
 * The submission's current document versions in a review state, for an EXISTS condition; served by
 * the index on (is_current, review_state, submission_id).
 */
function currentVersionsIn(
  eb: ExpressionBuilder<Database, "submissions">,
  state: "pending" | "returned",
) {
  return eb
    .selectFrom("submission_documents as d")
    .select("d.id")
    .where("d.is_current", "=", 1)
    .where("d.review_state", "=", state)
    .whereRef("d.submission_id", "=", "submissions.id");
}

export interface SubmissionPage {
  items: Submission[];
  /** Matching submissions, exact up to LIST_TOTAL_CAP (common/submissions-api.ts). */
  total: number;
  /** More than LIST_TOTAL_CAP match; total is then LIST_TOTAL_CAP. */
  totalCapped: boolean;
  /** Per submission id on the page: current document versions waiting for review (absent = 0). */
  documentsToReview: ReadonlyMap<number, number>;
}

/**
 * How many current document versions wait for review, per submission: one grouped query for a
 * page of submissions. Submissions with none are absent from the map.
 */
export async function countDocumentsToReview(
  db: Executor,
  submissionIds: readonly number[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (submissionIds.length === 0) return counts;
  const rows = await db
    .selectFrom("submission_documents")
    .select(["submission_id", (eb) => eb.fn.countAll<number>().as("count")])
    .where("is_current", "=", 1)
    .where("review_state", "=", "pending")
    .where("submission_id", "in", [...submissionIds])
    .groupBy("submission_id")
    .execute();
  for (const row of rows) counts.set(row.submission_id, Number(row.count));
  return counts;
}

/** countDocumentsToReview's map, from rows that carry their own count. */
function documentsToReviewOf(rows: readonly PlainPageRow[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const row of rows) {
    const count = Number(row.documents_to_review ?? 0);
    if (count > 0) counts.set(row.id, count);
  }
  return counts;
}

/** How the list decides between its ways of finding a page; tests pass small ones. */
export interface ListLimits {
  /** The total is counted up to this many (LIST_TOTAL_CAP); past it, totalCapped. */
  totalCap: number;
  /**
   * At most this many matches are collected first and then sorted (cheap whatever the sort: it
   * reads only them). With more, the page walks the sort column's index instead.
   */
  fewMatches: number;
  /** How many rows of the sort index a dense search walks before it turns to its matches first. */
  walkRows: number;
  /**
   * A one- or two-letter term sorted by name merges its page from the first (offset + page size)
   * postings of each gram containing it when that makes at most this many postings in all
   * (shortTermNamePage). Past it (a single letter's hundreds of grams), the walk.
   */
  mergedPostings: number;
}

const LIST_LIMITS: ListLimits = {
  totalCap: LIST_TOTAL_CAP,
  fewMatches: 2_000,
  walkRows: 5_000,
  mergedPostings: 5_000,
};

/** The list's order: the sort column, then the id so pages never overlap or skip a row. */
function orderColumns(
  query: Pick<SubmissionListQuery, "sort">,
): ("id" | (typeof SORT_COLUMNS)[SubmissionSort])[] {
  const column = SORT_COLUMNS[query.sort];
  // Index numbers are unique: their unique index gives the order without the tie-breaker, which
  // PostgreSQL could only add by sorting.
  return column === "index_number" ? [column] : [column, "id"];
}

/**
 * Whether a dense search's page may walk the sort index with the row-by-row condition: ASCII terms
 * only, where SQLite's LIKE and its FTS5 trigram index agree on case (the index also folds other
 * letters' case, LIKE does not).
 */
function walksWith(term: string): boolean {
  return isAsciiTerm(term);
}

/**
 * How many submissions match, counting no further than `limit`. A term alone is counted in the
 * search index itself where the dialect can (countSearchIndexMatches: FTS5 on SQLite, the term
 * postings on PostgreSQL). Everything else counts the matching rows, which stops at the limit.
 */
async function countMatches(
  db: Executor,
  query: SubmissionListQuery,
  where: ReturnType<typeof matchesFilters>,
  limit: number,
): Promise<number> {
  const term = query.q?.trim();
  if (term !== undefined && term !== "" && !isFiltered(query)) {
    const counted = await countSearchIndexMatches(db, term, limit);
    if (counted !== undefined) return counted;
  }
  const { count } = await db
    .selectFrom((eb) =>
      eb.selectFrom("submissions").select("submissions.id").where(where).limit(limit).as("capped"),
    )
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The filters besides the term: the query was parsed by its schema, so unset ones are undefined. */
const FILTER_KEYS = Object.keys(submissionFiltersSchema.shape).filter(
  (key): key is Exclude<keyof SubmissionFilters, "q"> => key !== "q",
);

/** Whether the query has a filter besides its term. */
function isFiltered(query: SubmissionListQuery): boolean {
  return FILTER_KEYS.some((key) => query[key] !== undefined);
}

/**
 * The list with no term and no filter, its busiest form (every administrator's first view):
 * the capped count and one page query per sort and order, compiled once (hotQuery) instead of
 * built by Kysely on every request. Placeholders: the cap; the page size, then the offset.
 */
const plainListCount = hotQuery("list_plain_count", (db: Kysely<Database>) =>
  db
    .selectFrom((eb) =>
      eb.selectFrom("submissions").select("submissions.id").limit(LIST_TOTAL_CAP).as("capped"),
    )
    .select((eb) => eb.fn.countAll<number>().as("count")),
);

/**
 * The plain list's page query for one sort and order. With `firstPageOf`, page 1 of that size with
 * the size written into the SQL: a statement without placeholders, which PostgreSQL plans once per
 * connection. With placeholders for the size and the offset, it plans the page again on every
 * execution (its generic plan, for an unknown limit, looks costlier than the custom one, so it
 * never switches): about 0.1 ms of the database's CPU per request, half the list's statements'
 * cost on the sample data. Other pages keep the placeholders; their offsets are unbounded.
 */
export function plainListPageQuery(
  sort: SubmissionSort,
  order: "asc" | "desc",
  firstPageOf: number | null,
) {
  const columns = orderColumns({ sort });
  const name = `list_plain_${sort}_${order}${firstPageOf === null ? "" : `_first_${firstPageOf}`}`;
  return hotQuery(name, (db: Kysely<Database>) => {
    const ordered = columns.reduce(
      (acc, column) => acc.orderBy(column, order),
      db
        .selectFrom("submissions")
        .selectAll("submissions")
        // The documents waiting for review, in the page's own statement: on PostgreSQL
        // the list's last round trip (countDocumentsToReview's, for the other pages).
        .select((eb) =>
          eb
            .selectFrom("submission_documents")
            .select(eb.fn.countAll<number | string>().as("count"))
            .whereRef("submission_documents.submission_id", "=", "submissions.id")
            // Written into the SQL: the page's only placeholders are its size and offset.
            .where("submission_documents.is_current", "=", sql.lit(1))
            .where("submission_documents.review_state", "=", sql.lit("pending"))
            .as("documents_to_review"),
        ),
    );
    return firstPageOf === null ? ordered.limit(25).offset(0) : ordered.limit(sql.lit(firstPageOf));
  });
}

const plainListPages = new Map<string, ReturnType<typeof plainListPageQuery>>(
  Object.keys(SORT_COLUMNS).flatMap((sort) =>
    (["asc", "desc"] as const).flatMap((order) => [
      [`${sort} ${order}`, plainListPageQuery(sort as SubmissionSort, order, null)] as const,
      // Page 1 in each size the list offers (PAGE_SIZE_CHOICES): the first view of every sort.
      ...PAGE_SIZE_CHOICES.map(
        (size) =>
          [
            `${sort} ${order} first ${size}`,
            plainListPageQuery(sort as SubmissionSort, order, size),
          ] as const,
      ),
    ]),
  ),
);

async function countPlainList(db: Executor, limit: number): Promise<number> {
  const [row] = await runHotQuery(db, plainListCount, [limit]);
  return Number(row?.count ?? 0);
}

/** A row of the plain list's page: the submission and its documents waiting for review. */
type PlainPageRow = SubmissionRow & { documents_to_review: number | string | null };

async function plainListPage(db: Executor, query: SubmissionListQuery): Promise<PlainPageRow[]> {
  const firstPage = plainListPages.get(`${query.sort} ${query.order} first ${query.pageSize}`);
  if (query.page === 1 && firstPage !== undefined) return runHotQuery(db, firstPage, []);
  const page = plainListPages.get(`${query.sort} ${query.order}`);
  if (page === undefined) throw new Error(`No list query for ${query.sort} ${query.order}.`);
  return runHotQuery(db, page, [query.pageSize, (query.page - 1) * query.pageSize]);
}

/**
 * One page of the filtered, sorted list, and how many submissions match, counted up to the cap
 * (docs/decisions/006-search.md). The rows and their order are always those of
 * `where … order by column, id limit … offset …`; how they are found depends on how many match:
 * - none, or no more than the offset: no page query at all;
 * - no term: the plain query (each sort has its (column, id) index; filters have theirs);
 * - a few (fewMatches): the matches first, through the search index when the term has a trigram,
 *   then sorted, in a materialized common table expression, so that neither database walks the
 *   sort index testing row by row (slow when the matches sort late);
 * - many: the sort index walked, each row tested, within its first walkRows entries (a range on
 *   (column, id)); the matches are dense, so a page is usually found within a few hundred rows.
 *   When it is not, the matches first as above.
 * Sorted by name, an ASCII term of three characters or more reads the term postings instead
 * (migration 010_search_postings), whose grams are kept in name order, since there dense matches
 * cluster where their first names sort ("yaa" at Y): a three-letter term with no filter takes its
 * page straight from its gram's postings, whatever the count; a longer term or a filter, with many
 * matches, walks the postings of its rarest gram rather than the whole sort index.
 * A one- or two-letter ASCII term alone is counted in the postings of the vocabulary's grams that
 * contain it, and when it has few matches, or no more than the cap and the walk fails, they are
 * taken from there too; a dense one's page still walks the sort index. Sorted by name, a term
 * with few grams merges its page from their postings (shortTermNamePage).
 */
export async function listSubmissions(
  db: Executor,
  query: SubmissionListQuery,
  limits: Partial<ListLimits> = {},
): Promise<SubmissionPage> {
  const { totalCap, fewMatches, walkRows, mergedPostings } = { ...LIST_LIMITS, ...limits };
  const where = matchesFilters(db, query);
  const term = query.q?.trim() || undefined;
  const columns = orderColumns(query);
  const direction = query.order;
  const offset = (query.page - 1) * query.pageSize;
  const ordered = (q: SelectQueryBuilder<Database, "submissions", SubmissionRow>) =>
    columns
      .reduce((acc, column) => acc.orderBy(column, direction), q)
      .limit(query.pageSize)
      .offset(offset);

  const filtered = isFiltered(query);
  // A one- or two-letter ASCII term alone is counted in the postings of the grams containing it
  // (countShortTermMatches): a rare term's count would otherwise read every row to find it has
  // fewer than the cap.
  const short = term !== undefined && !filtered ? shortSearchTerm(term) : undefined;
  const shortCounted =
    short !== undefined ? await countShortTermMatches(db, short, totalCap + 1) : undefined;
  const plainList = term === undefined && !filtered;
  // With no term and no filter the page does not depend on the count: both are asked at once, so
  // on PostgreSQL they take one round trip's time instead of two (on SQLite they run in turn).
  const plainPage = plainList ? plainListPage(db, query) : undefined;
  // Handled at once, so a failure while the count is awaited is not an unhandled rejection: it is
  // thrown where the page is awaited below (or dropped with the count's own failure).
  plainPage?.catch(() => undefined);
  // Counting stops one past the cap: a common term's count costs no more than the cap's worth.
  const matched =
    shortCounted?.matched ??
    (plainList
      ? await countPlainList(db, totalCap + 1)
      : await countMatches(db, query, where, totalCap + 1));
  const totalCapped = matched > totalCap;
  const total = Math.min(matched, totalCap);
  // The rows this page holds: all that remain after the offset, unless the count stopped early.
  const expected = totalCapped
    ? query.pageSize
    : Math.max(0, Math.min(query.pageSize, matched - offset));

  const plain = () => ordered(db.selectFrom("submissions").selectAll().where(where)).execute();
  // A short term counted in its postings takes its matches from them too, not from a scan.
  const matchesWhere =
    short !== undefined && shortCounted !== undefined
      ? () => shortTermMatchCondition(short)
      : where;
  const matchesFirst = () =>
    columns
      .reduce(
        (acc, column) => acc.orderBy(column, direction),
        db
          .with(
            (cte) => cte("matches").materialized(),
            (inner) => inner.selectFrom("submissions").selectAll().where(matchesWhere),
          )
          .selectFrom("matches")
          .selectAll(),
      )
      .limit(query.pageSize)
      .offset(offset)
      .execute();

  // Sorted by name, an ASCII term with a trigram has postings in name order (searchTermGrams).
  const grams = term !== undefined && query.sort === "name" ? searchTermGrams(term) : undefined;
  // Sorted by name, a short term whose grams are few merges its page from their postings, which
  // are in name order too: what that reads is bounded, where the walk of the name index fails for
  // a sparse term sorting late and the plain query walks further.
  const mergedShort =
    short !== undefined &&
    shortCounted !== undefined &&
    query.sort === "name" &&
    shortCounted.grams * (offset + query.pageSize) <= mergedPostings
      ? short
      : undefined;
  let rows: SubmissionRow[];
  if (expected === 0) rows = [];
  else if (plainPage !== undefined) rows = await plainPage;
  else if (grams?.[0] !== undefined && term?.length === SEARCH_GRAM_LENGTH && !filtered) {
    // Every posting of a three-letter term's one gram is a match: the page is a range of them.
    rows = await postingsPage(db, query, grams[0]);
  } else if (mergedShort !== undefined) {
    const page = await shortTermNamePage(db, mergedShort, direction, query.pageSize, offset);
    rows = await submissionsOfPage(db, page, direction);
  } else if (matched <= fewMatches) rows = await matchesFirst();
  else if (term !== undefined && !walksWith(term)) rows = await plain();
  else {
    const walked =
      grams !== undefined && term !== undefined
        ? await walkPostings(
            db,
            query,
            await rarestGram(db, grams, totalCap + 1),
            term,
            walkRows + offset,
          )
        : await walkSortIndex(db, query, columns, term, walkRows + offset);
    rows =
      walked.length >= expected
        ? walked
        : term !== undefined &&
            (searchIndexServes(term) || (shortCounted !== undefined && !totalCapped))
          ? await matchesFirst()
          : await plain();
  }
  const items = rows.map(rowToSubmission);
  const documentsToReview =
    plainPage !== undefined
      ? documentsToReviewOf(rows as PlainPageRow[])
      : await countDocumentsToReview(
          db,
          items.map((s) => s.id),
        );
  return { items, total, totalCapped, documentsToReview };
}

/**
 * The page found by walking the sort column's index for at most `rows` entries, testing each row
 * (the filters, and the term row by row). The bound is the (column, id) of the last entry walked,
 * read first from the index alone; a range on it keeps both databases on the sort index and stops
 * the walk there. Fewer rows than a page means: not found within the bound.
 */
async function walkSortIndex(
  db: Executor,
  query: SubmissionListQuery,
  columns: ReturnType<typeof orderColumns>,
  term: string | undefined,
  rows: number,
): Promise<SubmissionRow[]> {
  const direction = query.order;
  const last = await columns
    .reduce(
      (acc, column) => acc.orderBy(column, direction),
      db.selectFrom("submissions").select(columns),
    )
    .limit(1)
    .offset(rows - 1)
    .executeTakeFirst();
  const filters = matchesFilters(db, { ...query, q: undefined }, true);
  const bound = last as Record<string, string | number> | undefined;
  return columns
    .reduce(
      (acc, column) => acc.orderBy(column, direction),
      db
        .selectFrom("submissions")
        .selectAll()
        .where((eb) => {
          const conditions: Expression<SqlBool>[] = [filters(eb)];
          if (term !== undefined) conditions.push(searchConditionRowByRow(term));
          if (bound !== undefined) {
            const keys = columns.map((c) => sql.ref(`submissions.${c}`));
            const values = columns.map((c) => bound[c]);
            conditions.push(
              sql<SqlBool>`(${sql.join(keys)}) ${sql.raw(direction === "asc" ? "<=" : ">=")} (${sql.join(values)})`,
            );
          }
          return eb.and(conditions);
        }),
    )
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
}

/** The term postings (migration 010_search_postings); not in schema.ts, this module alone reads them. */
interface SearchGramsTable {
  gram: string;
  student_name: string;
  submission_id: number;
}

/** The submissions of a page of postings (their ids, in name order), in that order. */
function submissionsOfPage(
  db: Executor,
  page: AliasedExpression<{ submission_id: number }, "page">,
  direction: "asc" | "desc",
): Promise<SubmissionRow[]> {
  return db
    .selectFrom("submissions")
    .innerJoin(page, "page.submission_id", "submissions.id")
    .selectAll("submissions")
    .orderBy("submissions.student_name", direction)
    .orderBy("submissions.id", direction)
    .execute();
}

function withPostings(db: Executor) {
  const k: Kysely<Database> = db;
  return k.withTables<{ submission_search_grams: SearchGramsTable }>();
}

/**
 * The page of a three-letter term sorted by name: a range of its gram's postings, already in
 * (student_name, id) order (backwards for desc), read from the postings' key alone, then the page's
 * submissions by id. Nothing is sorted but the page itself, nothing read but the offset and the page.
 */
async function postingsPage(
  db: Executor,
  query: SubmissionListQuery,
  gram: string,
): Promise<SubmissionRow[]> {
  const direction = query.order;
  const postings = withPostings(db);
  const page = postings
    .selectFrom("submission_search_grams")
    .select("submission_id")
    .where("gram", "=", gram)
    .orderBy("student_name", direction)
    .orderBy("submission_id", direction)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return submissionsOfPage(db, page.as("page"), direction);
}

/**
 * Of a term's grams, the one with the fewest postings (each counted no further than `limit`): its
 * postings hold every match of the term, and the fewer other rows among them, the sooner a walk
 * finds a page.
 */
async function rarestGram(db: Executor, grams: string[], limit: number): Promise<string> {
  let best: { gram: string; count: number } | undefined;
  for (const gram of grams) {
    if (grams.length === 1) return gram;
    const { count } = await withPostings(db)
      .selectFrom((eb) =>
        eb
          .selectFrom("submission_search_grams")
          .select("submission_id")
          .where("gram", "=", gram)
          .limit(limit)
          .as("capped"),
      )
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    if (best === undefined || Number(count) < best.count) best = { gram, count: Number(count) };
  }
  if (best === undefined) throw new Error("A term with postings has at least one gram.");
  return best.gram;
}

/**
 * The page sorted by name found by walking one gram's postings in name order for at most `rows`
 * entries, testing each submission (the filters, and the whole term row by row): the postings hold
 * every match, in the list's order, so the walk is walkSortIndex's over far fewer rows. The bound is
 * read from the postings' key alone first, as there. Fewer rows than a page: not found within it.
 */
async function walkPostings(
  db: Executor,
  query: SubmissionListQuery,
  gram: string,
  term: string,
  rows: number,
): Promise<SubmissionRow[]> {
  const direction = query.order;
  const postings = withPostings(db);
  const last = await postings
    .selectFrom("submission_search_grams")
    .select(["student_name", "submission_id"])
    .where("gram", "=", gram)
    .orderBy("student_name", direction)
    .orderBy("submission_id", direction)
    .limit(1)
    .offset(rows - 1)
    .executeTakeFirst();
  const filters = matchesFilters(db, { ...query, q: undefined }, true);
  // The test is a scalar subquery on the submission by id, evaluated posting by posting, so both
  // planners walk the postings' key in order and stop at the page. As a join, PostgreSQL hashed
  // the whole table against the postings and sorted the result (850 ms at 200,000 submissions
  // against a few through the key).
  const page = postings
    .selectFrom("submission_search_grams as g")
    .select("g.submission_id")
    .where("g.gram", "=", gram)
    .where((eb) => {
      const matches = eb
        .selectFrom("submissions")
        .select((inner) => inner.and([filters(inner), searchConditionRowByRow(term)]).as("matches"))
        .whereRef("submissions.id", "=", "g.submission_id");
      const conditions: Expression<SqlBool>[] = [sql<SqlBool>`(${matches})`];
      if (last !== undefined) {
        conditions.push(
          sql<SqlBool>`(g.student_name, g.submission_id) ${sql.raw(direction === "asc" ? "<=" : ">=")} (${last.student_name}, ${last.submission_id})`,
        );
      }
      return eb.and(conditions);
    })
    .orderBy("g.student_name", direction)
    .orderBy("g.submission_id", direction)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return submissionsOfPage(db, page.as("page"), direction);
}

/** The next `limit` matching submissions after `afterId`, in id order: the export's keyset pages. */
export async function listSubmissionsAfter(
  db: Executor,
  filters: SubmissionFilters,
  afterId: number,
  limit: number,
): Promise<Submission[]> {
  const rows = await db
    .selectFrom("submissions")
    .selectAll()
    .where(matchesFilters(db, filters))
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(rowToSubmission);
}

export async function findSubmissionsByIds(db: Executor, ids: number[]): Promise<Submission[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("submissions")
    .selectAll()
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
  return rows.map(rowToSubmission);
}

export async function findSubmissionsByIndexNumbers(
  db: Executor,
  indexNumbers: string[],
): Promise<Submission[]> {
  const found: Submission[] = [];
  // Chunks keep the parameter count far below both databases' limits.
  for (let start = 0; start < indexNumbers.length; start += 500) {
    const chunk = indexNumbers.slice(start, start + 500);
    const rows = await db
      .selectFrom("submissions")
      .selectAll()
      .where("index_number", "in", chunk)
      .execute();
    found.push(...rows.map(rowToSubmission));
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Writes a submission's fields and bumps its version. With `expectedVersion`, writes only if the
 * stored version is still that one; returns null when it is not (someone else saved first).
 */
export async function updateSubmissionFields(
  db: Executor,
  id: number,
  fields: SubmissionFields,
  at: string,
  expectedVersion: number | null,
): Promise<Submission | null> {
  let query = db
    .updateTable("submissions")
    .set((eb) => ({
      ...fieldsToColumns(fields),
      // Unmarked Financial Clearance no longer says which system marked it (migration 017).
      ...(fields.documents.financialClearance.submitted
        ? {}
        : { financial_clearance_by: null, financial_clearance_by_at: null }),
      updated_at: at,
      version: eb("version", "+", 1),
    }))
    .where("id", "=", id);
  if (expectedVersion !== null) query = query.where("version", "=", expectedVersion);
  const row = await query.returningAll().executeTakeFirst();
  return row ? rowToSubmission(row) : null;
}

/**
 * After a bulk write: a record whose Financial Clearance is no longer marked no longer says which
 * system marked it (migration 017), as updateSubmissionFields does for one record.
 */
export async function clearUnmarkedClearanceSources(
  db: Executor,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("submissions")
    .set({ financial_clearance_by: null, financial_clearance_by_at: null })
    .where("id", "in", [...ids])
    .where("financial_clearance_submitted", "=", 0)
    .where("financial_clearance_by", "is not", null)
    .execute();
}

export interface NewSubmissionEvent {
  submissionId: number;
  actorUserId: number | null;
  at: string;
  field: string;
  from: string | null;
  to: string | null;
  kind: string;
  confirmedOutOfOrder: boolean;
}

export async function insertSubmissionEvents(
  db: Executor,
  events: NewSubmissionEvent[],
): Promise<void> {
  for (let start = 0; start < events.length; start += 500) {
    const chunk = events.slice(start, start + 500);
    await db
      .insertInto("submission_events")
      .values(
        chunk.map((e) => ({
          submission_id: e.submissionId,
          actor_user_id: e.actorUserId,
          at: e.at,
          field: e.field,
          from_value: e.from,
          to_value: e.to,
          kind: e.kind,
          confirmed_out_of_order: e.confirmedOutOfOrder ? 1 : 0,
        })),
      )
      .execute();
  }
  // The Reports figures follow the history in the same transaction (decisions/025).
  await refreshReportRollups(
    db,
    events.map((e) => e.submissionId),
  );
  // The webhooks these changes raise, in the same transaction (docs/decisions/023-webhooks.md).
  await enqueueTimelineWebhooks(db, events);
}

export interface StoredSubmissionEvent extends NewSubmissionEvent {
  id: number;
  actor: { id: number; email: string; name: string | null } | null;
}

/** A submission's events, oldest first, with who made each change. */
export async function listSubmissionEvents(
  db: Executor,
  submissionId: number,
): Promise<StoredSubmissionEvent[]> {
  const rows = await db
    .selectFrom("submission_events as e")
    .leftJoin("users as u", "u.id", "e.actor_user_id")
    .select([
      "e.id",
      "e.submission_id",
      "e.actor_user_id",
      "e.at",
      "e.field",
      "e.from_value",
      "e.to_value",
      "e.kind",
      "e.confirmed_out_of_order",
      "u.email as actor_email",
      "u.name as actor_name",
    ])
    .where("e.submission_id", "=", submissionId)
    .orderBy("e.at")
    .orderBy("e.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    submissionId: row.submission_id,
    actorUserId: row.actor_user_id,
    at: row.at,
    field: row.field,
    from: row.from_value,
    to: row.to_value,
    kind: row.kind,
    confirmedOutOfOrder: Number(row.confirmed_out_of_order) === 1,
    actor:
      row.actor_user_id !== null && row.actor_email !== null
        ? { id: row.actor_user_id, email: row.actor_email, name: row.actor_name }
        : null,
  }));
}
