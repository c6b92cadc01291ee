import { describe, expect, it } from "vitest";
import { DEBIAN_PARTS, ensureDebianParts } from "./prepare.mjs";

/** A machine with these programs, and what ensureDebianParts did on it. */
function machine(options: { programs: string[]; isRoot: boolean; installs?: boolean }) {
  const programs = new Set(options.programs);
  const ran: string[][] = [];
  const failures: string[] = [];
  return {
    ran,
    failures,
    options: {
      exists: (file: string) => programs.has(file),
      isRoot: options.isRoot,
      run: (command: string, args: string[]) => {
        ran.push([command, ...args]);
        if (args[0] === "install" && options.installs !== false) {
          for (const part of Object.values(DEBIAN_PARTS)) {
            if (args.includes(part.package)) programs.add(part.program);
          }
        }
        return 0;
      },
      fail: (line: string) => void failures.push(line),
    },
  };
}

describe("ensureDebianParts", () => {
  it("does nothing when every program is there", () => {
    const m = machine({
      programs: ["/usr/bin/apt-get", "/usr/sbin/nginx", "/usr/sbin/clamd"],
      isRoot: true,
    });
    ensureDebianParts(["nginx", "clamd"], m.options);
    expect(m.ran).toEqual([]);
    expect(m.failures).toEqual([]);
  });

  it("installs the missing packages with apt-get when it runs as root", () => {
    const m = machine({ programs: ["/usr/bin/apt-get", "/usr/sbin/clamd"], isRoot: true });
    ensureDebianParts(["nginx", "clamd", "chromium"], m.options);
    expect(m.ran).toEqual([
      ["/usr/bin/apt-get", "update", "-qq"],
      ["/usr/bin/apt-get", "install", "-y", "-qq", "nginx", "chromium"],
    ]);
    expect(m.failures).toEqual([]);
  });

  it("stops at once naming the command when it is not root", () => {
    const m = machine({ programs: ["/usr/bin/apt-get"], isRoot: false });
    ensureDebianParts(["nginx", "clamd"], m.options);
    expect(m.ran).toEqual([]);
    expect(m.failures).toHaveLength(1);
    expect(m.failures[0]).toContain("sudo apt-get install -y nginx clamav-daemon");
  });

  it("stops naming the command when there is no apt-get", () => {
    const m = machine({ programs: [], isRoot: true });
    ensureDebianParts(["chromium"], m.options);
    expect(m.ran).toEqual([]);
    expect(m.failures[0]).toContain("apt-get install -y chromium");
  });

  it("fails when the install left the program missing", () => {
    const m = machine({ programs: ["/usr/bin/apt-get"], isRoot: true, installs: false });
    ensureDebianParts(["nginx"], m.options);
    expect(m.failures).toEqual(["/usr/sbin/nginx still missing after `apt-get install -y nginx`."]);
  });
});
