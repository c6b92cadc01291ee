import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EICAR_SIGNATURE, startClamd } from "../../testing/clamd.js";
import { EICAR, eicarPdf, validPdf, writeLargePdf } from "../../testing/pdf-fixtures.js";
import { createClamdScanner, parseClamdUrl, ScannerUnavailableError } from "./clamd.js";

let clamd: Awaited<ReturnType<typeof startClamd>>;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-clamd-test-"));
  clamd = await startClamd();
});
afterAll(async () => {
  await clamd?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function save(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("parseClamdUrl", () => {
  it("reads the host and port of tcp:// addresses", () => {
    expect(parseClamdUrl("tcp://127.0.0.1:3310")).toEqual({ host: "127.0.0.1", port: 3310 });
    expect(parseClamdUrl("tcp://clamav.internal:13310/")).toEqual({
      host: "clamav.internal",
      port: 13310,
    });
    expect(parseClamdUrl("tcp://[::1]:3310")).toEqual({ host: "::1", port: 3310 });
    // clamd's own default port when none is given.
    expect(parseClamdUrl("tcp://clamav")).toEqual({ host: "clamav", port: 3310 });
  });

  it.each([
    ["", "must look like tcp://host:3310"],
    ["clamav:3310", "must look like tcp://host:3310"],
    ["http://clamav:3310", "the scheme must be tcp://"],
    ["tcp://clamav:0", "the port must be from 1 to 65535"],
    ["tcp://clamav:70000", "must look like tcp://host:3310"],
    ["tcp://user:secret@clamav:3310", "with no user, path or query"],
    ["tcp://clamav:3310/scan?x=1", "with no user, path or query"],
    ["tcp://:3310", "must look like tcp://host:3310"],
  ])("refuses %j with a one-line message naming CLAMD_URL", (url, why) => {
    expect(() => parseClamdUrl(url)).toThrow(why);
    expect(() => parseClamdUrl(url)).toThrow(/^CLAMD_URL [^\n]+$/);
  });
});

describe("the clamd scanner", () => {
  it("answers PING", async () => {
    await expect(createClamdScanner(clamd.url).ping()).resolves.toBeUndefined();
  });

  it("finds a clean PDF clean", async () => {
    const scanner = createClamdScanner(clamd.url);
    expect(await scanner.scan(save("clean.pdf", validPdf({ pages: 3 })))).toEqual({ clean: true });
  });

  it("finds the EICAR test string inside a PDF and names the signature", async () => {
    const result = await createClamdScanner(clamd.url).scan(save("eicar.pdf", eicarPdf()));
    expect(result.clean).toBe(false);
    expect(result).toEqual({ clean: false, signature: expect.stringContaining(EICAR_SIGNATURE) });
  });

  it("finds the bare EICAR test file", async () => {
    const result = await createClamdScanner(clamd.url).scan(save("eicar.com.txt", EICAR));
    expect(result).toEqual({ clean: false, signature: `${EICAR_SIGNATURE}.UNOFFICIAL` });
  });

  it("streams a 30 MB PDF through in chunks and finds it clean", async () => {
    const file = path.join(dir, "large.pdf");
    await writeLargePdf(file, 30 * 1024 * 1024);
    expect(await createClamdScanner(clamd.url).scan(file)).toEqual({ clean: true });
  });

  it("finds the EICAR string at the end of a file larger than one chunk", async () => {
    const file = save(
      "padded.bin",
      Buffer.concat([Buffer.alloc(300 * 1024, 0x20), Buffer.from(EICAR, "latin1")]),
    );
    expect(await createClamdScanner(clamd.url).scan(file)).toMatchObject({ clean: false });
  });

  it("throws the file's own error, not a scanner error, when the file is missing", async () => {
    const scan = createClamdScanner(clamd.url).scan(path.join(dir, "no-such-file.pdf"));
    await expect(scan).rejects.toMatchObject({ code: "ENOENT" });
    await expect(scan).rejects.not.toBeInstanceOf(ScannerUnavailableError);
  });

  it("is unavailable when nothing listens on the port, without waiting for the scan timeout", async () => {
    const scanner = createClamdScanner(`tcp://127.0.0.1:${await unusedPort()}`);
    await expect(scanner.scan(save("clean-2.pdf", validPdf()))).rejects.toThrow(
      ScannerUnavailableError,
    );
    await expect(scanner.ping()).rejects.toThrow(/could not be reached/);
  });

  it("is unavailable when clamd accepts the connection but never answers", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const { port } = silent.address() as AddressInfo;
    try {
      const scanner = createClamdScanner(`tcp://127.0.0.1:${port}`, { timeoutMs: 300 });
      await expect(scanner.scan(save("clean-3.pdf", validPdf()))).rejects.toThrow(
        /did not answer within 0.3 s/,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("a clamd with a small stream limit, then stopped", () => {
  let small: Awaited<ReturnType<typeof startClamd>>;
  beforeAll(async () => {
    small = await startClamd({ streamMaxLength: "1M" });
  });
  afterAll(async () => {
    await small?.stop();
  });

  it("scans a file under its limit", async () => {
    expect(await createClamdScanner(small.url).scan(save("small.pdf", validPdf()))).toEqual({
      clean: true,
    });
  });

  it("refuses a file over its limit as unavailable, telling the operator to raise StreamMaxLength", async () => {
    const file = path.join(dir, "over-limit.pdf");
    await writeLargePdf(file, 3 * 1024 * 1024);
    const scan = createClamdScanner(small.url).scan(file);
    await expect(scan).rejects.toBeInstanceOf(ScannerUnavailableError);
    await expect(scan).rejects.toThrow(/StreamMaxLength/);
  });

  it("is unavailable once clamd has stopped", async () => {
    const scanner = createClamdScanner(small.url);
    await small.stop();
    await expect(scanner.scan(save("after-stop.pdf", validPdf()))).rejects.toBeInstanceOf(
      ScannerUnavailableError,
    );
    await expect(scanner.ping()).rejects.toBeInstanceOf(ScannerUnavailableError);
  });
});
