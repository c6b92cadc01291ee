import { createBrowserRouter, redirect, type RouteObject } from "react-router";
import { RootLayout } from "./RootLayout.js";
import { RouteError } from "./RouteError.js";
import { requireAdminLoader, requireUserLoader } from "./guards.js";
import { allSubmissionsLoader, statusPageLoader } from "./prefetch.js";

/**
 * The route table of spec section 2. Pages load lazily so the first visit ships only the shell
 * and the page in view. Each page module exports its component by name. A route's loader (a
 * static one, not inside `lazy`) runs in parallel with its chunk: the guards ask for the session
 * and ./prefetch.ts starts the page's data while the chunk is still on its way.
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => {
    const module = await load();
    return { Component: module[name] as React.ComponentType };
  };
}

export const routes: RouteObject[] = [
  {
    path: "/",
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, lazy: page(() => import("../features/home/HomePage.js"), "HomePage") },
          { path: "about", lazy: page(() => import("../features/info/AboutPage.js"), "AboutPage") },
          { path: "help", lazy: page(() => import("../features/info/HelpPage.js"), "HelpPage") },
          { path: "help/faq", lazy: page(() => import("../features/info/FaqPage.js"), "FaqPage") },
          {
            path: "help/contact",
            lazy: page(() => import("../features/info/ContactPage.js"), "ContactPage"),
          },
          {
            path: "auth",
            lazy: page(() => import("../features/auth/AuthLayout.js"), "AuthLayout"),
            children: [
              { index: true, loader: () => redirect("/auth/login") },
              {
                path: "login",
                lazy: page(() => import("../features/auth/LoginPage.js"), "LoginPage"),
              },
              {
                path: "signup",
                lazy: page(() => import("../features/auth/SignupPage.js"), "SignupPage"),
              },
            ],
          },
          {
            path: "dashboard",
            loader: requireUserLoader,
            lazy: page(() => import("../features/student/StudentLayout.js"), "StudentLayout"),
            children: [
              { index: true, loader: () => redirect("/dashboard/status") },
              {
                path: "status",
                loader: statusPageLoader,
                lazy: page(() => import("../features/student/StatusPage.js"), "StatusPage"),
              },
              {
                path: "messages",
                lazy: page(() => import("../features/student/MessagesPage.js"), "MessagesPage"),
              },
              {
                path: "profile",
                lazy: page(() => import("../features/student/ProfilePage.js"), "ProfilePage"),
              },
            ],
          },
          {
            path: "admin",
            loader: requireAdminLoader,
            lazy: page(() => import("../features/admin/AdminLayout.js"), "AdminLayout"),
            children: [
              {
                index: true,
                lazy: page(
                  () => import("../features/admin/dashboard/AdminHomePage.js"),
                  "AdminHomePage",
                ),
              },
              {
                path: "all_submissions",
                loader: allSubmissionsLoader,
                lazy: page(
                  () => import("../features/admin/submissions/AllSubmissionsPage.js"),
                  "AllSubmissionsPage",
                ),
              },
              {
                path: "new_submission",
                lazy: page(
                  () => import("../features/admin/submissions/NewSubmissionPage.js"),
                  "NewSubmissionPage",
                ),
              },
              {
                path: "new_user_entry",
                lazy: page(() => import("../features/admin/users/NewUserPage.js"), "NewUserPage"),
              },
              // Admin routes added by the workflow features go below this line.
              {
                path: "import",
                lazy: page(() => import("../features/admin/import/ImportPage.js"), "ImportPage"),
              },
              {
                path: "users",
                lazy: page(() => import("../features/admin/users/UsersPage.js"), "UsersPage"),
              },
              {
                path: "notices",
                lazy: page(() => import("../features/admin/notices/NoticesPage.js"), "NoticesPage"),
              },
              {
                path: "inbox",
                lazy: page(() => import("../features/admin/inbox/InboxPage.js"), "InboxPage"),
              },
              {
                path: "examiners",
                lazy: page(
                  () => import("../features/admin/examiners/ExaminersPage.js"),
                  "ExaminersPage",
                ),
              },
              {
                path: "tokens",
                lazy: page(() => import("../features/admin/tokens/TokensPage.js"), "TokensPage"),
              },
              {
                path: "publication",
                lazy: page(
                  () => import("../features/admin/publication/PublicationSettingsPage.js"),
                  "PublicationSettingsPage",
                ),
              },
              {
                path: "library",
                lazy: page(() => import("../features/admin/publication/LibraryPage.js"), "LibraryPage"),
              },
              { path: "reports", lazy: page(() => import("../features/admin/reports/ReportsPage.js"), "ReportsPage") },
              {
                path: "webhooks",
                lazy: page(() => import("../features/admin/webhooks/WebhooksPage.js"), "WebhooksPage"),
              },
            ],
          },
          // The examiner's page: no account, the mailed link's token after '#' (issue 9).
          {
            path: "examiner",
            handle: { bare: true },
            lazy: page(() => import("../features/examiner/ExaminerPage.js"), "ExaminerPage"),
          },
          { path: "*", lazy: page(() => import("./NotFoundPage.js"), "NotFoundPage") },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
