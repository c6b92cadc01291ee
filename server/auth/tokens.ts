import { hash, randomBytes } from "node:crypto";

/** 256-bit opaque session token, sent to the client once; only its SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The stored form of a token. Every authenticated request hashes its token: the one-shot
 * crypto.hash (Node 20.12+) makes no Hash object per call, unlike createHash().update().digest().
 */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}
