/**
 * Body limits of the JSON routes. The app's default is 1 MB; each route takes a limit a few
 * times its largest valid body (every character of every field written as a \uXXXX escape), so a
 * larger one is refused with 413 while it arrives, before it is parsed. Multipart routes keep
 * their own limits (the import's 5 MB, each checklist item's upload limit).
 */

const KILOBYTE = 1024;

/** Sign-in, sign-up, codes, passwords, account forms, and the calls that take no body at all. */
export const SMALL_BODY_LIMIT = 16 * KILOBYTE;

/** A message, a thesis abstract, a return reason, a submission record, a bulk change of ids. */
export const TEXT_BODY_LIMIT = 64 * KILOBYTE;
