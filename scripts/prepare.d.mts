// Types for prepare.mjs, plain JavaScript so that it runs before `npm ci`.
export const root: string;
export function runNpm(args: string[]): void;
export function ensureInstalled(): void;
export function ensureBuilt(): void;
export interface DebianPart {
  program: string;
  package: string;
  why: string;
}
export const DEBIAN_PARTS: Record<"nginx" | "clamd" | "chromium", DebianPart>;
export interface MachineOptions {
  exists?: (file: string) => boolean;
  isRoot?: boolean;
  aptGet?: string;
  run?: (command: string, args: string[]) => number | null;
  fail?: (line: string) => void;
}
export function ensureDebianParts(
  parts: (keyof typeof DEBIAN_PARTS)[],
  options?: MachineOptions,
): void;
