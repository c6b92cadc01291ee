import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BulkDepositInput,
  BulkDepositResponse,
  DepositListResponse,
  DepositResponse,
  DepositState,
} from "../../../../common/deposits.js";
import { api, apiRequest, withQuery } from "../../../lib/api-client.js";

/**
 * The library's endpoints (issue 20, items 3 and 4; ADR 026): a thesis's deposit and the request
 * for one, bulk deposit, the deposits list, and the export download addresses.
 */

const enc = encodeURIComponent;
const depositPath = (indexNumber: string) =>
  `/admin/submissions/${enc(indexNumber)}/publication/deposit`;

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
  return `/api/admin/submissions/${enc(indexNumber)}/publication/export/${format}`;
}

export function awardedExportUrl(format: ExportFormat, awardFrom: string, awardTo: string): string {
  return withQuery(`/api/admin/publication/export/${format}`, { awardFrom, awardTo });
}

export function depositKey(indexNumber: string) {
  return ["deposit", indexNumber] as const;
}

export function depositQuery(indexNumber: string) {
  return queryOptions({
    queryKey: depositKey(indexNumber),
    queryFn: ({ signal }) =>
      api.get<DepositResponse>(depositPath(indexNumber), undefined, { signal }).then((a) => a.data),
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
    mutationFn: () => apiRequest<DepositResponse>("POST", depositPath(indexNumber)),
    onSuccess: (answer) => {
      queryClient.setQueryData(depositKey(indexNumber), answer.data);
      void queryClient.invalidateQueries({ queryKey: ["deposits"] });
    },
  });
}

export function useBulkDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkDepositInput) =>
      apiRequest<BulkDepositResponse>("POST", "/admin/publication/deposits", input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["deposits"] });
      void queryClient.invalidateQueries({ queryKey: ["deposit"] });
    },
  });
}

export function useDeposits(state: DepositState | "", after: number | null) {
  return useQuery({
    queryKey: ["deposits", state, after],
    queryFn: ({ signal }) =>
      api.get<DepositListResponse>(
        "/admin/publication/deposits",
        { state: state || undefined, after: after ?? undefined },
        { signal },
      ),
  });
}
