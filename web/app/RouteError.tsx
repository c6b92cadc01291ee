import { Link, useRouteError } from "react-router";

/** Any render or loader error lands here: the prototype's wording, and a way back. */
export function RouteError() {
  const error = useRouteError();
  // Logged for developers; the page shows no internals.
  console.error(error);
  return (
    <section className="page page--narrow" aria-labelledby="error-title">
      <h1 id="error-title">Unexpected Application Error!</h1>
      <p role="alert">Something went wrong while showing this page. Your data is safe.</p>
      <p className="actions">
        <Link className="button" to="/">
          Go to the homepage
        </Link>
        <button type="button" className="button button--secondary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </p>
    </section>
  );
}
