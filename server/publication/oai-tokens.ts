import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * OAI-PMH resumption tokens (docs/decisions/027-oai-pmh-and-public-pages.md): stateless and
 * signed. A token carries the whole query (verb, format, set, from, until), the harvest's fixed
 * upper bound (the first request's time: records published after it wait for the next harvest),
 * the last submission id sent, how many went before (the cursor) and when it expires, as
 * base64url JSON followed by an HMAC-SHA256 of it under a key the servers share
 * (`publication_secrets`). Nothing is stored, so a token survives a restart and works on every
 * server; a token changed by one bit fails its MAC and is refused as badResumptionToken.
 */
export const tokenPayloadSchema = z
  .object({
    v: z.literal(1),
    verb: z.enum(["ListRecords", "ListIdentifiers"]),
    metadataPrefix: z.string().min(1).max(50),
    set: z.string().max(300).nullable(),
    from: z.string().max(30).nullable(),
    until: z.string().max(30).nullable(),
    /** ISO: records published after this are not part of this harvest. */
    bound: z.string().max(30),
    /** The last submission id sent. */
    after: z.number().int().nonnegative(),
    /** How many records went before this page. */
    cursor: z.number().int().nonnegative(),
    /** Epoch milliseconds after which the token is refused. */
    expires: z.number().int().nonnegative(),
  })
  .strict();
export type TokenPayload = z.infer<typeof tokenPayloadSchema>;

const MAC_BYTES = 32;
/** Well above any token this server writes; a longer one is refused before any work. */
const MAX_TOKEN_LENGTH = 1500;

function mac(key: Buffer, body: string): Buffer {
  return createHmac("sha256", key).update(body).digest();
}

export function encodeToken(key: Buffer, payload: TokenPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(key, body).toString("base64url")}`;
}

export type TokenReading =
  | { ok: true; payload: TokenPayload }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

/** The token's payload if this repository signed it and it has not expired. */
export function decodeToken(key: Buffer, token: string, nowMs: number): TokenReading {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "malformed" };
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, body, signature] = match as unknown as [string, string, string];
  const given = Buffer.from(signature, "base64url");
  const expected = mac(key, body);
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "forged" };
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const parsed = tokenPayloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: "malformed" };
  if (parsed.data.expires < nowMs) return { ok: false, reason: "expired" };
  return { ok: true, payload: parsed.data };
}
