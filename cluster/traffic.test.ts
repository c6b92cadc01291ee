import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { send } from "./traffic.js";

// The fault tests' client resends a GET once when its fresh connection is closed before any
// answer (an nginx reload closing a connection an old worker had accepted), and nothing else.

let server: http.Server | undefined;

/** A server that closes the first `closeFirst` connections: before any answer, or mid-answer. */
async function serve(closeFirst: number, how: "before" | "mid" = "before"): Promise<string> {
  let seen = 0;
  server = http.createServer((req, res) => {
    seen += 1;
    if (seen > closeFirst) {
      res.end("ok");
      return;
    }
    if (how === "before") {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { "content-length": "100" });
    res.write("partial");
    setTimeout(() => req.socket.destroy(), 20);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe("the fault tests' client", () => {
  it("resends a GET on a fresh connection closed before any answer, once, and says so", async () => {
    const base = await serve(1);
    const outcome = await send(base, "/read", { fresh: true });
    expect(outcome).toMatchObject({ status: 200, body: "ok", resent: true });
  });

  it("gives up after the second close", async () => {
    const base = await serve(2);
    const outcome = await send(base, "/read", { fresh: true });
    expect(outcome).toMatchObject({ status: null, resent: true });
    expect(outcome.body).toMatch(/other side closed|ECONNRESET|socket/);
  });

  it("does not resend a write, a kept-alive request, or an answer cut off midway", async () => {
    const write = await send(await serve(1), "/write", { fresh: true, method: "PATCH", json: {} });
    expect(write).toMatchObject({ status: null });
    expect(write.resent).toBeUndefined();
    server?.close();

    const keptAlive = await send(await serve(1), "/read");
    expect(keptAlive).toMatchObject({ status: null });
    expect(keptAlive.resent).toBeUndefined();
    server?.close();

    const cut = await send(await serve(1, "mid"), "/read", { fresh: true });
    expect(cut.status).toBeNull();
    expect(cut.resent).toBeUndefined();
  });
});
