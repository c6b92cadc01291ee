import type { ExaminerListQuery } from "../../../common/examiners.js";
import type { SubmissionListQuery } from "../../../common/submissions-api.js";

/**
 * Query keys of the admin features. Mutations invalidate by these prefixes, so a change made on
 * one page (an import, a bulk update) refreshes every view that counts or lists submissions.
 */
export const adminKeys = {
  all: ["admin"] as const,
  stats: () => [...adminKeys.all, "stats"] as const,
  submissions: () => [...adminKeys.all, "submissions"] as const,
  submissionLists: () => [...adminKeys.submissions(), "list"] as const,
  submissionList: (query: SubmissionListQuery) => [...adminKeys.submissionLists(), query] as const,
  submission: (id: number) => [...adminKeys.submissions(), "detail", id] as const,
  submissionEvents: (id: number) => [...adminKeys.submissions(), "events", id] as const,
  submissionDocuments: (id: number) => [...adminKeys.submissions(), "documents", id] as const,
  // Under submissions(): an edit of the record (its stage) can change whether the link may be sent.
  submissionExamination: (id: number) => [...adminKeys.submissions(), "examination", id] as const,
  examiners: () => [...adminKeys.all, "examiners"] as const,
  examinerList: (query: Partial<ExaminerListQuery>) =>
    [...adminKeys.examiners(), "list", query] as const,
  users: () => [...adminKeys.all, "users"] as const,
  userList: (query: { role?: string; q?: string }) => [...adminKeys.users(), query] as const,
  contactMessages: () => [...adminKeys.all, "contact-messages"] as const,
  failedMail: () => [...adminKeys.all, "failed-mail"] as const,
};
