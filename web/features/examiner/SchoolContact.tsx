import { Link } from "react-router";

/**
 * Whom the examiner asks: the school's contact as the server gives it (an email, a phone), and
 * always the site's contact page.
 */
export function SchoolContact({ contact }: { contact: string | null }) {
  return (
    <div className="examiner__contact">
      <h2 className="examiner__contact-title">Questions?</h2>
      {contact ? (
        <p>
          Contact the School of Graduate Studies: <strong>{contact}</strong>
        </p>
      ) : null}
      <p>
        <Link to="/help/contact">Contact the School of Graduate Studies</Link>
        {contact ? " through this site." : " with the thesis title and your name."}
      </p>
    </div>
  );
}
