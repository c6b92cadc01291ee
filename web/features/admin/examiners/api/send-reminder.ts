import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { reminderSchema, type Reminder } from "../../../../../common/examiners.js";
import { api, unwrap } from "../../../../lib/api-client.js";
import { refreshAfterExaminationChange } from "./examination-refresh.js";

const reminderResponseSchema = z.object({ data: reminderSchema });

/** POST /api/admin/examinations/:id/remind: a reminder by hand, 201 with what was recorded. */
export async function sendReminder(input: { examinationId: number }): Promise<Reminder> {
  const body = await unwrap(
    api.POST("/api/admin/examinations/{id}/remind", {
      params: { path: { id: input.examinationId } },
    }),
  );
  return reminderResponseSchema.parse(body).data;
}

/**
 * Sent from the dashboard's overdue list as well as from the panel, so the submission to refresh
 * comes with each call rather than with the hook.
 */
export function useSendReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { examinationId: number; submissionId: number }) => sendReminder(input),
    onSettled: (_reminder, _error, input) =>
      refreshAfterExaminationChange(queryClient, input.submissionId),
  });
}
