import { Link, NavLink, Outlet, ScrollRestoration, useMatches, useNavigation } from "react-router";
import { logout, storedRole, useMe } from "../lib/session.js";
import logoUrl from "../components/ui/logo.svg";

/**
 * A route with `handle: { bare: true }` (the examiner's page) is for people without an account:
 * it shows the brand only, no site navigation and no sign-in state (so no /api/session request).
 */
function useBareLayout(): boolean {
  return useMatches().some((match) => (match.handle as { bare?: boolean } | undefined)?.bare);
}

export function RootLayout() {
  const navigation = useNavigation();
  const bare = useBareLayout();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {bare ? <BareTopBar /> : <TopBar />}
      <div
        className="route-progress"
        aria-hidden={navigation.state === "idle"}
        data-active={navigation.state !== "idle"}
      />
      <main id="main" tabIndex={-1} className="app__main">
        <Outlet />
      </main>
      <footer className="footer">
        <p>© {new Date().getFullYear()} School of Graduate Studies. All rights reserved.</p>
        <p className="footer__links">
          <Link to="/help/contact">Contact us</Link>
          <Link to="/help/faq">FAQ</Link>
        </p>
      </footer>
      <ScrollRestoration />
    </div>
  );
}

function BareTopBar() {
  return (
    <header className="topbar">
      <div className="topbar__inner">
        <span className="brand">
          <img src={logoUrl} alt="" width={36} height={36} className="brand__logo" />
          <span className="brand__title">ETS Tracking</span>
        </span>
      </div>
    </header>
  );
}

function TopBar() {
  const me = useMe();
  // Until /api/session answers, the stored role keeps the bar from flickering; it grants nothing.
  const role = me.isPending ? storedRole() : (me.data?.role ?? null);
  const signedIn = role !== null;
  return (
    <header className="topbar">
      <div className="topbar__inner">
        <Link to="/" className="brand">
          <img src={logoUrl} alt="" width={36} height={36} className="brand__logo" />
          <span className="brand__title">ETS Tracking</span>
        </Link>
        <nav aria-label="Main" className="topnav">
          <ul>
            <li>
              <NavLink to="/" end>
                Home
              </NavLink>
            </li>
            <li>
              <NavLink to="/about">About</NavLink>
            </li>
            <li>
              <NavLink to="/help">Help</NavLink>
            </li>
            {signedIn ? (
              <>
                <li>
                  {role === "admin" ? (
                    <NavLink to="/admin">Dashboard</NavLink>
                  ) : (
                    <NavLink to="/dashboard">Student Dashboard</NavLink>
                  )}
                </li>
                <li>
                  <button
                    type="button"
                    className="button button--small button--on-dark"
                    onClick={() => void logout()}
                  >
                    Logout
                  </button>
                </li>
              </>
            ) : (
              <li>
                <NavLink to="/auth/login" className="topnav__login">
                  Login
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </header>
  );
}
