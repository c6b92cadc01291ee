import { describe, expect, it } from "vitest";
import "./zod-jitless.js";
import { z } from "zod";
import { config } from "zod/v4/core";

// If a zod upgrade stops reading the shared setting, the strict CSP's violation comes back
// silently (only Lighthouse would notice): this fails first.
describe("zod under the strict Content-Security-Policy", () => {
  it("runs jitless, with the setting web/lib/zod-jitless.ts writes", () => {
    expect(config().jitless).toBe(true);
  });

  it("still parses and refuses objects without generated code", () => {
    const schema = z.object({ email: z.string().email(), count: z.number().int() });
    expect(schema.parse({ email: "a@school.edu", count: 2 })).toEqual({
      email: "a@school.edu",
      count: 2,
    });
    expect(schema.safeParse({ email: "nope", count: 2 }).success).toBe(false);
  });
});
