import { queryOptions } from "@tanstack/react-query";
import type { PublicationView } from "../../../../common/publication.js";
import { api, unwrap } from "../../../lib/api-client.js";

/**
 * The student's publication record, asked for by the status page together with its status so the
 * Publication section does not wait a round trip after its code arrives. The same query as
 * `publicationQuery("student", ...)` in web/features/publication/api.ts (its test holds the keys
 * equal), kept here so the status page gets it from the student chunk it loads anyway instead of
 * one more request.
 */
export function studentPublicationQuery(indexNumber: string) {
  return queryOptions({
    queryKey: ["publication", "student", indexNumber] as const,
    queryFn: ({ signal }): Promise<PublicationView> =>
      unwrap(
        api.GET("/api/submissions/{indexNumber}/publication", {
          params: { path: { indexNumber } },
          signal,
        }),
      ).then((answer) => answer.data),
  });
}
