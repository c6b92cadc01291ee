import type { LateReports, ReportFigures, ReportQuery } from "../../common/reports.js";
import type { Config } from "../config.js";
import type { Executor } from "../db/database.js";

/**
 * The Reports figures (issue 22, docs/decisions/025-report-figures.md), read from the rollups
 * that every timeline event keeps current (migration 019), never by scanning the history.
 */

/** What the figures need of the configuration: when a typed examiner state is late. */
export type ReportSettings = Pick<Config, "reportOverdueDays">;

/** The filters that choose the records (not the period). */
export interface RecordFilters {
  programme?: string | undefined;
  cohort?: number | undefined;
}

/**
 * Every figure of the Reports page for the query's filters and period (and the year before when
 * `query.compare`), with "now" as the clock for late reports and pending counts.
 */
export async function reportFigures(
  db: Executor,
  query: ReportQuery,
  now: Date,
  settings: ReportSettings,
): Promise<ReportFigures> {
  void db;
  void query;
  void now;
  void settings;
  throw new Error("not implemented");
}

/**
 * The late reports now (the one overdue list), most days late first: at most `limit` items and the
 * total. The dean's PDF lists them all by passing a larger limit.
 */
export async function lateReports(
  db: Executor,
  filters: RecordFilters,
  now: Date,
  settings: ReportSettings,
  limit: number,
): Promise<LateReports> {
  void db;
  void filters;
  void now;
  void settings;
  void limit;
  throw new Error("not implemented");
}
