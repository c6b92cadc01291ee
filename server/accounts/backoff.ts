/**
 * How long an account waits after repeated failed sign-ins (docs/decisions/004): nothing for the
 * first few failures, then 30 seconds doubling with each further failure, never more than
 * 15 minutes, so an attacker cannot lock a real user out for long. A success resets it.
 */
export const BACKOFF_BASE_MS = 30 * 1000;
export const BACKOFF_CAP_MS = 15 * 60 * 1000;

export function signInBackoffMs(
  consecutiveFailures: number,
  failuresBeforeBackoff: number,
): number {
  if (consecutiveFailures < failuresBeforeBackoff) return 0;
  const exponent = consecutiveFailures - failuresBeforeBackoff;
  return Math.min(BACKOFF_BASE_MS * 2 ** exponent, BACKOFF_CAP_MS);
}
