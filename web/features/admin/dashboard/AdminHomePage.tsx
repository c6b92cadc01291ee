import { Link } from "react-router";
import type { StatsResponse } from "../../../../common/submissions-api.js";
import { NONE } from "../../../../common/submissions-constants.js";
import {
  EXAMINER_STATES,
  EXAMINER_STATE_LABELS,
  SGS_STAGES,
  SGS_STAGE_LABELS,
} from "../../../../common/workflow.js";
import { Loading } from "../../../components/ui/Loading.js";
import { LoadError } from "../components/LoadError.js";
import { adminPaths, submissionsListHref } from "../paths.js";
import { useStats } from "./api/get-stats.js";
import { MonthlyChart } from "./MonthlyChart.js";
import { LateReports } from "./LateReports.js";
import "./dashboard.css";

const todayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});

function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The admin dashboard: today's date, the prototype's three cards with real figures, and the
 * counts that tell the school where theses are waiting. Every figure links to the list it counts.
 */
export function AdminHomePage() {
  const stats = useStats();
  const today = new Date();
  const figure = (value: number | undefined) =>
    stats.isPending ? "…" : value === undefined ? "—" : value.toLocaleString("en-GB");

  return (
    <section aria-labelledby="admin-home-title" className="admin-home">
      <header className="page__header">
        <h1 id="admin-home-title">Dashboard</h1>
        <p className="admin-home__date">
          <time dateTime={localIsoDate(today)}>{todayFormat.format(today)}</time>
        </p>
      </header>

      <ul className="dashboard-cards" aria-busy={stats.isPending}>
        <li>
          <Link className="dashboard-card" to={adminPaths.allSubmissions}>
            <span className="dashboard-card__title">All Submissions</span>
            <span className="dashboard-card__figure">{figure(stats.data?.totalSubmissions)}</span>
            <span className="dashboard-card__label">Total Submissions</span>
          </Link>
        </li>
        <li>
          <Link className="dashboard-card" to={adminPaths.newUser}>
            <span className="dashboard-card__title">Add New User</span>
            <span className="dashboard-card__figure">{figure(stats.data?.totalUsers)}</span>
            <span className="dashboard-card__label">Total Users</span>
          </Link>
        </li>
        <li>
          <Link className="dashboard-card" to={adminPaths.newSubmission}>
            <span className="dashboard-card__title">Add New Submission</span>
            <span className="dashboard-card__figure">{figure(stats.data?.addedThisMonth)}</span>
            <span className="dashboard-card__label">Added this month</span>
          </Link>
        </li>
      </ul>

      {stats.isPending ? (
        <Loading label="Loading the dashboard figures…" />
      ) : stats.isError ? (
        <LoadError
          error={stats.error}
          what="the dashboard figures"
          onRetry={() => void stats.refetch()}
        />
      ) : (
        <DashboardDetails stats={stats.data} />
      )}
    </section>
  );
}

function DashboardDetails({ stats }: { stats: StatsResponse }) {
  return (
    <>
      <div className="dashboard-grid">
        <section aria-labelledby="documents-title" className="card">
          <h2 id="documents-title">Uploaded documents</h2>
          <ul className="count-list">
            <li>
              <Link to={submissionsListHref({ documents: "waiting" })}>
                <span>Documents waiting for review</span>
                <span className="count-list__figure">{stats.documentsWaiting}</span>
              </Link>
            </li>
            <li>
              <Link to={submissionsListHref({ documents: "returned" })}>
                <span>Documents returned</span>
                <span className="count-list__figure">{stats.documentsReturned}</span>
              </Link>
            </li>
          </ul>
          <p className="muted dashboard-note">Each figure counts submissions.</p>
        </section>
        <section aria-labelledby="per-stage-title" className="card">
          <h2 id="per-stage-title">By SGS Admin stage</h2>
          <ul className="count-list">
            {([...SGS_STAGES, NONE] as const).map((stage) => (
              <li key={stage}>
                <Link to={submissionsListHref({ sgsStage: stage })}>
                  <span>{stage === NONE ? "Not started" : SGS_STAGE_LABELS[stage]}</span>
                  <span className="count-list__figure">{stats.perStage[stage]}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
        {(["internal", "external"] as const).map((who) => {
          const field = who === "internal" ? "internalExaminer" : "externalExaminer";
          return (
            <section key={who} aria-labelledby={`per-${who}-title`} className="card">
              <h2 id={`per-${who}-title`}>
                {who === "internal" ? "Internal examiner" : "External examiner"}
              </h2>
              <ul className="count-list">
                {([...EXAMINER_STATES, NONE] as const).map((state) => (
                  <li key={state}>
                    <Link to={submissionsListHref({ [field]: state })}>
                      <span>{state === NONE ? "Not sent yet" : EXAMINER_STATE_LABELS[state]}</span>
                      <span className="count-list__figure">
                        {stats.perExaminerState[who][state]}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>

      <LateReports
        rows={stats.lateReports}
        total={stats.lateReportsTotal}
        overdueDays={stats.reportOverdueDays}
      />

      <section aria-labelledby="per-month-title" className="card dashboard-section">
        <h2 id="per-month-title">New submissions</h2>
        {stats.perMonth.every((m) => m.count === 0) ? (
          <p className="empty">No submissions were added in the last twelve months.</p>
        ) : (
          <MonthlyChart perMonth={stats.perMonth} />
        )}
      </section>
    </>
  );
}
