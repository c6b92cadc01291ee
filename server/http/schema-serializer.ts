import fastJson from "fast-json-stringify";
import { z } from "zod";

/**
 * Response serialisation compiled from the route's zod schema, for the hot routes
 * (docs/decisions/011-response-serialisation.md).
 *
 * fastify-type-provider-zod's serializer parses every answer with zod and then runs
 * JSON.stringify: a second walk over the data, and on a status read a sizeable share of the
 * request. Here the schema is turned into JSON Schema once (zod's own z.toJSONSchema) and compiled
 * by fast-json-stringify, Fastify's own serializer, into a function that writes exactly the
 * schema's properties: a property the schema does not name is never sent, which is why answers
 * go through a schema at all (a row's or a user's extra field must not leak).
 *
 * What it does not do that zod did: check values against the schema (an enum member, a string's
 * format). The handler's return type is checked against the schema's type by the compiler, and a
 * missing required property still fails the answer (500, never a partial body). Only schemas
 * whose every object is closed and whose unions are of plain types are accepted; anything else
 * is refused when the route is registered, so a schema this cannot keep tight stays on zod's.
 */
export function compileSchemaSerializer(schema: z.ZodType): (data: unknown) => string {
  const jsonSchema = z.toJSONSchema(schema, { io: "output", unrepresentable: "throw" });
  delete jsonSchema.$schema;
  return fastJson(tighten(jsonSchema, "") as unknown as Parameters<typeof fastJson>[0]);
}

/**
 * Per-route `serializerCompiler` for routes whose response schemas are zod schemas. Typed for
 * every route's schema (Fastify types it by the route's whole schema object); it gets each status
 * code's response schema in turn.
 */
export function schemaSerializerCompiler(route: {
  schema: unknown;
  url: string;
}): (data: unknown) => string {
  if (!(route.schema instanceof z.ZodType)) {
    throw new Error(
      `${route.url}: a response schema serialised from the schema must be a zod schema`,
    );
  }
  return compileSchemaSerializer(route.schema);
}

type JsonSchema = Record<string, unknown>;

const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const KNOWN_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "format",
  "description",
  "title",
  "default",
]);

/**
 * The schema as fast-json-stringify gets it: every object closed (additionalProperties false),
 * and a union of plain types (zod's nullable enum: anyOf [{ enum }, { type: "null" }]) as one
 * list of types, which fast-json-stringify writes without trying each branch in turn. Throws,
 * naming the place, on every construct it does not know to be safe.
 */
function tighten(schema: JsonSchema, at: string): JsonSchema {
  const where = at === "" ? "the response" : at;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    const types = branches.map((b) => b.type);
    const plain = branches.every(
      (b) =>
        typeof b.type === "string" &&
        SCALAR_TYPES.has(b.type) &&
        Object.keys(b).every((k) => k === "type" || k === "enum"),
    );
    if (!plain || Object.keys(schema).length !== 1) {
      throw new Error(`${where}: only unions of plain types can be serialised from the schema`);
    }
    return { type: [...new Set(types)] };
  }
  for (const key of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(key)) {
      throw new Error(`${where}: the keyword "${key}" is not serialised from the schema`);
    }
  }
  const out: JsonSchema = { ...schema };
  const type = schema.type;
  if (type === "object" || schema.properties !== undefined) {
    if (schema.additionalProperties !== false) {
      throw new Error(`${where}: an object must be closed (no properties beyond its schema's)`);
    }
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        tighten(property, `${at}.${name}`),
      ]),
    );
  }
  if (type === "array" || schema.items !== undefined) {
    if (typeof schema.items !== "object" || schema.items === null || Array.isArray(schema.items)) {
      throw new Error(`${where}: an array needs one schema for its items`);
    }
    out.items = tighten(schema.items as JsonSchema, `${at}[]`);
  }
  return out;
}
