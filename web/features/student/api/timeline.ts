import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.js";
import type { TimelineItem } from "../../../../common/submissions-api.js";

/** GET /api/submissions/:indexNumber/timeline: dated milestones, oldest first. */
export function timelineQuery(indexNumber: string) {
  return queryOptions({
    queryKey: ["submission-timeline", indexNumber],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/submissions/{indexNumber}/timeline", {
          params: { path: { indexNumber } },
          signal,
        }),
      ).then((answer): TimelineItem[] => answer.items),
    // The dates only decorate the stepper: a failure is not worth retrying or showing.
    retry: false,
  });
}

export function useTimeline(indexNumber: string | null) {
  return useQuery({ ...timelineQuery(indexNumber ?? ""), enabled: indexNumber !== null });
}
