import { meQuery } from "../lib/session.js";
import { submissionStatusQuery } from "../features/student/api/submission-status.js";
import { timelineQuery } from "../features/student/api/timeline.js";
import { queryClient } from "./query-client.js";

/**
 * Route loaders that start a page's data as soon as the address is known, in parallel with the
 * page's lazy chunk, instead of after the chunk has loaded and rendered (issue 11: a first visit
 * otherwise waits for the shell, then the chunk, then the session, then the data, one after the
 * other). They fill TanStack Query's cache with the pages' own query options, so the page reads
 * the same entries and nothing is fetched twice. `prefetchQuery` never throws: a failed request
 * stays in the cache as an error, and the page shows its own error state for it.
 *
 * The query options only the status page or the list uses are imported on demand, so the shell
 * does not carry them; the page's chunk imports the same modules, so they arrive once.
 */

/**
 * The student's status page: the answers are awaited for up to a second, so that usually the
 * page's first render already holds every section (no loading placeholders that then push the
 * footer down: CLS).
 */
export async function statusPageLoader(): Promise<null> {
  let indexNumber: string | null = null;
  try {
    // The same request as the area's guard (one entry in the cache), which decides the redirects.
    indexNumber = (await queryClient.ensureQueryData(meQuery))?.indexNumber ?? null;
  } catch {
    return null;
  }
  if (!indexNumber) return null;
  const index = indexNumber;
  const ready = Promise.all([
    queryClient.prefetchQuery(submissionStatusQuery(index)),
    queryClient.prefetchQuery(timelineQuery(index)),
    import("../features/student/api/submission-documents.js").then(({ submissionDocumentsQuery }) =>
      queryClient.prefetchQuery(submissionDocumentsQuery(index)),
    ),
    import("../features/student/api/student-examination.js").then(({ studentExaminationQuery }) =>
      queryClient.prefetchQuery(studentExaminationQuery(index)),
    ),
    import("../features/student/api/messages.js").then(({ messagesQuery }) =>
      queryClient.prefetchQuery(messagesQuery),
    ),
  ]).catch(() => {
    // A chunk that failed to load: the page loads it again and shows its own error.
  });
  // Waited for a moment only: a slow server must not hold a blank screen. Past it the page renders
  // with its own "Loading submission details..." and fills in as the answers arrive.
  await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, STATUS_WAIT_MS))]);
  return null;
}

const STATUS_WAIT_MS = 1000;

/**
 * The administrators' list: the page of rows the address asks for. Not awaited, so a change of
 * search or page (which runs the loader again) never holds the navigation back: the list keeps
 * its previous rows on screen until the new ones arrive, as it did before.
 */
export async function allSubmissionsLoader({ request }: { request: Request }): Promise<null> {
  const params = new URL(request.url).searchParams;
  const modules = Promise.all([
    import("../features/admin/submissions/lib/list-params.js"),
    import("../features/admin/submissions/api/get-submissions.js"),
  ]);
  // Only for an administrator (the guard's request, shared): someone else would get a 401 or
  // 403 logged in the console before the guard sends them elsewhere.
  void Promise.all([queryClient.ensureQueryData(meQuery), modules])
    .then(([me, [{ readListQuery }, { submissionsQueryOptions }]]) =>
      me?.role === "admin"
        ? queryClient.prefetchQuery(submissionsQueryOptions(readListQuery(params)))
        : undefined,
    )
    .catch(() => {
      // As above: the page fetches for itself.
    });
  return null;
}
