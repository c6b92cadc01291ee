import crypto from "node:crypto";

/**
 * How a delivery is signed (docs/api.md, "Webhooks"): HMAC-SHA256, keyed with the endpoint's
 * secret, over `${timestamp}.${rawBody}`, where the timestamp is the attempt's Unix time in
 * seconds, sent as `ETS-Signature: t=<timestamp>,v1=<hex>` with the timestamp also in
 * `ETS-Timestamp`. A receiver recomputes it over the body as received and compares in constant
 * time, and refuses a timestamp too far from its clock (a replay).
 */

/** A new endpoint's secret: 32 random bytes, prefixed so it is recognisable if it leaks. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64url")}`;
}

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/**
 * The receiver's check, as docs/api.md shows it: the signature matches and the timestamp is
 * within `toleranceSeconds` of `now`. Used by the tests' receiver and the benchmark's.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  now: Date = new Date(),
  toleranceSeconds = 300,
): boolean {
  if (!header) return false;
  const parts = new Map(
    header.split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1") ?? "";
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body), "hex");
  return crypto.timingSafeEqual(expected, Buffer.from(given, "hex"));
}
