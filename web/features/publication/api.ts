import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CurrentLicenceResponse,
  Degree,
  DegreeInput,
  DegreeListResponse,
  EmbargoDecisionInput,
  EmbargoInput,
  LicenceVersion,
  LicenceVersionListResponse,
  PublicationResponse,
  PublicationView,
  StudentMetadataInput,
  AdminMetadataInput,
  DegreeChanges,
} from "../../../common/publication.js";
import { api, apiRequest } from "../../lib/api-client.js";

/**
 * Publication's endpoints (issue 20) for both screens: the student's record, licence and embargo;
 * the school's review, embargo decision, withdrawal, licence versions and degrees. One fetcher,
 * query and hook each; mutations put the answer in the record's query.
 */

const enc = encodeURIComponent;
const studentPath = (indexNumber: string) => `/submissions/${enc(indexNumber)}/publication`;
const adminPath = (indexNumber: string) => `/admin/submissions/${enc(indexNumber)}/publication`;

export type Side = "student" | "admin";

export function publicationKey(side: Side, indexNumber: string) {
  return ["publication", side, indexNumber] as const;
}

export function publicationQuery(side: Side, indexNumber: string) {
  return queryOptions({
    queryKey: publicationKey(side, indexNumber),
    queryFn: ({ signal }): Promise<PublicationView> =>
      api
        .get<PublicationResponse>(
          side === "student" ? studentPath(indexNumber) : adminPath(indexNumber),
          undefined,
          { signal },
        )
        .then((answer) => answer.data),
  });
}

export function usePublication(side: Side, indexNumber: string) {
  return useQuery(publicationQuery(side, indexNumber));
}

export function useCurrentLicence() {
  return useQuery({
    queryKey: ["licence", "current"],
    queryFn: ({ signal }) =>
      api.get<CurrentLicenceResponse>("/licence", undefined, { signal }).then((a) => a.data),
  });
}

/** One licence version's text (the one a student accepted stays readable). */
export function useLicenceVersion(version: number | null) {
  return useQuery({
    queryKey: ["licence", "version", version],
    enabled: version !== null,
    queryFn: ({ signal }) =>
      api
        .get<{ data: LicenceVersion }>(`/licence/${version ?? 0}`, undefined, { signal })
        .then((a) => a.data),
  });
}

/** A change whose answer is the record: it replaces the cached record of that side. */
function useRecordChange<I>(
  side: Side,
  indexNumber: string,
  send: (input: I) => Promise<PublicationResponse>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      queryClient.setQueryData(publicationKey(side, indexNumber), answer.data);
    },
  });
}

export function useSaveStudentMetadata(indexNumber: string) {
  return useRecordChange("student", indexNumber, (input: StudentMetadataInput) =>
    apiRequest<PublicationResponse>("PUT", studentPath(indexNumber), input),
  );
}

export function useAcceptLicence(indexNumber: string) {
  return useRecordChange("student", indexNumber, (version: number) =>
    api.post<PublicationResponse>(`${studentPath(indexNumber)}/licence`, { version }),
  );
}

export function useChooseEmbargo(indexNumber: string) {
  return useRecordChange("student", indexNumber, (input: EmbargoInput) =>
    apiRequest<PublicationResponse>("PUT", `${studentPath(indexNumber)}/embargo`, input),
  );
}

export function useCorrectMetadata(indexNumber: string) {
  return useRecordChange("admin", indexNumber, (input: AdminMetadataInput) =>
    apiRequest<PublicationResponse>("PUT", adminPath(indexNumber), input),
  );
}

export function useDecideEmbargo(indexNumber: string) {
  return useRecordChange("admin", indexNumber, (input: EmbargoDecisionInput) =>
    api.post<PublicationResponse>(`${adminPath(indexNumber)}/embargo-decision`, input),
  );
}

export function useWithdraw(indexNumber: string) {
  return useRecordChange("admin", indexNumber, (reason: string) =>
    api.post<PublicationResponse>(`${adminPath(indexNumber)}/withdraw`, { reason }),
  );
}

// ---------------------------------------------------------------------------------------------
// The school's lists

export function useLicenceVersions(page: number) {
  return useQuery({
    queryKey: ["licence-versions", page],
    queryFn: ({ signal }) =>
      api.get<LicenceVersionListResponse>("/admin/licence-versions", { page }, { signal }),
  });
}

export function useAddLicenceVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      api.post<{ data: LicenceVersion }>("/admin/licence-versions", { text }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["licence-versions"] });
      void queryClient.invalidateQueries({ queryKey: ["licence"] });
    },
  });
}

export function useDegrees(page: number) {
  return useQuery({
    queryKey: ["degrees", page],
    queryFn: ({ signal }) => api.get<DegreeListResponse>("/admin/degrees", { page }, { signal }),
  });
}

export function useSaveDegree() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number | null; values: DegreeInput | DegreeChanges }) =>
      input.id === null
        ? api.post<{ data: Degree }>("/admin/degrees", input.values)
        : api.patch<{ data: Degree }>(`/admin/degrees/${input.id}`, input.values),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["degrees"] }),
  });
}
