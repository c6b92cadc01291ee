import { Link } from "react-router";
import { homeFor, useMe } from "../../lib/session.js";
import "./home.css";

export function HomePage() {
  const me = useMe();
  const user = me.data ?? null;

  return (
    <div className="home">
      <section className="home__hero" aria-labelledby="home-title">
        <h1 id="home-title" className="home__welcome">
          Welcome
        </h1>
        <p className="home__system">Electronic Thesis Submission Tracking System</p>
        <p className="home__lead">
          Follow your thesis from submission to the examiners&rsquo; reports, without phoning or
          queueing at the School of Graduate Studies.
        </p>
        <div className="actions">
          {user ? (
            <Link className="button button--accent" to={homeFor(user.role)}>
              {user.role === "admin" ? "Go to the admin dashboard" : "Go to your dashboard"}
            </Link>
          ) : (
            <>
              <Link className="button button--accent" to="/auth/login">
                Log in
              </Link>
              <Link className="button button--on-dark" to="/auth/signup">
                Create account
              </Link>
            </>
          )}
        </div>
      </section>

      <div className="home__columns">
        <section className="card" aria-labelledby="home-students">
          <h2 id="home-students">For students</h2>
          <ul className="home__list">
            <li>
              Sign up with your institutional email and index number; a six-digit code arrives by
              email.
            </li>
            <li>See where your thesis is: review, department, examiners, reports.</li>
            <li>Read notices from the School of Graduate Studies about your submission.</li>
            <li>Know whom to contact when something needs your attention.</li>
          </ul>
        </section>
        <section className="card" aria-labelledby="home-staff">
          <h2 id="home-staff">For staff</h2>
          <ul className="home__list">
            <li>Search every submission by student name or index number.</li>
            <li>Record each step: sent to department, nominations, examiners, reports.</li>
            <li>Add submissions and administrator accounts.</li>
            <li>See at a glance how many theses are at each stage.</li>
          </ul>
        </section>
      </div>

      <section className="home__help" aria-labelledby="home-help">
        <h2 id="home-help">Need help?</h2>
        <p>
          Read <Link to="/about">how the submission process works</Link>, the{" "}
          <Link to="/help/faq">frequently asked questions</Link>, or{" "}
          <Link to="/help/contact">send us a message</Link>.
        </p>
      </section>
    </div>
  );
}
