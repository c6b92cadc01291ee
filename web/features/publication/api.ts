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
import { api, unwrap } from "../../lib/api-client.js";

/**
 * Publication's endpoints (issue 20) for both screens: the student's record, licence and embargo;
 * the school's review, embargo decision, withdrawal, licence versions and degrees. One fetcher,
 * query and hook each; mutations put the answer in the record's query. Calls go through the
 * contract's typed client (web/lib/api-types.ts).
 */

export type Side = "student" | "admin";

/** What each part of a record's screen takes: the student's section and the school's panel. */
export interface PublicationPartProps {
  indexNumber: string;
  view: PublicationView;
}

export function publicationKey(side: Side, indexNumber: string) {
  return ["publication", side, indexNumber] as const;
}

function getPublication(
  side: Side,
  indexNumber: string,
  signal?: AbortSignal,
): Promise<PublicationResponse> {
  const params = { path: { indexNumber } };
  return side === "student"
    ? unwrap(api.GET("/api/submissions/{indexNumber}/publication", { params, signal }))
    : unwrap(api.GET("/api/admin/submissions/{indexNumber}/publication", { params, signal }));
}

export function publicationQuery(side: Side, indexNumber: string) {
  return queryOptions({
    queryKey: publicationKey(side, indexNumber),
    queryFn: ({ signal }): Promise<PublicationView> =>
      getPublication(side, indexNumber, signal).then((answer) => answer.data),
  });
}

export function usePublication(side: Side, indexNumber: string) {
  return useQuery(publicationQuery(side, indexNumber));
}

export function useCurrentLicence() {
  return useQuery({
    queryKey: ["licence", "current"],
    queryFn: ({ signal }): Promise<CurrentLicenceResponse["data"]> =>
      unwrap(api.GET("/api/licence", { signal })).then((a) => a.data),
  });
}

/** One licence version's text (the one a student accepted stays readable). */
export function useLicenceVersion(version: number | null) {
  return useQuery({
    queryKey: ["licence", "version", version],
    enabled: version !== null,
    queryFn: ({ signal }): Promise<LicenceVersion> =>
      unwrap(
        api.GET("/api/licence/{version}", {
          params: { path: { version: version ?? 0 } },
          signal,
        }),
      ).then((a) => a.data),
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

const record = (indexNumber: string) => ({ params: { path: { indexNumber } } });

export function useSaveStudentMetadata(indexNumber: string) {
  return useRecordChange("student", indexNumber, (input: StudentMetadataInput) =>
    unwrap(
      api.PUT("/api/submissions/{indexNumber}/publication", {
        ...record(indexNumber),
        body: input,
      }),
    ),
  );
}

export function useAcceptLicence(indexNumber: string) {
  return useRecordChange("student", indexNumber, (version: number) =>
    unwrap(
      api.POST("/api/submissions/{indexNumber}/publication/licence", {
        ...record(indexNumber),
        body: { version },
      }),
    ),
  );
}

export function useChooseEmbargo(indexNumber: string) {
  return useRecordChange("student", indexNumber, (input: EmbargoInput) =>
    unwrap(
      api.PUT("/api/submissions/{indexNumber}/publication/embargo", {
        ...record(indexNumber),
        body: input,
      }),
    ),
  );
}

export function useCorrectMetadata(indexNumber: string) {
  return useRecordChange("admin", indexNumber, (input: AdminMetadataInput) =>
    unwrap(
      api.PUT("/api/admin/submissions/{indexNumber}/publication", {
        ...record(indexNumber),
        body: input,
      }),
    ),
  );
}

export function useDecideEmbargo(indexNumber: string) {
  return useRecordChange("admin", indexNumber, (input: EmbargoDecisionInput) =>
    unwrap(
      api.POST("/api/admin/submissions/{indexNumber}/publication/embargo-decision", {
        ...record(indexNumber),
        body: input,
      }),
    ),
  );
}

export function useWithdraw(indexNumber: string) {
  return useRecordChange("admin", indexNumber, (reason: string) =>
    unwrap(
      api.POST("/api/admin/submissions/{indexNumber}/publication/withdraw", {
        ...record(indexNumber),
        body: { reason },
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The school's lists

export function useLicenceVersions(page: number) {
  return useQuery({
    queryKey: ["licence-versions", page],
    queryFn: ({ signal }): Promise<LicenceVersionListResponse> =>
      unwrap(api.GET("/api/admin/licence-versions", { params: { query: { page } }, signal })),
  });
}

export function useAddLicenceVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string): Promise<{ data: LicenceVersion }> =>
      unwrap(api.POST("/api/admin/licence-versions", { body: { text } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["licence-versions"] });
      void queryClient.invalidateQueries({ queryKey: ["licence"] });
    },
  });
}

export function useDegrees(page: number) {
  return useQuery({
    queryKey: ["degrees", page],
    queryFn: ({ signal }): Promise<DegreeListResponse> =>
      unwrap(api.GET("/api/admin/degrees", { params: { query: { page } }, signal })),
  });
}

export function useSaveDegree() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      id: number | null;
      values: DegreeInput | DegreeChanges;
    }): Promise<{ data: Degree }> =>
      input.id === null
        ? unwrap(api.POST("/api/admin/degrees", { body: input.values as DegreeInput }))
        : unwrap(
            api.PATCH("/api/admin/degrees/{id}", {
              params: { path: { id: input.id } },
              body: input.values,
            }),
          ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["degrees"] }),
  });
}
