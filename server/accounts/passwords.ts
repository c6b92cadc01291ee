import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 iterations, 1 lane). Every secret the
 * product keeps (passwords, passcodes, one-time codes) goes through here.
 */
// Algorithm is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, OPTIONS);
}

export async function verifySecret(storedHash: string, secret: string): Promise<boolean> {
  try {
    return await verify(storedHash, secret);
  } catch {
    return false;
  }
}

/** A hash of a random value, verified against when an account does not exist, so a wrong email costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;
export function dummySecretHash(): Promise<string> {
  dummyHash ??= hashSecret(`dummy-${Math.random()}`);
  return dummyHash;
}
