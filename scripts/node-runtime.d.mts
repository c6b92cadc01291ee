// Types for node-runtime.mjs, plain JavaScript so that it runs on an old Node.
export const PINNED_NODE: string;
export function atLeast(version: string, minimum: string): boolean;
export function minimumNode(): string;
export function nodeFolder(requested?: string): string;
