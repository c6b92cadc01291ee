import { Link, NavLink, Outlet } from "react-router";
import "./auth.css";

/** /auth: the two ways in, side by side, above the form in view. */
export function AuthLayout() {
  return (
    <div className="auth">
      <div className="auth__panel card">
        <nav aria-label="Account" className="auth__switch">
          <NavLink to="/auth/login">Login</NavLink>
          <NavLink to="/auth/signup">Create account</NavLink>
        </nav>
        <Outlet />
      </div>
      <p className="auth__aside muted">
        New students sign up with their institutional email and index number; a six-digit code
        arrives by email and is used to log in. Trouble signing in?{" "}
        <Link to="/help/faq">Read the FAQ</Link> or <Link to="/help/contact">contact us</Link>.
      </p>
    </div>
  );
}
