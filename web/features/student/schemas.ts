import { z } from "zod";
import { changePasswordSchema } from "../../../common/accounts.js";

/**
 * The change-password form: the shared payload schema, plus the confirmation field that only the
 * form has. An empty current password means "not given" (a session started with a code).
 */
export const changePasswordFormSchema = changePasswordSchema
  .extend({
    currentPassword: z.string().optional(),
    confirmPassword: z.string(),
  })
  .refine((values) => values.confirmPassword === values.newPassword, {
    message: "The two new passwords do not match.",
    path: ["confirmPassword"],
  });

export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;
export type ChangePasswordValues = z.output<typeof changePasswordFormSchema>;
