import { describe, expect, it } from "vitest";
import { ssoOptionsResponseSchema } from "../../../../common/sso.js";
import { readSsoOptions } from "./sso-options.js";

// The login page checks GET /api/auth/sso's answer by hand so zod stays off its first load; it
// must accept and refuse what the shared schema accepts and refuses, and keep the same fields.
const answers: unknown[] = [
  { data: { providers: [], localSignIn: "on" } },
  {
    data: {
      providers: [
        {
          provider: "oidc",
          label: "University Account",
          startHref: "/api/auth/oidc/start",
          extra: 1,
        },
        { provider: "saml", label: "Shibboleth", startHref: "/api/auth/saml/start" },
      ],
      localSignIn: "admins-only",
    },
  },
  { data: { providers: [], localSignIn: "off" }, other: true },
  { data: { providers: [], localSignIn: "sometimes" } },
  { data: { providers: [{ provider: "ldap", label: "x", startHref: "/" }], localSignIn: "on" } },
  { data: { providers: [{ provider: "oidc", label: 3, startHref: "/" }], localSignIn: "on" } },
  { data: { providers: "none", localSignIn: "on" } },
  { data: null },
  null,
  "text",
];

describe("readSsoOptions", () => {
  it.each(answers.map((answer) => [JSON.stringify(answer), answer]))(
    "agrees with ssoOptionsResponseSchema on %s",
    (_label, answer) => {
      const parsed = ssoOptionsResponseSchema.safeParse(answer);
      if (parsed.success) {
        expect(readSsoOptions(answer)).toEqual(parsed.data.data);
      } else {
        expect(() => readSsoOptions(answer)).toThrow("unexpected shape");
      }
    },
  );
});
