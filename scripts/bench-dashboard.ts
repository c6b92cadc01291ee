// The dashboard's figures timed on a loaded database, for `npm run bench` (scripts/bench.ts).
// Being written (issue 11 item 3).
import type { Db } from "../server/db/database.js";

export interface DashboardFigure {
  /** What was timed, such as "per stage" or "GET /api/admin/stats service call". */
  kind: string;
  runs: number;
  median: number;
  p95: number;
  max: number;
}

export async function timeDashboard(db: Db, now: Date, rounds: number): Promise<DashboardFigure[]> {
  void db;
  throw new Error(`the dashboard timings are not written yet (${now.toISOString()}, ${rounds})`);
}
