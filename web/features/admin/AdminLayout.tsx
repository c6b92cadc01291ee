import { NavLink, Outlet } from "react-router";
import { adminPaths } from "./paths.js";
import "./admin.css";

const LINKS = [
  { to: adminPaths.home, label: "Dashboard", end: true },
  { to: adminPaths.allSubmissions, label: "All Submissions" },
  { to: adminPaths.newSubmission, label: "Add New Submission" },
  { to: adminPaths.newUser, label: "Add New User" },
  { to: adminPaths.import, label: "Import/Export" },
  { to: adminPaths.users, label: "Users" },
  { to: adminPaths.examiners, label: "Examiners" },
  { to: adminPaths.publication, label: "Publication" },
  { to: adminPaths.library, label: "Library" },
  { to: adminPaths.reports, label: "Reports" },
  { to: adminPaths.notices, label: "Notices" },
  { to: adminPaths.inbox, label: "Contact messages" },
  { to: adminPaths.apiTokens, label: "API tokens" },
  { to: adminPaths.webhooks, label: "Webhooks" },
] as const;

/** The admin area's frame: its own navigation above every admin page. */
export function AdminLayout() {
  return (
    <div className="admin">
      <nav className="admin-nav" aria-label="Administration">
        <ul>
          {LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={"end" in link ? link.end : false}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin__page">
        <Outlet />
      </div>
    </div>
  );
}
