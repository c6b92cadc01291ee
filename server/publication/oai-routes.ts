import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { answerOai } from "./oai.js";

/** The largest OAI-PMH form body accepted: a request is a handful of short arguments. */
const OAI_FORM_LIMIT = 8 * 1024;

/**
 * OAI-PMH 2.0 at `/oai`, outside `/api` (docs/decisions/027-oai-pmh-and-public-pages.md): GET with
 * a query string, or POST with an application/x-www-form-urlencoded form, answered the same way.
 * No session, no cookie: harvesters are anonymous and read only what is public.
 */
export const oaiRoutes: FastifyPluginAsync = async (app) => {
  // Forms are read here only (encapsulated): the API takes JSON.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: OAI_FORM_LIMIT },
    (_request, body, done) => done(null, body),
  );

  const send = async (reply: FastifyReply, pairs: [string, string][]) => {
    const xml = await answerOai(
      {
        db: app.db,
        publicUrl: app.config.publicUrl,
        site: app.config.publicSite,
        now: new Date(),
      },
      pairs,
    );
    return reply.type("text/xml; charset=utf-8").header("cache-control", "no-store").send(xml);
  };

  app.get("/oai", { schema: { hide: true } }, async (request, reply) => {
    const query = request.raw.url?.split("?")[1] ?? "";
    return send(reply, [...new URLSearchParams(query)]);
  });
  app.post("/oai", { schema: { hide: true } }, async (request, reply) => {
    const body = typeof request.body === "string" ? request.body : "";
    return send(reply, [...new URLSearchParams(body)]);
  });
};
