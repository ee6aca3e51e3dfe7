import { parse, type Submission } from "@conform-to/react";
import * as z from "zod/mini";

/**
 * Conform's submission from a form and a zod schema, in the browser and on the server alike. We bridge by
 * hand rather than with @conform-to/zod because its adapter pulls in zod's full (classic) build, some 30 KB
 * gzip more on every page that carries a form; the schemas use zod/mini instead.
 */
export function parseForm<Schema extends z.ZodMiniType>(
  formData: FormData | URLSearchParams,
  schema: Schema,
): Submission<z.output<Schema>, string[]> {
  return parse(formData, {
    resolve(payload) {
      const result = z.safeParse(schema, blanksAsMissing(payload));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = issue.path.join(".");
        error[name] = [...(error[name] ?? []), issue.message];
      }
      return { error };
    },
  });
}

/**
 * An empty input, one of only spaces, or a file input with no file chosen, means "not given", as Conform's own
 * adapters treat an empty one: a required field left blank is missing, an optional one simply not answered.
 */
function blanksAsMissing(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).filter(
      ([, value]) => !(typeof value === "string" && value.trim() === "") && !isNoFile(value),
    ),
  );
}

function isNoFile(value: unknown): boolean {
  return typeof File !== "undefined" && value instanceof File && value.size === 0 && value.name === "";
}
