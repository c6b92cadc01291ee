import { describe, expect, it } from "vitest";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ResolverOptions } from "react-hook-form";
import { signInSchema } from "../../common/accounts.js";
import { lazyZodResolver } from "./lazy-resolver.js";

type SignInForm = { email: string; password: string; rememberMe?: boolean };
const options: ResolverOptions<SignInForm> = { fields: {}, shouldUseNativeValidation: false };

// The login page validates with the schema loaded on demand: it must give exactly the answers
// `zodResolver(schema)` gives, messages included, and try again after a failed load.
describe("lazyZodResolver", () => {
  it("answers as zodResolver does, errors and values", async () => {
    const lazy = lazyZodResolver(() => Promise.resolve(signInSchema));
    const eager = zodResolver(signInSchema);
    for (const values of [
      { email: "", password: "" },
      { email: "not-an-email", password: "x".repeat(201) },
      { email: "  Ama@School.EDU ", password: "123456", rememberMe: true },
    ]) {
      const [got, want] = await Promise.all([
        lazy(values, undefined, options),
        eager(values, undefined, options),
      ]);
      expect(got).toEqual(want);
    }
    const invalid = await lazy({ email: "", password: "" }, undefined, options);
    expect(invalid.errors.email?.message).toBe("Enter your email address.");
    expect(invalid.errors.password?.message).toBe("Enter your password or code.");
  });

  it("loads the schema once, and again only after a failed load", async () => {
    let loads = 0;
    let fail = true;
    const lazy = lazyZodResolver(async () => {
      loads += 1;
      if (fail) throw new Error("chunk failed to load");
      return signInSchema;
    });
    await expect(lazy({ email: "", password: "" }, undefined, options)).rejects.toThrow(
      "chunk failed to load",
    );
    fail = false;
    await lazy({ email: "", password: "" }, undefined, options);
    await lazy({ email: "a@school.edu", password: "secret-pass" }, undefined, options);
    expect(loads).toBe(2);
  });
});
