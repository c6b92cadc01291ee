import { describe, expect, it } from "vitest";
import { BACKOFF_CAP_MS, signInBackoffMs } from "./backoff.js";

describe("sign-in back-off", () => {
  it("does not slow an account down before the threshold", () => {
    expect(signInBackoffMs(0, 5)).toBe(0);
    expect(signInBackoffMs(4, 5)).toBe(0);
  });

  it("starts at 30 seconds and doubles with each further failure", () => {
    expect([5, 6, 7, 8, 9].map((n) => signInBackoffMs(n, 5) / 1000)).toEqual([
      30, 60, 120, 240, 480,
    ]);
  });

  it("never waits more than 15 minutes, however many failures", () => {
    expect(BACKOFF_CAP_MS).toBe(15 * 60 * 1000);
    expect(signInBackoffMs(10, 5)).toBe(BACKOFF_CAP_MS);
    expect(signInBackoffMs(100_000, 5)).toBe(BACKOFF_CAP_MS);
  });
});
