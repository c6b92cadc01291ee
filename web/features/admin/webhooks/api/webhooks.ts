import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type {
  CreatedWebhook,
  NewWebhook,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from "../../../../../common/webhooks.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { adminKeys } from "../../query-keys.js";

/** The webhooks page's endpoints (docs/api.md, "Webhooks"): GET, POST, enable/disable, DELETE. */
const keys = {
  all: () => [...adminKeys.all, "webhooks"] as const,
  list: (before: number | undefined) => [...keys.all(), "list", before ?? null] as const,
  deliveries: (id: number, before: number | undefined) =>
    [...keys.all(), "deliveries", id, before ?? null] as const,
};

/** GET /api/admin/webhooks: a page of endpoints, newest first. */
export function webhooksQueryOptions(before: number | undefined) {
  return queryOptions({
    queryKey: keys.list(before),
    queryFn: ({ signal }): Promise<WebhookEndpointList> =>
      unwrap(api.GET("/api/admin/webhooks", { params: { query: { before } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useWebhooks(before: number | undefined) {
  return useQuery(webhooksQueryOptions(before));
}

/** GET /api/admin/webhooks/:id/deliveries: a page of an endpoint's delivery log. */
export function useDeliveries(id: number | null, before: number | undefined) {
  return useQuery({
    queryKey: keys.deliveries(id ?? 0, before),
    queryFn: ({ signal }): Promise<WebhookDeliveryList> =>
      unwrap(
        api.GET("/api/admin/webhooks/{id}/deliveries", {
          params: { path: { id: id ?? 0 }, query: { before } },
          signal,
        }),
      ),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}

function useWebhookMutation<In, Out>(mutationFn: (input: In) => Promise<Out>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.all() }),
  });
}

/** POST /api/admin/webhooks: the answer carries the secret, this once. */
export function useCreateWebhook() {
  return useWebhookMutation(
    (input: NewWebhook): Promise<CreatedWebhook> =>
      unwrap(api.POST("/api/admin/webhooks", { body: input })),
  );
}

/** POST /api/admin/webhooks/:id/enable or /disable. */
export function useSwitchWebhook() {
  return useWebhookMutation(
    ({ id, active }: { id: number; active: boolean }): Promise<WebhookEndpoint> => {
      const params = { params: { path: { id } } };
      return active
        ? unwrap(api.POST("/api/admin/webhooks/{id}/enable", params))
        : unwrap(api.POST("/api/admin/webhooks/{id}/disable", params));
    },
  );
}

/** DELETE /api/admin/webhooks/:id. */
export function useDeleteWebhook() {
  return useWebhookMutation(
    (id: number): Promise<{ success: true }> =>
      unwrap(api.DELETE("/api/admin/webhooks/{id}", { params: { path: { id } } })),
  );
}

/** POST /api/admin/webhooks/:id/deliveries/:deliveryId/redeliver ("Send again"). */
export function useSendAgain() {
  return useWebhookMutation(
    ({
      id,
      deliveryId,
    }: {
      id: number;
      deliveryId: number;
    }): Promise<{ success: true; message: string; deliveryId: number }> =>
      unwrap(
        api.POST("/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
          params: { path: { id, deliveryId } },
        }),
      ),
  );
}
