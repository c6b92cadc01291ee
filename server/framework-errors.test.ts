import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFrameworkError } from "./framework-errors.js";

/**
 * A Fastify instance with the handler and nothing else of the app: the router's refusals happen
 * before any of the app's own code, so this is what the app answers once the option is set.
 */
const app = Fastify({ frameworkErrors: answerFrameworkError, maxParamLength: 100 });

beforeAll(async () => {
  app.get("/api/submissions/:indexNumber", async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

describe("a path the router refuses", () => {
  it("that cannot be percent-decoded answers 400 with the API's error body", async () => {
    const res = await app.inject({ url: "/api/submissions/%E0%A4%A" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      code: "validation",
      message: "The address cannot be read: part of it is not valid percent-encoding.",
    });
  });

  it("with a parameter past maxParamLength answers 414 without echoing it", async () => {
    const res = await app.inject({ url: `/api/submissions/${"a".repeat(100_000)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({
      success: false,
      code: "validation",
      message: "The address is too long.",
    });
  });

  it("leaves a readable path to its route", async () => {
    const res = await app.inject({ url: "/api/submissions/10700001" });
    expect(res.json()).toEqual({ ok: true });
  });
});
