import { NavLink, Outlet } from "react-router";
import { useMe } from "../../lib/session.js";
import { useMessages } from "./api/messages.js";
import "./student.css";

/** /dashboard: the student's three tabs, the page in view below. */
export function StudentLayout() {
  const me = useMe();
  const messages = useMessages();
  const unread = messages.data?.unreadCount ?? 0;

  return (
    <div className="student">
      <div className="student__header">
        <p className="student__eyebrow">Student dashboard</p>
        {me.data ? (
          <p className="student__who">
            {me.data.name ?? me.data.email}
            {me.data.indexNumber ? <span className="muted"> · {me.data.indexNumber}</span> : null}
          </p>
        ) : null}
      </div>
      <nav aria-label="Student dashboard" className="tabs student__tabs">
        <NavLink to="/dashboard/status">status</NavLink>
        <NavLink to="/dashboard/messages">
          messages
          {unread > 0 ? (
            <span className="badge">
              {unread}
              <span className="visually-hidden"> unread</span>
            </span>
          ) : null}
        </NavLink>
        <NavLink to="/dashboard/profile">profile</NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
