import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ExaminerKind } from "../../../../../common/examiners.js";
import { confirmationRequiredSchema } from "../../../../../common/submissions-api.js";
import { SGS_STAGES, skippedSgsStages, type SgsStage } from "../../../../../common/workflow.js";
import { ApiError, api } from "../../../../lib/api-client.js";
import { examinationView, refreshAfterExaminationChange } from "./examination-refresh.js";

/**
 * POST /api/admin/submissions/:indexNumber/examination/send: without roles, every nominated
 * examiner not sent yet; with roles, a new link for those (their earlier links keep working).
 * When sending skips earlier stages of the record the server answers 409 "confirmation_required"
 * (readSendRefusal); the administrator's confirmation sends again with confirmOutOfOrder.
 */
export function sendToExaminers(input: {
  indexNumber: string;
  roles?: ExaminerKind[];
  confirmOutOfOrder?: boolean;
}) {
  return examinationView(
    api.POST("/api/admin/submissions/{indexNumber}/examination/send", {
      params: { path: { indexNumber: input.indexNumber } },
      body: {
        ...(input.roles ? { roles: input.roles } : {}),
        ...(input.confirmOutOfOrder ? { confirmOutOfOrder: true } : {}),
      },
    }),
  );
}

/** The stages a refused send would skip, with the server's words, or null for another error. */
export function readSendRefusal(error: unknown): { message: string; skipped: SgsStage[] } | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const refusal = confirmationRequiredSchema.safeParse(error.body);
  if (!refusal.success) return null;
  const move = refusal.data.moves.find((m) => m.field === "sgsStage");
  const from = move?.from ?? null;
  return {
    message: refusal.data.message,
    skipped: skippedSgsStages(isSgsStage(from) ? from : null, "sent_to_examiners"),
  };
}

function isSgsStage(value: string | null): value is SgsStage {
  return value !== null && (SGS_STAGES as readonly string[]).includes(value);
}

export function useSendToExaminers(submissionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendToExaminers,
    onSettled: () => refreshAfterExaminationChange(queryClient, submissionId),
  });
}
