import { useEffect, useRef } from "react";

export interface SummaryError {
  /** The id of the control the message is about; the link moves focus there. */
  id: string;
  message: string;
}

/**
 * The GOV.UK error summary: after a failed submit, focus moves here and each problem links to its
 * field. `attempt` changes on every submit so the summary takes focus again on a repeat failure.
 */
export function ErrorSummary({ errors, attempt }: { errors: SummaryError[]; attempt: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = errors.length > 0;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown, attempt]);
  if (!shown) return null;
  return (
    <div
      ref={ref}
      className="error-summary"
      role="alert"
      tabIndex={-1}
      aria-labelledby="error-summary-title"
    >
      <h2 id="error-summary-title" className="error-summary__title">
        There is a problem
      </h2>
      <ul>
        {errors.map((error) => (
          <li key={error.id}>
            <a
              href={`#${error.id}`}
              onClick={(event) => {
                // Focus the field without a hash navigation (which the router would see as a new location).
                event.preventDefault();
                document.getElementById(error.id)?.focus();
              }}
            >
              {error.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
