import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <section className="page page--narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not Found!</h1>
      <p>The address you followed does not exist on ETS Tracking.</p>
      <p>
        <Link to="/">Go to the homepage</Link>
      </p>
    </section>
  );
}
