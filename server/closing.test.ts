import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { CLOSING_MESSAGE, CLOSING_RETRY_AFTER_SECONDS } from "./framework-errors.js";
import { createTestDatabase, testConfig, type TestDatabase } from "../testing/test-app.js";

/**
 * A request that arrives while the server closes, on a connection already open (here the second
 * of two pipelined requests, read once the first, still running when close() began, has been
 * answered), gets 503 in the API's error body with Retry-After and Connection: close: not
 * Fastify's own `{"error":"Service Unavailable",...}`. The whole app, listening on loopback, so
 * its own preClose hooks (mail worker, periodic jobs) run as in production.
 */

let database: TestDatabase;
let app: FastifyInstance;
let releaseSlow: () => void = () => undefined;
let slowStarted: Promise<void>;
let closingBegun: Promise<void>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp(testConfig({ DATABASE_URL: database.url }), {
    db: database.db,
    webRoot: path.join(os.tmpdir(), "ets-no-web"),
  });
  let started: () => void = () => undefined;
  slowStarted = new Promise((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (releaseSlow = resolve));
  // A request still running when the shutdown begins.
  app.get("/api/test-slow", async () => {
    started();
    await released;
    return { success: true };
  });
  // Registered after the app's own: it runs once theirs have, so close() is under way.
  let begun: () => void = () => undefined;
  closingBegun = new Promise((resolve) => (begun = resolve));
  app.addHook("preClose", async () => begun());
  await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  releaseSlow();
  await app.close();
  await database.drop();
});

/** A connection to the app, and everything the server sends on it until it closes it. */
function connect(port: number): { socket: net.Socket; received: Promise<string> } {
  const socket = net.connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => (text += chunk));
  return {
    socket,
    received: new Promise((resolve, reject) => {
      socket.once("close", () => resolve(text));
      socket.once("error", reject);
    }),
  };
}

describe("a request arriving while the server closes", () => {
  it("answers 503 in the API's error body with Retry-After and closes the connection", async () => {
    const { port } = app.server.address() as AddressInfo;
    // Its headers half sent when the shutdown begins, the rest after: a request on the wire.
    const late = connect(port);
    late.socket.write("GET /api/health HTTP/1.1\r\nHost: loc");
    const running = connect(port);
    running.socket.write(
      "GET /api/test-slow HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    await slowStarted;
    const closed = app.close();
    await closingBegun;
    late.socket.write("alhost\r\n\r\n");
    const text = await late.received;
    releaseSlow();
    expect(await running.received).toMatch(/^HTTP\/1\.1 200 /);
    await closed;

    const [head, body] = text.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(
      new RegExp(`\\r\\nretry-after: ${CLOSING_RETRY_AFTER_SECONDS}\\r\\n`, "i"),
    );
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(body!)).toEqual({
      success: false,
      code: "unavailable",
      message: CLOSING_MESSAGE,
    });
  });
});
