import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Link, useLocation, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import type { SignInInput, signInSchema } from "../../../common/accounts.js";
import { SSO_FAILURE_MESSAGES, isSsoFailure } from "../../../common/sso-constants.js";
import { Alert } from "../../components/ui/Alert.js";
import { TextField } from "../../components/form/Field.js";
import { ApiError } from "../../lib/api-client.js";
import { applyServerFieldErrors } from "../../lib/form-errors.js";
import { lazyZodResolver } from "../../lib/lazy-resolver.js";
import { homeFor, meQuery, rememberSession } from "../../lib/session.js";
import { safeNext } from "../../app/guards.js";
import { useSignIn } from "./api/sign-in.js";
import { useRequestCode } from "./api/request-code.js";
import { useSsoOptions } from "./api/sso-options.js";
import { SsoButtons } from "./SsoButtons.js";
import type { AuthNotice } from "./notice.js";

const GENERIC_ERROR = "An error occurred. Please try again.";

/**
 * 400 (validation), 401 (wrong email or password), 403 (deactivated, or local sign-in turned off)
 * and 429 (too many tries) carry words for the user.
 */
function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError && [400, 401, 403, 429].includes(error.status))
    return error.message;
  return GENERIC_ERROR;
}

// Loaded with the first validation, so zod is not part of the page's first load (issue 11).
const signInResolver = lazyZodResolver(() =>
  import("../../../common/accounts.js").then((accounts) => accounts.signInSchema),
);

type SignInForm = z.input<typeof signInSchema>;

export function LoginPage() {
  const [searchParams] = useSearchParams();
  const next = safeNext(searchParams.get("next"));
  const location = useLocation();
  const notice = (location.state as AuthNotice | null) ?? null;
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const requestCode = useRequestCode();
  const [leaving, setLeaving] = useState(false);

  const form = useForm<SignInForm, unknown, SignInInput>({
    resolver: signInResolver,
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
        window.location.assign(next ?? homeFor(user.role));
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
  // Until the options arrive (or if they cannot be read) the page is the one without single
  // sign-on, so the common case never waits and a failure never hides the form.
  const sso = useSsoOptions();
  const providers = sso.data?.providers ?? [];
  const localSignIn = sso.data?.localSignIn ?? "on";
  const ssoError = searchParams.get("sso_error");
  const ssoFailure =
    ssoError === null ? null : isSsoFailure(ssoError) ? ssoError : "invalid_response";

  return (
    <section aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      <p className="muted">
        {localSignIn === "on"
          ? "Enter your student email and password (or the six-digit code we emailed you)."
          : localSignIn === "admins-only"
            ? "Students and staff sign in with their university account. The form below is for administrators' own passwords."
            : "Sign in with your university account."}
      </p>

      {ssoFailure ? <Alert tone="error">{SSO_FAILURE_MESSAGES[ssoFailure]}</Alert> : null}
      <SsoButtons providers={providers} next={next} />
      {providers.length > 0 && localSignIn !== "off" ? (
        <p className="auth__or" aria-hidden="true">
          or
        </p>
      ) : null}

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

      {localSignIn === "off" ? null : (
        <form className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
          <TextField
            id="login-email"
            label={localSignIn === "on" ? "Student email" : "Administrator email"}
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
      )}

      {localSignIn === "on" ? (
        <>
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
        </>
      ) : null}
    </section>
  );
}
