import { validatorCompiler as zodValidatorCompiler } from "fastify-type-provider-zod";
import { AppError } from "./errors.js";

/**
 * The validator of every route's params, query and body: the route's zod schema, then one rule all
 * text in this API shares. No text field may hold a NUL character: PostgreSQL's text cannot store
 * one and refuses the whole query (a 500), SQLite would keep it, and no name, index number,
 * message or search means one. Refusing it here names the field and answers the same on both
 * databases. Only what the schema let through is looked at, so a NUL in a key the schema drops
 * changes nothing.
 */
export const validatorCompiler: typeof zodValidatorCompiler = (route) => {
  const validate = zodValidatorCompiler(route);
  const where =
    route.httpPart === "body" || route.httpPart === undefined ? "" : `${route.httpPart} `;
  return (data) => {
    const result = validate(data);
    // zod's compiler answers synchronously; anything else passes through untouched.
    if (typeof result !== "object" || !("value" in result) || result.error !== undefined) {
      return result;
    }
    const field = fieldWithNul(result.value);
    if (field === null) return result;
    return {
      error: new AppError("validation", `${where}${field}: must not contain a NUL character`, [
        { field, message: "must not contain a NUL character" },
      ]),
    };
  };
};

/**
 * The dotted path of the first string holding U+0000, or null. Walked with a stack rather than by
 * recursion: a body may be nested thousands of levels deep.
 */
export function fieldWithNul(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) break;
    const { value: current, path } = next;
    if (typeof current === "string") {
      if (current.includes("\u0000")) return path === "" ? "body" : path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) =>
        stack.push({ value: item, path: join(path, String(index)) }),
      );
    } else if (typeof current === "object" && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        stack.push({ value: item, path: join(path, key) });
      }
    }
  }
  return null;
}

const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);
