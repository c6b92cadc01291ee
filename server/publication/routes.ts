import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { errorBodySchema } from "../../common/api.js";
import type { adminMetadataInputSchema } from "../../common/publication.js";
import {
  currentLicenceResponseSchema,
  degreeChangesSchema,
  degreeInputSchema,
  degreeListResponseSchema,
  degreeResponseSchema,
  embargoDecisionInputSchema,
  embargoInputSchema,
  licenceAcceptInputSchema,
  licenceInputSchema,
  licenceVersionListResponseSchema,
  licenceVersionResponseSchema,
  pageQuerySchema,
  publicationResponseSchema,
  studentMetadataInputSchema,
  submissionIdParamsSchema,
  withdrawInputSchema,
} from "../../common/publication.js";
import { currentUser, requireAdmin, requireUser } from "../auth/plugin.js";
import { SMALL_BODY_LIMIT, TEXT_BODY_LIMIT } from "../body-limits.js";
import {
  acceptLicence,
  addDegree,
  addLicenceVersion,
  changeDegree,
  chooseEmbargo,
  correctMetadata,
  currentLicence,
  decideEmbargo,
  getLicenceVersion,
  getPublication,
  listDegreeRecords,
  listLicences,
  saveStudentMetadata,
  withdraw,
  type Actor,
} from "./service.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** What an API token must be allowed to call this admin route (issue 20's routes name it). */
    tokenScope?: "submissions:read" | "submissions:write";
  }
}

