import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

/**
 * A real S3-protocol server for tests (s3rver: objects kept in a temporary folder, spoken to over
 * HTTP with signed requests), so the S3 storage backend is tested over the wire, not with a mock.
 * Each call starts its own server on a free loopback port with one fresh bucket.
 *
 * s3rver runs in a Node process of its own, started with --openssl-legacy-provider: it encrypts
 * ListObjectsV2 continuation tokens with DES, which OpenSSL 3 offers only through that provider,
 * so without it any listing longer than one page fails with a 500. Enabling it in a child keeps
 * the test process itself on the default OpenSSL settings.
 */
export interface S3TestServer {
  /** A full STORAGE_URL for the fresh bucket, credentials included. */
  url: string;
  stop(): Promise<void>;
}

// s3rver's built-in account; it checks request signatures made with it.
const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";

// Runs in the child: start s3rver, print the port it got, stop when the parent closes stdin
// (which also happens when the parent dies, so no server outlives its test run).
const CHILD = `
const [modulePath, directory, bucket] = process.argv.slice(1);
const S3rver = require(modulePath);
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
server.run().then(
  (address) => {
    process.stdout.write(JSON.stringify({ port: address.port }) + "\\n");
    process.stdin.on("end", () => server.close().finally(() => process.exit(0)));
    process.stdin.resume();
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
`;

const s3rverPath = createRequire(import.meta.url).resolve("s3rver");

export async function startS3Server(): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ets-s3rver-"));
  const bucket = `ets-test-${randomBytes(4).toString("hex")}`;
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "-e", CHILD, s3rverPath, directory, bucket],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let errors = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    errors += text;
  });

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let output = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (text: string) => {
        output += text;
        const line = output.split("\n")[0];
        if (output.includes("\n") && line) {
          const parsed: unknown = JSON.parse(line);
          if (typeof parsed === "object" && parsed !== null && "port" in parsed) {
            resolve(Number(parsed.port));
          } else {
            reject(new Error(`s3rver printed an unexpected line: ${line}`));
          }
        }
      });
      child.once("error", reject);
      child.once("exit", (code) =>
        reject(new Error(`s3rver exited (code ${code}) before listening: ${errors.trim()}`)),
      );
    });
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }

  const endpoint = `http://127.0.0.1:${port}`;
  return {
    url: `s3://${ACCESS_KEY}:${SECRET_KEY}@${bucket}?endpoint=${endpoint}&region=us-east-1`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const stuck = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(stuck);
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
