/**
 * The examiner's token travels in the link's fragment (`/examiner#<token>`), which browsers never
 * send to a server, so it reaches no log. The page takes it from the address on arrival, keeps it
 * in this tab's sessionStorage (a reload still works; closing the tab forgets it) and then removes
 * it from the address bar, so it is not shown, bookmarked or shared with a screenshot.
 */
const STORAGE_KEY = "ets.examinerToken";

/** Header-safe characters only; the server's tokens are base64url, 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_\-.~+/=]{16,256}$/;

/**
 * What the fragment holds: a token, nothing (no fragment), or something that cannot be one
 * (a link cut short or mangled by a mail program), which the page refuses as an invalid link.
 */
export type HashToken = { kind: "token"; token: string } | { kind: "none" } | { kind: "malformed" };

export function tokenFromHash(hash: string): HashToken {
  const raw = hash.replace(/^#/, "").trim();
  if (raw === "") return { kind: "none" };
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return { kind: "malformed" };
  }
  return TOKEN_PATTERN.test(value) ? { kind: "token", token: value } : { kind: "malformed" };
}

export function storedToken(): string | null {
  try {
    const value = sessionStorage.getItem(STORAGE_KEY);
    return value && TOKEN_PATTERN.test(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage may be unavailable (private mode): the page works until it is reloaded.
  }
}

export function forgetToken(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to forget.
  }
}