const indexNumberParams = z.object({ indexNumber: z.string().trim().min(1).max(40) });
const versionParams = z.object({ version: z.coerce.number().int().min(1).max(2_147_483_647) });
const refusals = {
  400: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const READ = { tokenScope: "submissions:read" as const };
const WRITE = { tokenScope: "submissions:write" as const };

function actor(request: FastifyRequest): Actor {
  return { user: currentUser(request), ip: request.ip ?? null };
}

/**
 * Publication's routes (issue 20, docs/decisions/020-publication.md): the student's metadata,
 * licence and embargo; the school's corrections and confirmation, embargo approval, withdrawal,
 * licence versions and degrees. Thin handlers over service.ts. Admin routes check the role on
 * request, before anything is validated; a student reaches only their own record (another's is
 * 404).
 */
export const publicationRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { onRequest: requireAdmin };
  const user = { preHandler: requireUser };

  // -------------------------------------------------------------------------------------------
  // The student's

  app.get(
    "/submissions/:indexNumber/publication",
    {
      ...user,
      schema: {
        tags: ["publication"],
        operationId: "getStudentPublication",
        summary: "The student's publication record: metadata, licence, embargo, where published",
        params: indexNumberParams,
        response: { 200: publicationResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => ({
      data: await getPublication(app, currentUser(request), request.params.indexNumber),
    }),
  );

  app.put(
    "/submissions/:indexNumber/publication",
    {
      ...user,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "saveStudentPublication",
        summary: "The student saves keywords, language and supervisors (until the school confirms)",
        params: indexNumberParams,
        body: studentMetadataInputSchema,
        response: { 200: publicationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await saveStudentMetadata(
        app,
        actor(request),
        request.params.indexNumber,
        request.body,
      ),
    }),
  );

  app.post(
    "/submissions/:indexNumber/publication/licence",
    {
      ...user,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "acceptPublicationLicence",
        summary:
          "The student accepts the current licence version (audited: who, which, when, from where)",
        params: indexNumberParams,
        body: licenceAcceptInputSchema,
        response: { 200: publicationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await acceptLicence(
        app,
        actor(request),
        request.params.indexNumber,
        request.body.version,
      ),
    }),
  );

  app.put(
    "/submissions/:indexNumber/publication/embargo",
    {
      ...user,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "choosePublicationEmbargo",
        summary:
          "The student chooses the embargo; patent or sensitive needs a reason and the school's approval",
        params: indexNumberParams,
        body: embargoInputSchema,
        response: { 200: publicationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await chooseEmbargo(app, actor(request), request.params.indexNumber, request.body),
    }),
  );

  app.get(
    "/licence",
    {
      ...user,
      schema: {
        tags: ["publication"],
        operationId: "getCurrentLicence",
        summary: "The school's current distribution licence (null before the first version)",
        response: { 200: currentLicenceResponseSchema },
      },
    },
    async () => ({ data: await currentLicence(app) }),
  );

  app.get(
    "/licence/:version",
    {
      ...user,
      schema: {
        tags: ["publication"],
        operationId: "getLicenceVersionText",
        summary:
          "One version of the licence, for the student who accepted it (older versions stay readable)",
        params: versionParams,
        response: { 200: licenceVersionResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await getLicenceVersion(app, request.params.version) }),
  );

  // -------------------------------------------------------------------------------------------
  // The school's

  app.get(
    "/admin/submissions/:indexNumber/publication",
    {
      ...admin,
      config: READ,
      schema: {
        tags: ["publication"],
        operationId: "getAdminPublication",
        summary: "A submission's publication record, what it still needs, and its state",
        params: indexNumberParams,
        response: { 200: publicationResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => ({
      data: await getPublication(app, currentUser(request), request.params.indexNumber),
    }),
  );

  app.put(
    "/admin/submissions/:indexNumber/publication",
    {
      ...admin,
      config: WRITE,
      bodyLimit: TEXT_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "correctPublication",
        summary:
          "Correct any metadata field, and confirm (publishes once every condition holds); locked after deposit",
        params: indexNumberParams,
        body: z.record(z.string(), z.unknown()),
        response: { 200: publicationResponseSchema, ...refusals },
      },
    },
    // Validated in the service, so a confirmation's missing fields and a bad field answer alike.
    async (request) => ({
      data: await correctMetadata(
        app,
        actor(request),
        request.params.indexNumber,
        request.body as z.input<typeof adminMetadataInputSchema>,
      ),
    }),
  );

  app.post(
    "/admin/submissions/:indexNumber/publication/embargo-decision",
    {
      ...admin,
      config: WRITE,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "decidePublicationEmbargo",
        summary:
          "Approve (with its end date) or refuse (with a note) a patent or sensitive embargo",
        params: indexNumberParams,
        body: embargoDecisionInputSchema,
        response: { 200: publicationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await decideEmbargo(app, actor(request), request.params.indexNumber, request.body),
    }),
  );

  app.post(
    "/admin/submissions/:indexNumber/publication/withdraw",
    {
      ...admin,
      config: WRITE,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "withdrawPublication",
        summary:
          "Withdraw a published thesis (reason required, audited): files no longer served, OAI deleted",
        params: indexNumberParams,
        body: withdrawInputSchema,
        response: { 200: publicationResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await withdraw(app, actor(request), request.params.indexNumber, request.body),
    }),
  );

  app.get(
    "/admin/licence-versions",
    {
      ...admin,
      config: READ,
      schema: {
        tags: ["publication"],
        operationId: "listLicenceVersions",
        summary: "The licence's versions, newest first, with their text; paged",
        querystring: pageQuerySchema,
        response: { 200: licenceVersionListResponseSchema },
      },
    },
    async (request) => listLicences(app, request.query.page),
  );

  app.get(
    "/admin/licence-versions/:version",
    {
      ...admin,
      config: READ,
      schema: {
        tags: ["publication"],
        operationId: "getLicenceVersion",
        summary: "One licence version's text (older versions stay readable)",
        params: versionParams,
        response: { 200: licenceVersionResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await getLicenceVersion(app, request.params.version) }),
  );

  app.post(
    "/admin/licence-versions",
    {
      ...admin,
      config: WRITE,
      bodyLimit: TEXT_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "createLicenceVersion",
        summary: "Save a new licence version; students accept the newest from then on",
        body: licenceInputSchema,
        response: { 201: licenceVersionResponseSchema, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ data: await addLicenceVersion(app, actor(request), request.body.text) }),
  );

  app.get(
    "/admin/degrees",
    {
      ...admin,
      config: READ,
      schema: {
        tags: ["publication"],
        operationId: "listDegrees",
        summary: "The degrees the school awards, by name; paged",
        querystring: pageQuerySchema,
        response: { 200: degreeListResponseSchema },
      },
    },
    async (request) => listDegreeRecords(app, request.query.page),
  );

  app.post(
    "/admin/degrees",
    {
      ...admin,
      config: WRITE,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "createDegree",
        summary: "Add a degree (409 when the name is already on the list)",
        body: degreeInputSchema,
        response: { 201: degreeResponseSchema, ...refusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await addDegree(app, actor(request), request.body) }),
  );

  app.patch(
    "/admin/degrees/:id",
    {
      ...admin,
      config: WRITE,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ["publication"],
        operationId: "updateDegree",
        summary: "Change a degree's name, abbreviation, level or whether it is still awarded",
        params: submissionIdParamsSchema,
        body: degreeChangesSchema,
        response: { 200: degreeResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      data: await changeDegree(app, actor(request), request.params.id, request.body),
    }),
  );
};
