import { withQuery } from "../../lib/api-client.js";

/** Every admin page's address, in one place; links and tests use these, never literal strings. */
export const adminPaths = {
  home: "/admin",
  allSubmissions: "/admin/all_submissions",
  newSubmission: "/admin/new_submission",
  newUser: "/admin/new_user_entry",
  import: "/admin/import",
  users: "/admin/users",
  notices: "/admin/notices",
  inbox: "/admin/inbox",
  examiners: "/admin/examiners",
  publication: "/admin/publication",
  library: "/admin/library",
  reports: "/admin/reports",
  apiTokens: "/admin/tokens",
  webhooks: "/admin/webhooks",
} as const;

type ListLink = Partial<
  Record<
    | "q"
    | "programme"
    | "sgsStage"
    | "internalExaminer"
    | "externalExaminer"
    | "thesisStatus"
    | "missingDocument"
    | "documents"
    | "open",
    string | number
  >
>;

/** The submissions list with filters (and optionally one record open in the details panel). */
export function submissionsListHref(link: ListLink = {}): string {
  return withQuery(adminPaths.allSubmissions, link);
}
