import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findPostgresTool, libpqConnection, redactDatabaseUrl } from "./postgres-tools.js";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ets-pg-tools-"));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("finding PostgreSQL's client programs", () => {
  it("takes the newest Debian version when the program is not on PATH", async () => {
    for (const major of ["9", "16", "13"]) {
      fs.mkdirSync(path.join(dir, major, "bin"), { recursive: true });
      fs.writeFileSync(path.join(dir, major, "bin", "ets-test-tool"), "");
    }
    await expect(findPostgresTool("ets-test-tool", dir)).resolves.toBe(
      path.join(dir, "16", "bin", "ets-test-tool"),
    );
  });

  it("names the Debian package when the program is nowhere", async () => {
    await expect(findPostgresTool("ets-test-tool", dir)).rejects.toThrow(
      `ets-test-tool was not found on PATH or under ${dir}/*/bin. Install PostgreSQL's client programs (Debian: apt-get install -y postgresql-client`,
    );
  });
});

describe("connections handed to the programs", () => {
  it("keeps the password off the command line, in a passfile only the user can read, removed after", () => {
    const connection = libpqConnection(
      "postgres://ets:s3cr%3At@db.school.test:5432/ets?sslmode=require",
    );
    const uri = new URL(connection.uri);
    expect(connection.uri).not.toContain("s3cr");
    expect(uri.username).toBe("ets");
    expect(uri.searchParams.get("sslmode")).toBe("require");
    const passfile = uri.searchParams.get("passfile") ?? "";
    expect(fs.readFileSync(passfile, "utf8")).toBe("*:*:*:*:s3cr\\:t\n");
    expect(fs.statSync(passfile).mode & 0o777).toBe(0o600);
    connection.release();
    expect(fs.existsSync(passfile)).toBe(false);
  });

  it("passes a URL without a password as it is", () => {
    const url = "postgres://postgres@127.0.0.1:5432/ets";
    expect(libpqConnection(url).uri).toBe(url);
  });

  it("prints database URLs without their password", () => {
    expect(redactDatabaseUrl("postgres://ets:secret@db:5432/ets")).toBe(
      "postgres://ets:***@db:5432/ets",
    );
    expect(redactDatabaseUrl("postgres://ets@db:5432/ets")).toBe("postgres://ets@db:5432/ets");
  });
});
