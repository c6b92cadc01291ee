import { z } from "zod";
import { INDEX_NUMBER_PATTERN, INDEX_NUMBER_RULE } from "./submission.js";

/**
 * Account payloads, shared by the server (Fastify's type provider) and the web app's forms
 * (react-hook-form's zod resolver). Messages are written for the person filling in the form.
 */

export const ROLES = ["student", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/** The sign-up code: six digits, 100000 to 999999 (spec section 9). */
export const CODE_PATTERN = /^\d{6}$/;
export const CODE_TTL_MINUTES = 10;

/** Administrators' passcodes (new_user_entry, the CLI and the bootstrap). */
export const MIN_ADMIN_PASSWORD_LENGTH = 12;
/** Longer than a code, so a six-digit input is always read as a code and never as a password. */
export const MIN_STUDENT_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_CONTACT_MESSAGE_LENGTH = 5000;


/** Required text: a missing field and a field of the wrong type each get a readable message. */
function text(missing: string, label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? missing : `${label} must be text.`),
  });
}

export const emailSchema = text("Enter your email address.", "Email")
  .trim()
  .toLowerCase()
  .min(1, { error: "Enter your email address.", abort: true })
  .max(MAX_EMAIL_LENGTH, `Email address is too long (${MAX_EMAIL_LENGTH} characters at most).`)
  .pipe(z.email("Enter a valid email address, like name@school.edu."));

export const indexNumberSchema = text("Enter your index number.", "Index number")
  .trim()
  .min(1, { error: "Enter your index number.", abort: true })
  .regex(INDEX_NUMBER_PATTERN, `Index number ${INDEX_NUMBER_RULE}.`);

const newPasswordSchema = text("Enter a new password.", "Password")
  .min(
    MIN_STUDENT_PASSWORD_LENGTH,
    `Password must be at least ${MIN_STUDENT_PASSWORD_LENGTH} characters.`,
  )
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);

/** POST /api/create_user. An old client's `password` is not declared, so it is dropped. */
export const createUserSchema = z.object({
  email: emailSchema,
  indexNumber: indexNumberSchema,
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

/** POST /api/user_sign_in. `password` is the account's password or a six-digit code. */
export const signInSchema = z.object({
  email: emailSchema,
  password: text("Enter your password or code.", "Password")
    .min(1, "Enter your password or code.")
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`),
  rememberMe: z.boolean({ error: "Remember me must be true or false." }).optional(),
});
export type SignInInput = z.infer<typeof signInSchema>;

/** POST /api/request_code */
export const requestCodeSchema = z.object({ email: emailSchema });
export type RequestCodeInput = z.infer<typeof requestCodeSchema>;

/**
 * POST /api/change_password. `currentPassword` is needed when the account already has one,
 * unless the session was just started with a code (the "forgot password" path).
 */
export const changePasswordSchema = z.object({
  currentPassword: text("Enter your current password.", "Current password")
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`)
    .optional(),
  newPassword: newPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** POST /api/admin/users (the new_user_entry form: Name, Email, Passcode). */
export const newAdminSchema = z.object({
  name: text("Enter the administrator's name.", "Name")
    .trim()
    .min(1, "Enter the administrator's name.")
    .max(100, "Name must be at most 100 characters."),
  email: emailSchema,
  passcode: text("Enter a passcode.", "Passcode")
    .min(
      MIN_ADMIN_PASSWORD_LENGTH,
      `Passcode must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters.`,
    )
    .max(MAX_PASSWORD_LENGTH, `Passcode must be at most ${MAX_PASSWORD_LENGTH} characters.`),
});
export type NewAdminInput = z.infer<typeof newAdminSchema>;

/** POST /api/contact */
export const contactSchema = z.object({
  email: emailSchema,
  message: text("Enter your message.", "Message")
    .trim()
    .min(1, "Enter your message.")
    .max(
      MAX_CONTACT_MESSAGE_LENGTH,
      `Message must be at most ${MAX_CONTACT_MESSAGE_LENGTH} characters.`,
    ),
});
export type ContactInput = z.infer<typeof contactSchema>;

/** GET /api/admin/users */
export const adminUsersQuerySchema = z.object({
  role: roleSchema.optional(),
  q: z.string().trim().max(100, "Search must be at most 100 characters.").optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

// Responses.

export const successSchema = z.object({ success: z.literal(true) });
export const successMessageSchema = z.object({ success: z.literal(true), message: z.string() });
export type SuccessMessage = z.infer<typeof successMessageSchema>;

export const signInResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
  user: z.object({ role: roleSchema, indexNumber: z.string().nullable() }),
});
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const meSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  indexNumber: z.string().nullable(),
  hasPassword: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;
export const meResponseSchema = z.object({ user: meSchema });

export const adminUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  indexNumber: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  submission: z.object({ id: z.number(), studentName: z.string() }).nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListResponseSchema = z.object({ items: z.array(adminUserSchema) });
export const createdAdminResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user: adminUserSchema,
});

export const failedMailSchema = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type FailedMail = z.infer<typeof failedMailSchema>;
export const failedMailListResponseSchema = z.object({ items: z.array(failedMailSchema) });

export const contactMessageSchema = z.object({
  id: z.number(),
  email: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;
export const contactMessageListResponseSchema = z.object({ items: z.array(contactMessageSchema) });

/** The messages the web shows (spec section 8); the server sends the same words. */
export const ACCOUNT_MESSAGES = {
  signedUp: "A verification code has been sent to your email!",
  userExists: "User already exists. Please try again Or Try logging in",
  invalidCredentials: "Invalid email or password.",
  signedIn: "Signed in.",
  codeRequested: "If an account exists for this email, a new code has been sent to it.",
  passwordChanged: "Your password has been changed.",
  contactReceived: "Thank you. Your message has been sent to the School of Graduate Studies.",
} as const;
