import { describe, expect, it } from "vitest";
import { z } from "zod";
import { submissionStatusResponseSchema } from "../../common/api.js";
import { submissionListResponseSchema } from "../../common/submissions-api.js";
import { compileSchemaSerializer, schemaSerializerCompiler } from "./schema-serializer.js";

const statusAnswer = () => ({
  data: {
    studentName: "Ama Mensah",
    indexNumber: "10000001",
    programme: "MPhil Economics",
    contact: null,
    status: {
      awaitingReview: "Pending",
      sentToDepartment: "Pending",
      nominationsReady: "Pending",
      sentToInternal: "Pending",
      sentToExternal: "Pending",
      internalReport: "Pending",
      externalReport: "Pending",
      thesisStatus: null,
    },
    documents: [
      { item: "thesis", label: "Thesis", submitted: true, receivedOn: "2026-01-02" },
      { item: "turnitinReport", label: "Turnitin report", submitted: false, receivedOn: null },
    ],
  },
});

describe("serialising answers from their schemas", () => {
  it("writes the same JSON as zod's parse followed by JSON.stringify", () => {
    const serialise = compileSchemaSerializer(submissionStatusResponseSchema);
    const answer = statusAnswer();
    expect(serialise(answer)).toBe(JSON.stringify(submissionStatusResponseSchema.parse(answer)));
  });

  it("never sends a property outside the schema, at the top, nested or in an array's items", () => {
    const serialise = compileSchemaSerializer(submissionStatusResponseSchema);
    const answer = statusAnswer();
    const leaky = {
      ...answer,
      sessionToken: "secret-top",
      data: {
        ...answer.data,
        passwordHash: "secret-nested",
        status: { ...answer.data.status, internalNote: "secret-deeper" },
        documents: answer.data.documents.map((d) => ({ ...d, storageKey: "secret-item" })),
      },
    };
    const sent = serialise(leaky);
    expect(sent).not.toContain("secret");
    expect(JSON.parse(sent)).toEqual(answer);
  });

  it("writes a nullable enum whether it holds a value or null", () => {
    const schema = z.object({ stage: z.enum(["a", "b"]).nullable(), n: z.number().int() });
    const serialise = compileSchemaSerializer(schema);
    expect(JSON.parse(serialise({ stage: "b", n: 1 }))).toEqual({ stage: "b", n: 1 });
    expect(JSON.parse(serialise({ stage: null, n: 2 }))).toEqual({ stage: null, n: 2 });
  });

  it("writes strings that need escaping as valid JSON", () => {
    const serialise = compileSchemaSerializer(z.object({ name: z.string() }));
    const name = 'Kwame "K" \\ Nkrumah\n</script>\u2028';
    expect(JSON.parse(serialise({ name }))).toEqual({ name });
  });

  it("fails the answer, rather than sending part of it, when a required property is missing", () => {
    const serialise = compileSchemaSerializer(submissionListResponseSchema);
    expect(() => serialise({ items: [], total: 0, page: 1, pageSize: 25 })).toThrow(/totalCapped/);
  });

  it("refuses, when the route is registered, a schema that would let extra properties through", () => {
    expect(() => compileSchemaSerializer(z.looseObject({ a: z.string() }))).toThrow(/closed/);
    expect(() =>
      compileSchemaSerializer(z.object({ m: z.record(z.string(), z.string()) })),
    ).toThrow(/closed|keyword/);
  });

  it("refuses unions it cannot write as one list of plain types", () => {
    const union = z.object({ v: z.union([z.object({ a: z.string() }), z.string()]) });
    expect(() => compileSchemaSerializer(union)).toThrow(/unions/);
  });

  it("refuses a response schema that is not a zod schema, naming the route", () => {
    expect(() => schemaSerializerCompiler({ schema: { type: "object" }, url: "/api/x" })).toThrow(
      /\/api\/x/,
    );
  });
});
