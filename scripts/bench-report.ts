import fs from "node:fs";
import { resolveFromRoot } from "../server/paths.js";

/**
 * Rewrites one benchmark's section of docs/benchmarks.md, between its markers
 * `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`; appends the section when it is new.
 */
export function writeBenchSection(name: string, body: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const file = resolveFromRoot("docs", "benchmarks.md");
  const section = `${start}\n${body}\n${end}`;
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const next =
    existing.includes(start) && existing.includes(end)
      ? existing.slice(0, existing.indexOf(start)) +
        section +
        existing.slice(existing.indexOf(end) + end.length)
      : `${existing.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}
