import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { requiredNode, runtimeProblem } from "./runtime-check.js";
import { resolveFromRoot } from "./paths.js";

describe("runtime check", () => {
  it("reads the oldest supported Node.js from package.json's engines", () => {
    const engines = (
      JSON.parse(fs.readFileSync(resolveFromRoot("package.json"), "utf8")) as {
        engines: { node: string };
      }
    ).engines.node;
    expect(`>=${requiredNode().join(".")}`).toBe(engines);
  });

  it("refuses an older Node.js in one line naming both versions, and accepts newer ones", () => {
    expect(runtimeProblem("v22.12.0", [22, 14, 0])).toBe(
      "ETS Tracking needs Node.js 22.14.0 or newer; this is v22.12.0. Install the current LTS " +
        "(Node.js 24), or start it with `npm start`, which brings one.",
    );
    expect(runtimeProblem("v20.20.2", [22, 14, 0])).toContain("this is v20.20.2");
    expect(runtimeProblem("v22.14.0", [22, 14, 0])).toBeNull();
    expect(runtimeProblem("v22.15.1", [22, 14, 0])).toBeNull();
    expect(runtimeProblem("v24.0.0", [22, 14, 0])).toBeNull();
  });

  it("is the server's first import, so it runs before the database driver loads", () => {
    const source = fs.readFileSync(resolveFromRoot("server", "server.ts"), "utf8");
    const firstImport = /^import\s.*$/m.exec(source)?.[0];
    expect(firstImport).toBe('import "./runtime-check.js";');
  });
});
