import fc from "fast-check";

/**
 * Values that satisfy a route's JSON schema, as the OpenAPI document gives it (the zod schemas
 * through fastify-type-provider-zod's transform). Only the parts of JSON Schema those documents
 * use are read; anything else makes a value of any JSON shape, which a schema then refuses.
 */

export interface JsonSchema {
  type?: "string" | "integer" | "number" | "boolean" | "object" | "array" | "null";
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  /** OpenAPI 3.0 says `true` (with minimum), JSON Schema 2020-12 gives the bound itself. */
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  description?: string;
}

/**
 * Values worth sending beside random ones, by property name: the ids and index numbers of rows
 * that exist, so generated requests reach past "not found" into the handlers.
 */
export type KnownValues = Record<string, readonly unknown[]>;

/** Strings stay short unless a schema asks for more: long ones come from the hostile values. */
const DEFAULT_MAX_LENGTH = 40;

export function arbitraryFor(
  schema: JsonSchema,
  known: KnownValues = {},
  name?: string,
): fc.Arbitrary<unknown> {
  const own = ownArbitrary(schema, known, name);
  const withNull = schema.nullable ? fc.oneof(own, fc.constant(null)) : own;
  const fromKnown = name === undefined ? [] : (known[name] ?? []).filter((v) => fits(schema, v));
  return fromKnown.length > 0
    ? fc.oneof(
        { arbitrary: fc.constantFrom(...fromKnown), weight: 2 },
        { arbitrary: withNull, weight: 1 },
      )
    : withNull;
}

function ownArbitrary(
  schema: JsonSchema,
  known: KnownValues,
  name: string | undefined,
): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((s) => arbitraryFor(s, known)));
  }
  switch (schema.type) {
    case "string":
      // A date field's schema is often a plain string, checked later: send real dates too.
      if (name !== undefined && /(On|Date)$/.test(name) && schema.pattern === undefined) {
        return fc.oneof(
          { arbitrary: dateString, weight: 3 },
          { arbitrary: stringFor(schema), weight: 1 },
        );
      }
      // An email field's schema is often a plain string, checked later: send real addresses too.
      return name !== undefined && /email$/i.test(name) && schema.pattern === undefined
        ? fc.oneof(
            {
              arbitrary: fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 254)),
              weight: 2,
            },
            { arbitrary: stringFor(schema), weight: 1 },
          )
        : stringFor(schema);
    case "integer":
      return fc.integer(integerBounds(schema));
    case "number":
      return fc.double({ ...numberBounds(schema), noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      // Items take the array's name: "ids" holds ids.
      return fc.array(schema.items ? arbitraryFor(schema.items, known, name) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, Math.max(schema.minItems ?? 0, 5)),
      });
    case "object":
      return objectFor(schema, known);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const dateString = fc
  .date({ min: new Date("1990-01-01"), max: new Date("2100-12-31"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? DEFAULT_MAX_LENGTH, 200));
  const inBounds = (s: string) =>
    s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter(inBounds);
  }
  if (schema.format === "email") return fc.emailAddress().filter(inBounds);
  if (schema.format === "date") return dateString;
  // Mostly printable text in any script, some ASCII with control characters.
  return fc
    .oneof(
      { arbitrary: fc.string({ unit: "grapheme", minLength, maxLength }), weight: 3 },
      { arbitrary: fc.string({ unit: "binary-ascii", minLength, maxLength }), weight: 1 },
    )
    .filter(inBounds);
}

function integerBounds(schema: JsonSchema): { min: number; max: number } {
  const { min, max } = numberBounds(schema);
  const low = Math.max(Math.ceil(min ?? -1e6), Number.MIN_SAFE_INTEGER);
  const high = Math.min(Math.floor(max ?? 1e6), Number.MAX_SAFE_INTEGER);
  const isExclusiveMin =
    schema.exclusiveMinimum === true || typeof schema.exclusiveMinimum === "number";
  const isExclusiveMax =
    schema.exclusiveMaximum === true || typeof schema.exclusiveMaximum === "number";
  const from = isExclusiveMin && Number.isInteger(min) ? low + 1 : low;
  const to = isExclusiveMax && Number.isInteger(max) ? high - 1 : high;
  return { min: from, max: Math.max(from, to) };
}

function numberBounds(schema: JsonSchema): { min?: number; max?: number } {
  const min =
    typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : schema.minimum;
  const max =
    typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : schema.maximum;
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function objectFor(schema: JsonSchema, known: KnownValues): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    model[key] = arbitraryFor(property, known, key);
  }
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in model) });
}

/** Whether a known value could pass the schema's own checks (its type and enum): whole arrays and objects too. */
function fits(schema: JsonSchema, value: unknown): boolean {
  if (value === null) return schema.nullable === true;
  if (schema.enum) return schema.enum.includes(value);
  switch (schema.type) {
    case "string":
      return (
        typeof value === "string" &&
        (schema.pattern === undefined || new RegExp(schema.pattern).test(value))
      );
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && !Array.isArray(value);
    case undefined:
      // A schema that says nothing ({}, what z.unknown() gives) takes any value.
      return schema.anyOf === undefined && schema.oneOf === undefined && schema.const === undefined;
    default:
      return false;
  }
}
