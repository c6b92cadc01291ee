import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atLeast, minimumNode, PINNED_NODE } from "./node-runtime.mjs";

const script = path.join(import.meta.dirname, "node-runtime.mjs");

describe("node-runtime", () => {
  it("compares versions part by part, as numbers", () => {
    expect(atLeast("22.12.0", "22.12.0")).toBe(true);
    expect(atLeast("v24.1.0", "22.12.0")).toBe(true);
    expect(atLeast("22.9.5", "22.12.0")).toBe(false);
    expect(atLeast("20.20.2", "22.12.0")).toBe(false);
    expect(atLeast("22.12.1", "22.12.0")).toBe(true);
  });

  it("reads the oldest supported Node from package.json's engines, and pins one that meets it", () => {
    expect(minimumNode()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(atLeast(PINNED_NODE, minimumNode())).toBe(true);
  });

  it("keeps the running Node when it is new enough, saying nothing", () => {
    // The tests themselves run on a supported Node: the script must not bring another.
    const out = execFileSync(process.execPath, [script], { encoding: "utf8", stdio: "pipe" });
    expect(out.trim()).toBe(path.dirname(process.execPath));
  });
});
