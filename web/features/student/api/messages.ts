import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Message, MessageListResponse } from "../../../../common/submissions-api.js";
import { api, unwrap } from "../../../lib/api-client.js";

/** A notice from the School (GET /api/messages). */
export type StudentMessage = Message;

export const messagesQuery = queryOptions({
  queryKey: ["messages"],
  queryFn: ({ signal }): Promise<MessageListResponse> =>
    unwrap(api.GET("/api/messages", { signal })),
});

export function useMessages() {
  return useQuery(messagesQuery);
}

/** Newest first, whatever order the server used. */
export function newestFirst(items: readonly StudentMessage[]): StudentMessage[] {
  return [...items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/**
 * POST /api/messages/:id/read. The list and the tab's unread count change at once (optimistic),
 * and go back if the server refuses.
 */
export function useMarkMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(api.POST("/api/messages/{id}/read", { params: { path: { id } } })),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: messagesQuery.queryKey });
      const before = queryClient.getQueryData(messagesQuery.queryKey);
      if (before) {
        const target = before.items.find((m) => m.id === id);
        if (target && !target.read) {
          queryClient.setQueryData(messagesQuery.queryKey, {
            items: before.items.map((m) => (m.id === id ? { ...m, read: true } : m)),
            unreadCount: Math.max(0, before.unreadCount - 1),
          });
        }
      }
      return { before };
    },
    onError: (_error, _id, context) => {
      if (context?.before) queryClient.setQueryData(messagesQuery.queryKey, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesQuery.queryKey }),
  });
}
