import { Link, NavLink, Outlet } from "react-router";
import { useSsoOptions } from "./api/sso-options.js";
import "./auth.css";

/**
 * /auth: the two ways in, side by side, above the form in view. With ETS_LOCAL_SIGN_IN other than
 * "on" students sign in through their university, so there is no account to create here.
 */
export function AuthLayout() {
  const localSignIn = useSsoOptions().data?.localSignIn ?? "on";
  return (
    <div className="auth">
      <div className="auth__panel card">
        {localSignIn === "on" ? (
          <nav aria-label="Account" className="auth__switch">
            <NavLink to="/auth/login">Login</NavLink>
            <NavLink to="/auth/signup">Create account</NavLink>
          </nav>
        ) : null}
        <Outlet />
      </div>
      <p className="auth__aside muted">
        {localSignIn === "on"
          ? "New students sign up with their institutional email and index number; a six-digit code arrives by email and is used to log in. "
          : "Students sign in with their university account; the account here is made at the first sign-in. "}
        Trouble signing in? <Link to="/help/faq">Read the FAQ</Link> or{" "}
        <Link to="/help/contact">contact us</Link>.
      </p>
    </div>
  );
}
