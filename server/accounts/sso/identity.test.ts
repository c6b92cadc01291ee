import { describe, expect, it } from "vitest";
import { testConfig } from "../../../testing/test-app.js";
import { isAdministratorByDirectory, safeReturnPath, type SsoIdentity } from "./identity.js";
import { identityFromClaims } from "./oidc.js";

/** The rules of who becomes what that need no provider: return paths, admin groups, claims. */

const config = testConfig({
  OIDC_ISSUER: "https://login.example.edu/",
  OIDC_CLIENT_ID: "ets",
  SSO_ADMIN_GROUPS: "sgs-staff, 5f1c0d2e-group-id",
  SSO_ADMIN_EMAILS: "Dean@SGS.example.edu",
});
const oidc = config.sso.oidc!;

function identity(overrides: Partial<SsoIdentity> = {}): SsoIdentity {
  return {
    provider: "oidc",
    subject: "s-1",
    email: "someone@sgs.example.edu",
    emailVerified: true,
    indexNumber: null,
    groups: [],
    name: null,
    ...overrides,
  };
}

describe("safeReturnPath", () => {
  it("keeps a path of this site", () => {
    expect(safeReturnPath("/admin/users?q=ama")).toBe("/admin/users?q=ama");
    expect(safeReturnPath("/dashboard/messages")).toBe("/dashboard/messages");
  });

  it("drops addresses that leave the site or loop back to signing in", () => {
    for (const bad of [
      "//evil.example/x",
      "/\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "admin",
      "/auth/login",
      "/api/auth/oidc/start",
      "/a\nb",
      `/${"x".repeat(600)}`,
      "",
      null,
      undefined,
    ]) {
      expect(safeReturnPath(bad)).toBeNull();
    }
  });
});

describe("isAdministratorByDirectory", () => {
  it("names members of a listed group administrators, whatever the letter case", () => {
    expect(isAdministratorByDirectory(identity({ groups: ["library", "SGS-Staff"] }), config)).toBe(
      true,
    );
    expect(isAdministratorByDirectory(identity({ groups: ["5f1c0d2e-group-id"] }), config)).toBe(
      true,
    );
    expect(isAdministratorByDirectory(identity({ groups: ["sgs-staff-alumni"] }), config)).toBe(
      false,
    );
  });

  it("names a listed email an administrator only when the email is verified", () => {
    expect(isAdministratorByDirectory(identity({ email: "dean@sgs.example.edu" }), config)).toBe(
      true,
    );
    expect(
      isAdministratorByDirectory(
        identity({ email: "dean@sgs.example.edu", emailVerified: false }),
        config,
      ),
    ).toBe(false);
    expect(isAdministratorByDirectory(identity(), config)).toBe(false);
  });
});

describe("identityFromClaims", () => {
  it("reads email, verification, index number, groups and name", () => {
    const read = identityFromClaims(
      {
        sub: "abc",
        email: " Ama@SGS.example.edu ",
        email_verified: true,
        name: "Ama Mensah",
        groups: ["sgs-staff", 42, ""],
        student_index: 10012345,
      },
      { ...oidc, indexNumberClaim: "student_index" },
    );
    expect(read).toEqual({
      provider: "oidc",
      subject: "abc",
      email: "ama@sgs.example.edu",
      emailVerified: true,
      indexNumber: "10012345",
      groups: ["sgs-staff"],
      name: "Ama Mensah",
    });
  });

  it("needs email_verified true for the email claim", () => {
    expect(identityFromClaims({ sub: "a", email: "a@x.edu" }, oidc).emailVerified).toBe(false);
    expect(
      identityFromClaims({ sub: "a", email: "a@x.edu", email_verified: false }, oidc).emailVerified,
    ).toBe(false);
    expect(
      identityFromClaims({ sub: "a", email: "a@x.edu", email_verified: "true" }, oidc)
        .emailVerified,
    ).toBe(true);
  });

  it("takes a directory claim such as upn as verified unless the provider says it is not", () => {
    const upn = { ...oidc, emailClaim: "upn" };
    expect(identityFromClaims({ sub: "a", upn: "a@x.edu" }, upn)).toMatchObject({
      email: "a@x.edu",
      emailVerified: true,
    });
    expect(
      identityFromClaims({ sub: "a", upn: "a@x.edu", email_verified: false }, upn).emailVerified,
    ).toBe(false);
  });

  it("reads no email from a value that is not an address, and groups from a comma-separated string", () => {
    const read = identityFromClaims({ sub: "a", email: "not-an-address", groups: "a, b ,," }, oidc);
    expect(read.email).toBeNull();
    expect(read.emailVerified).toBe(false);
    expect(read.groups).toEqual(["a", "b"]);
    expect(read.indexNumber).toBeNull();
  });
});
