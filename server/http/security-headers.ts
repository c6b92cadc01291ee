import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";

/**
 * The security headers every answer carries, worked out once at start.
 *
 * @fastify/helmet builds helmet's middleware anew for every request (it parses the Content
 * Security Policy's directives and walks a dozen middlewares each time): about 6 % of a status
 * read under load (docs/benchmarks.md, "API hot path"). The headers depend only on the options,
 * so they are taken once from @fastify/helmet itself, by one request to a throwaway instance, and
 * then set on every reply in one hook: the same headers, from the same code, without the work.
 */
export async function computeSecurityHeaders(
  options: FastifyHelmetOptions,
): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get("/", (_request, reply) => {
      // An answer with no body or type of its own: every header left is helmet's.
      void reply.code(204).send();
    });
    const response = await probe.inject({ method: "GET", url: "/" });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (NOT_HELMETS.has(name) || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
    }
    return headers;
  } finally {
    await probe.close();
  }
}

/** What Node and light-my-request put on every answer, helmet or not. */
const NOT_HELMETS = new Set([
  "date",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
]);

/**
 * The headers that only mean something on a document a browser renders: the opener and
 * origin-cluster isolation, DNS prefetching from its links, Internet Explorer's download and XSS
 * filter switches. A JSON answer, a script or a file goes without them.
 */
const DOCUMENT_ONLY = new Set([
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-xss-protection",
]);

/**
 * The policy of an answer that is not a page: it may load nothing and be framed by no one. If a
 * browser is tricked into rendering a JSON answer or a file as a document, it runs nothing.
 */
export const NOT_A_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

export interface SecurityHeaderSets {
  /** Pages (text/html): every header @fastify/helmet sets for the options. */
  document: Record<string, string>;
  /**
   * Everything else (the API's JSON, scripts, styles, files): nosniff, the Referrer-Policy,
   * Cross-Origin-Resource-Policy, X-Frame-Options, X-Permitted-Cross-Domain-Policies and HSTS as
   * for a page, with the strict policy above instead of the page's.
   */
  other: Record<string, string>;
}

export async function computeSecurityHeaderSets(
  options: FastifyHelmetOptions,
): Promise<SecurityHeaderSets> {
  const document = await computeSecurityHeaders(options);
  const other: Record<string, string> = {};
  for (const [name, value] of Object.entries(document)) {
    if (DOCUMENT_ONLY.has(name)) continue;
    other[name] = name === "content-security-policy" ? NOT_A_DOCUMENT_POLICY : value;
  }
  return { document, other };
}

/**
 * A page, or an answer that may stand for one: HTML wherever it comes from (the SAML form under
 * /api), and everything outside the API and the hashed assets. Decided by the path, not the
 * type, for the rest: a 304 has no type, and a browser updates the answer it has cached with the
 * 304's headers, so both must carry the same set.
 */
function isDocument(url: string, type: unknown): boolean {
  if (typeof type === "string" && type.startsWith("text/html")) return true;
  return !url.startsWith("/api/") && !url.startsWith("/assets/");
}

/**
 * Sets the headers on every reply of `app`, 404s and errors included, as @fastify/helmet does:
 * the document set on pages, the shorter set on the API's answers and the hashed assets
 * (docs/decisions/014-security-headers-by-answer.md), and `Cache-Control: no-store` on every
 * answer under /api. A header the route set itself (the SAML form's own policy, a download's
 * sandbox, a route's own caching) is kept.
 *
 * Set as the answer goes out, when its type is known, into the reply's own headers: Node then
 * writes them with the status line in one go instead of through setHeader one by one.
 */
export async function useSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const sets = await computeSecurityHeaderSets(options);
  const document = Object.entries(sets.document);
  const other = Object.entries(sets.other);
  app.addHook("onSend", (request, reply, payload, done) => {
    const entries = isDocument(request.url, reply.getHeader("content-type")) ? document : other;
    for (const [name, value] of entries) if (!reply.hasHeader(name)) reply.header(name, value);
    // The API's answers hold a student's record, a session's user, the administrators' lists: no
    // browser or proxy keeps a copy (ASVS 8.2.1), unless the route said otherwise.
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "no-store");
    }
    done(null, payload);
  });
}
