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

/** Sets the headers on every reply of `app`, 404s and errors included, as @fastify/helmet does. */
export async function useSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = await computeSecurityHeaders(options);
  const entries = Object.entries(headers);
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of entries) reply.raw.setHeader(name, value);
    done();
  });
}
