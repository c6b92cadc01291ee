import { queryOptions, useQuery } from "@tanstack/react-query";
import type { FailedMail } from "../../../../../common/accounts.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/admin/mail/failed: mail the outbox gave up on, so someone can reach the person another way. */
export async function getFailedMail(signal?: AbortSignal): Promise<FailedMail[]> {
  const { items } = await unwrap(api.GET("/api/admin/mail/failed", { signal }));
  return items;
}

export const failedMailQueryOptions = queryOptions({
  queryKey: adminKeys.failedMail(),
  queryFn: ({ signal }) => getFailedMail(signal),
});

export function useFailedMail() {
  return useQuery(failedMailQueryOptions);
}
