import { Alert } from "./Alert.js";

/** A failed fetch: what happened, and a retry. Never an empty view. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Alert tone="error" title="We could not load this">
      <p>{message}</p>
      {onRetry ? (
        <button type="button" className="button button--secondary button--small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </Alert>
  );
}
