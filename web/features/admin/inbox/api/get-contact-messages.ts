import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ContactMessage } from "../../../../../common/accounts.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** GET /api/admin/contact_messages: what visitors sent through the help/contact form. */
export async function getContactMessages(signal?: AbortSignal): Promise<ContactMessage[]> {
  const { items } = await unwrap(api.GET("/api/admin/contact_messages", { signal }));
  return items;
}

export const contactMessagesQueryOptions = queryOptions({
  queryKey: adminKeys.contactMessages(),
  queryFn: ({ signal }) => getContactMessages(signal),
});

export function useContactMessages() {
  return useQuery(contactMessagesQueryOptions);
}
