import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Link, useLocation, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { signInSchema, type SignInInput } from "../../../common/accounts.js";
import { Alert } from "../../components/ui/Alert.js";
import { TextField } from "../../components/form/Field.js";
import { ApiError } from "../../lib/api-client.js";
import { applyServerFieldErrors } from "../../lib/form-errors.js";
import { homeFor, meQuery, rememberSession } from "../../lib/session.js";
import { safeNext } from "../../app/guards.js";
import { useSignIn } from "./api/sign-in.js";
import { useRequestCode } from "./api/request-code.js";
import type { AuthNotice } from "./notice.js";

const GENERIC_ERROR = "An error occurred. Please try again.";

/** 400 (validation), 401 (wrong email or password) and 429 (too many tries) carry words for the user. */
function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError && [400, 401, 429].includes(error.status)) return error.message;
  return GENERIC_ERROR;
}

type SignInForm = z.input<typeof signInSchema>;

export function LoginPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const notice = (location.state as AuthNotice | null) ?? null;
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const requestCode = useRequestCode();
  const [leaving, setLeaving] = useState(false);

  const form = useForm<SignInForm, unknown, SignInInput>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: notice?.email ?? "", password: "", rememberMe: false },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((input) => {
    requestCode.reset();
    signIn.mutate(input, {
      onSuccess: ({ user }) => {
        rememberSession(user);
        void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
        setLeaving(true);
        // A full load, as the prototype did: the new session starts from a clean page.
        window.location.assign(safeNext(searchParams.get("next")) ?? homeFor(user.role));
      },
      onError: (error) => {
        applyServerFieldErrors(error, form.setError, ["email", "password"]);
      },
    });
  });

  const askForCode = async () => {
    signIn.reset();
    const valid = await form.trigger("email");
    if (!valid) {
      form.setFocus("email");
      return;
    }
    requestCode.mutate({ email: form.getValues("email") });
  };

  const busy = signIn.isPending || leaving;

  return (
    <section aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      <p className="muted">
        Enter your student email and password (or the six-digit code we emailed you).
      </p>

      {notice?.message ? <Alert tone="success">{notice.message}</Alert> : null}
      {signIn.isError ? <Alert tone="error">{signInErrorMessage(signIn.error)}</Alert> : null}
      {requestCode.isSuccess ? <Alert tone="success">{requestCode.data.message}</Alert> : null}
      {requestCode.isError ? (
        <Alert tone="error">
          {requestCode.error instanceof ApiError && requestCode.error.status === 429
            ? requestCode.error.message
            : GENERIC_ERROR}
        </Alert>
      ) : null}

      <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id="login-email"
          label="Student email"
          type="email"
          autoComplete="username"
          inputMode="email"
          spellCheck={false}
          error={errors.email?.message}
          {...form.register("email")}
        />
        <TextField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register("password")}
        />
        <label className="checkbox">
          <input type="checkbox" {...form.register("rememberMe")} />
          Remember me
        </label>
        <div className="actions">
          <button type="submit" className="button auth__submit" disabled={busy}>
            {busy ? "Logging in..." : "Login"}
          </button>
        </div>
      </form>

      <p className="auth__more">
        <button
          type="button"
          className="button button--link auth__code-link"
          onClick={() => void askForCode()}
          disabled={requestCode.isPending}
        >
          {requestCode.isPending ? "Sending a new code..." : "Forgot your code? Get a new one"}
        </button>
      </p>
      <p className="muted">
        No account yet? <Link to="/auth/signup">Create account</Link>
      </p>
    </section>
  );
}
