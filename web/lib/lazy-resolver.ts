import type { FieldValues, Resolver } from "react-hook-form";
import type { $ZodType, input, output } from "zod/v4/core";

/**
 * react-hook-form's zod resolver for a schema of common/, loaded when the form first validates
 * (its first submit, or a `trigger`) instead of with the page. zod and the resolver are about
 * 30 kB compressed, a third of the whole first load, and a form only needs them once someone has
 * typed (issue 11: JavaScript on the first load). The schema and its messages are the same ones
 * `zodResolver(schema)` would use: only the moment they load changes.
 *
 * Call it once per form, outside the component, so the loaded resolver is kept between renders.
 * A failed load (the network dropped) is forgotten, so the next submit tries again.
 */
export function lazyZodResolver<T extends $ZodType<FieldValues, FieldValues>, Context = unknown>(
  loadSchema: () => Promise<T>,
): Resolver<input<T>, Context, output<T>> {
  type Loaded = Resolver<input<T>, Context, output<T>>;
  let loading: Promise<Loaded> | null = null;
  return async (values, context, options) => {
    loading ??= Promise.all([import("@hookform/resolvers/zod"), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as Loaded,
    );
    try {
      const resolve = await loading;
      return await resolve(values, context, options);
    } catch (error) {
      loading = null;
      throw error;
    }
  };
}
