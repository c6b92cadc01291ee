import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { createDatabase } from "./db/database.js";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "./errors.js";
import { testConfig } from "../testing/test-app.js";

/**
 * A database that cannot be reached (PostgreSQL restarting, stopped, or out of the network) is a
 * 503 `unavailable` for every request, with a message that says so, never a 500 or a stack trace.
 * The app here is given a PostgreSQL address where nothing listens: every query is refused, as
 * while the server is down. cluster/postgres-restart.test.ts restarts a real one under traffic.
 */

let app: FastifyInstance;

/** A loopback port with nothing listening on it (bound, then released). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const url = `postgres://postgres@127.0.0.1:${await closedPort()}/ets`;
  const config = testConfig({ DATABASE_URL: url });
  app = await buildApp(config, {
    db: createDatabase({ kind: "postgres", url }),
    webRoot: path.join(os.tmpdir(), "ets-no-web"),
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await app.db.destroy();
});

describe("requests while the database cannot be reached", () => {
  it.each([
    [
      "a signed-in read",
      "GET",
      "/api/submissions?q=ama",
      { authorization: `Bearer ${"a".repeat(43)}` },
    ],
    [
      "a status read",
      "GET",
      "/api/submissions/10234567",
      { cookie: `ets_session=${"c".repeat(43)}` },
    ],
    ["a sign-in", "POST", "/api/user_sign_in", {}],
    ["an edit", "PATCH", "/api/admin/submissions/1", { authorization: `Bearer ${"b".repeat(43)}` }],
  ])(
    "answer %s with 503 unavailable and a message to try again",
    async (_what, method, url, headers) => {
      const res = await app.inject({
        method: method as "GET" | "POST" | "PATCH",
        url,
        headers,
        ...(method === "GET"
          ? {}
          : {
              payload: {
                email: "ama@school.edu",
                password: "not the password",
                version: 1,
                changes: {},
              },
            }),
      });
      expect(res.statusCode).toBe(503);
      // The sign-in's request limit is counted in the database too, and says so in its own words.
      expect(res.json()).toEqual({
        success: false,
        code: "unavailable",
        message:
          url === "/api/user_sign_in"
            ? expect.stringMatching(/try again/)
            : DATABASE_UNAVAILABLE_MESSAGE,
      });
      expect(res.body).not.toMatch(/ECONNREFUSED|\n\s+at |node_modules/);
    },
  );
});

describe("isDatabaseUnavailable", () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("recognises PostgreSQL stopping, starting and cutting connections", () => {
    expect(isDatabaseUnavailable(withCode("the database system is starting up", "57P03"))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(
        withCode("terminating connection due to administrator command", "57P01"),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode("connection failure", "08006"))).toBe(true);
    expect(
      isDatabaseUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("leaves faults of the request or of the code to the other answers", () => {
    expect(
      isDatabaseUnavailable(withCode("duplicate key value violates unique constraint", "23505")),
    ).toBe(false);
    expect(isDatabaseUnavailable(withCode("syntax error at or near", "42601"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    // A client that hung up mid-upload is not the database.
    expect(isDatabaseUnavailable(withCode("aborted", "ECONNRESET"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
