import { useEffect, useRef } from "react";
import type { LinkRefusal } from "../../../common/examiners.js";
import { SchoolContact } from "./SchoolContact.js";

/** Why the page cannot open the examination: the server's reasons, or no link at all. */
export type RefusalReason = LinkRefusal | "missing";

const WORDS: Record<RefusalReason, { title: string; body: string[] }> = {
  invalid: {
    title: "This link does not open an examination",
    body: [
      "The link may have been cut short or changed on its way (some email programs break long lines).",
      "Open the link in the school's email by clicking it, or copy the whole link into the address bar. Every reminder from the school carries a link too. If none opens, ask the school to send a new one.",
    ],
  },
  expired: {
    title: "This examination link has expired",
    body: [
      "Examination links work for a limited time, and this one has run out.",
      "If you still have a report to send or corrections to confirm, ask the School of Graduate Studies for a new link.",
    ],
  },
  revoked: {
    title: "This examination link has been withdrawn",
    body: [
      "The School of Graduate Studies has withdrawn this link, so it no longer opens the examination.",
      "If you believe you still have work to do on this thesis, please contact the school.",
    ],
  },
  replaced: {
    title: "This examination was withdrawn from you",
    body: [
      "The School of Graduate Studies has passed this examination to another examiner, so this link no longer opens it and there is nothing more for you to do.",
      "If you have questions about it, or think this is a mistake, please contact the school.",
    ],
  },
  missing: {
    title: "Open this page from your invitation email",
    body: [
      "The examination page opens from the personal link in the email the School of Graduate Studies sent you. This address alone does not say which examination is yours.",
      "Click the link in that email. If you cannot find it, ask the school to send it again.",
    ],
  },
};

/**
 * A link that does not open the examination gets a page that says why in plain words and whom to
 * ask, never an error page. The heading takes focus so a screen reader starts there.
 */
export function LinkRefusedPage({
  reason,
  schoolContact,
}: {
  reason: RefusalReason;
  schoolContact: string | null;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [reason]);
  const words = WORDS[reason];
  return (
    <section className="examiner__card card" aria-labelledby="examiner-refused-title">
      <p className="examiner__eyebrow">School of Graduate Studies · Thesis examination</p>
      <h1 id="examiner-refused-title" ref={headingRef} tabIndex={-1}>
        {words.title}
      </h1>
      {words.body.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <SchoolContact contact={schoolContact} />
    </section>
  );
}
