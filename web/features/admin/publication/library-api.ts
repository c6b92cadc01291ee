import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BulkDepositInput,
  BulkDepositResponse,
  DepositListResponse,
  DepositResponse,
  DepositState,
} from "../../../../common/deposits.js";
import { api, unwrap, withQuery } from "../../../lib/api-client.js";
import type { paths } from "../../../lib/api-types.js";

/**
 * The library's endpoints (issue 20, items 3 and 4; ADR 026): a thesis's deposit and the request
 * for one, bulk deposit, the deposits list, and the export download addresses. Calls go through
 * the contract's typed client; the downloads' routes are checked against it (web/lib/api-types.ts).
 */

const enc = encodeURIComponent;
const THESIS_EXPORT_ROUTE =
  "/api/admin/submissions/{indexNumber}/publication/export/{format}" satisfies keyof paths;
const AWARDED_EXPORT_ROUTE = "/api/admin/publication/export/{format}" satisfies keyof paths;
const deposit = (indexNumber: string) => ({ params: { path: { indexNumber } } });

export const EXPORT_LABELS = {
  saf: "DSpace Simple Archive Format (zip)",
  marcxml: "MARCXML",
  etdms: "ETD-MS XML",
  dc: "Dublin Core XML",
} as const;
export type ExportFormat = keyof typeof EXPORT_LABELS;
export const EXPORT_FORMAT_LIST = Object.keys(EXPORT_LABELS) as ExportFormat[];

/** One thesis's export, as a download address (a plain link: the browser streams it to disk). */
export function thesisExportUrl(indexNumber: string, format: ExportFormat): string {
  return THESIS_EXPORT_ROUTE.replace("{indexNumber}", enc(indexNumber)).replace("{format}", format);
}

export function awardedExportUrl(format: ExportFormat, awardFrom: string, awardTo: string): string {
  return withQuery(AWARDED_EXPORT_ROUTE.replace("{format}", format), { awardFrom, awardTo });
}

export function depositKey(indexNumber: string) {
  return ["deposit", indexNumber] as const;
}

export function depositQuery(indexNumber: string) {
  return queryOptions({
    queryKey: depositKey(indexNumber),
    queryFn: ({ signal }): Promise<DepositResponse["data"]> =>
      unwrap(
        api.GET("/api/admin/submissions/{indexNumber}/publication/deposit", {
          ...deposit(indexNumber),
          signal,
        }),
      ).then((a) => a.data),
    // While the queue works on it, look again every few seconds.
    refetchInterval: (query) => {
      const state = query.state.data?.deposit?.state;
      return state === "queued" || state === "depositing" ? 5000 : false;
    },
  });
}

export function useDeposit(indexNumber: string) {
  return useQuery(depositQuery(indexNumber));
}

export function useRequestDeposit(indexNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<DepositResponse> =>
      unwrap(
        api.POST("/api/admin/submissions/{indexNumber}/publication/deposit", deposit(indexNumber)),
      ),
    onSuccess: (answer) => {
      queryClient.setQueryData(depositKey(indexNumber), answer.data);
      void queryClient.invalidateQueries({ queryKey: ["deposits"] });
    },
  });
}

export function useBulkDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkDepositInput): Promise<BulkDepositResponse> =>
      unwrap(api.POST("/api/admin/publication/deposits", { body: input })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["deposits"] });
      void queryClient.invalidateQueries({ queryKey: ["deposit"] });
    },
  });
}

export function useDeposits(state: DepositState | "", after: number | null) {
  return useQuery({
    queryKey: ["deposits", state, after],
    queryFn: ({ signal }): Promise<DepositListResponse> =>
      unwrap(
        api.GET("/api/admin/publication/deposits", {
          params: { query: { state: state || undefined, after: after ?? undefined } },
          signal,
        }),
      ),
  });
}
