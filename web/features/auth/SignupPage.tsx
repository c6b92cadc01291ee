import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Link, useNavigate } from "react-router";
import {
  ACCOUNT_MESSAGES,
  createUserSchema,
  type CreateUserInput,
} from "../../../common/accounts.js";
import { Alert } from "../../components/ui/Alert.js";
import { TextField } from "../../components/form/Field.js";
import { ApiError } from "../../lib/api-client.js";
import { applyServerFieldErrors } from "../../lib/form-errors.js";
import { useCreateUser } from "./api/create-user.js";
import { useSsoOptions } from "./api/sso-options.js";
import type { AuthNotice } from "./notice.js";

type SignupForm = z.input<typeof createUserSchema>;
type Problem = "empty" | "exists" | "failed" | { message: string } | null;

const FAILED = "Failed to send OTP.";

export function SignupPage() {
  const navigate = useNavigate();
  const createUser = useCreateUser();
  const [problem, setProblem] = useState<Problem>(null);
  const form = useForm<SignupForm, unknown, CreateUserInput>({
    resolver: zodResolver(createUserSchema),
    defaultValues: { email: "", indexNumber: "" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    (input) => {
      setProblem(null);
      createUser.mutate(input, {
        onSuccess: () => {
          const notice: AuthNotice = { message: ACCOUNT_MESSAGES.signedUp, email: input.email };
          // The confirmation travels with the navigation so it stays in view on the login page.
          void navigate("/auth/login", { state: notice });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) setProblem("exists");
          else if (error instanceof ApiError && error.status === 400) {
            const placed = applyServerFieldErrors(error, form.setError, ["email", "indexNumber"]);
            setProblem(placed ? null : { message: error.message });
          } else if (error instanceof ApiError && (error.status === 429 || error.status === 403)) {
            setProblem({ message: error.message });
          } else setProblem("failed");
        },
      });
    },
    (invalid) => {
      // The prototype's rule: an empty field stops the form with one message and nothing is sent.
      const values = form.getValues();
      const empty = !values.email.trim() || !values.indexNumber.trim();
      setProblem(empty ? "empty" : null);
      if (invalid.email) form.setFocus("email");
      else if (invalid.indexNumber) form.setFocus("indexNumber");
    },
  );

  const busy = createUser.isPending;
  const localSignIn = useSsoOptions().data?.localSignIn ?? "on";

  if (localSignIn !== "on") {
    return (
      <section aria-labelledby="signup-title">
        <h1 id="signup-title">Create account</h1>
        <Alert tone="info">
          Students sign in with their university account; the account here is made at the first
          sign-in. <Link to="/auth/login">Go to the login page</Link>.
        </Alert>
      </section>
    );
  }

  return (
    <section aria-labelledby="signup-title">
      <h1 id="signup-title">Create account</h1>
      <p className="muted">
        Enter your institutional email and index number. We will email you a six-digit code to log
        in with.
      </p>

      {problem === "empty" ? <Alert tone="error">Please fill in all fields</Alert> : null}
      {problem === "exists" ? (
        <Alert tone="error">
          User already exists. Please try again Or <Link to="/auth/login">Try logging in</Link>
        </Alert>
      ) : null}
      {problem === "failed" ? <Alert tone="error">{FAILED}</Alert> : null}
      {problem !== null && typeof problem === "object" ? (
        <Alert tone="error">{problem.message}</Alert>
      ) : null}

      <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id="signup-email"
          label="Institutional email"
          type="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          error={errors.email?.message}
          {...form.register("email")}
        />
        <TextField
          id="signup-index"
          label="Index Number"
          autoComplete="off"
          spellCheck={false}
          hint="The number on your student ID card."
          error={errors.indexNumber?.message}
          {...form.register("indexNumber")}
        />
        <div className="actions">
          <button type="submit" className="button auth__submit" disabled={busy}>
            {busy ? "Sending" : "Send Code"}
          </button>
        </div>
      </form>
      <p className="muted auth__more">
        Already have a code? <Link to="/auth/login">Log in</Link>
      </p>
    </section>
  );
}
