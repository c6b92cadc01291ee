import type { SessionUser } from "./session.js";

/**
 * Access rules in one place. Routes ask here; they never compare roles themselves.
 */
export function canReadSubmission(user: SessionUser, indexNumber: string): boolean {
  return user.role === "admin" || (user.indexNumber !== null && user.indexNumber === indexNumber);
}

export function isAdmin(user: SessionUser | null): boolean {
  return user?.role === "admin";
}

/**
 * An uploaded document (every version) is readable by the student whose submission it belongs to
 * and by administrators, nobody else.
 */
export function canReadDocument(user: SessionUser, document: { indexNumber: string }): boolean {
  return canReadSubmission(user, document.indexNumber);
}

/** Students upload their own documents; an administrator records a paper copy instead. */
export function canUploadDocument(user: SessionUser, indexNumber: string): boolean {
  return user.role === "student" && user.indexNumber !== null && user.indexNumber === indexNumber;
}

/**
 * The student's own record (publication details, licence, embargo: issue 20): only the student
 * whose index number it is; administrators correct through their own routes.
 */
export function isOwnSubmission(user: SessionUser, indexNumber: string): boolean {
  return user.role === "student" && user.indexNumber !== null && user.indexNumber === indexNumber;
}
