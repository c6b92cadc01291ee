import type { SsoOptions } from "../../../common/sso.js";
import { ssoStartHref } from "./api/sso-options.js";

/**
 * "Sign in with <label>", one per configured provider: plain links, because signing in through a
 * provider is a full-page trip there and back, not an API call.
 */
export function SsoButtons({
  providers,
  next,
}: {
  providers: SsoOptions["providers"];
  next: string | null;
}) {
  if (providers.length === 0) return null;
  return (
    <ul className="auth__sso" aria-label="Sign in with your institution">
      {providers.map((provider) => (
        <li key={provider.provider}>
          <a className="button auth__sso-button" href={ssoStartHref(provider.startHref, next)}>
            Sign in with {provider.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
