import { Link, useLocation } from "react-router";
import { Alert } from "../../../components/ui/Alert.js";
import { ErrorState } from "../../../components/ui/ErrorState.js";
import { ApiError } from "../../../lib/api-client.js";

/**
 * A failed admin fetch, said in words that tell the administrator what to do next: sign in again
 * when the session ended, otherwise retry (the server's own message is shown when it sent one).
 */
export function LoadError({
  error,
  what,
  onRetry,
}: {
  error: unknown;
  /** What could not be loaded, e.g. "the submissions". */
  what: string;
  onRetry: () => void;
}) {
  const location = useLocation();
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return (
      <Alert tone="error" title="Please log in again">
        <p>
          {error.status === 401
            ? `Your session has ended, so we could not load ${what}.`
            : `Your account is not allowed to see ${what}. Log in with an administrator account.`}
        </p>
        <p>
          <Link to={`/auth/login?next=${next}`}>Log in</Link>
        </p>
      </Alert>
    );
  }
  return <ErrorState message={describeLoadError(error, what)} onRetry={onRetry} />;
}

export function describeLoadError(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) {
      return `We could not reach the server to load ${what}. Check your connection, then try again.`;
    }
    if (error.status >= 500) {
      return `The server had a problem loading ${what}. Try again in a moment; if it keeps happening, tell the system administrator.`;
    }
    return error.message;
  }
  return `Something went wrong while loading ${what}. Try again.`;
}
