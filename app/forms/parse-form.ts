import { parse, type Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import { checkAnswers } from "./check-answers";

/**
 * Conform's submission from a form and a zod schema, in the browser and on the server alike. We bridge by
 * hand rather than with @conform-to/zod because its adapter pulls in zod's full (classic) build, some 30 KB
 * gzip more on every page that carries a form; the schemas use zod/mini instead.
 */
export function parseForm<Schema extends z.ZodMiniType>(
  formData: FormData | URLSearchParams,
  schema: Schema,
): Submission<z.output<Schema>, string[]> {
  return parse(formData, { resolve: (payload) => checkAnswers(schema, payload) });
}
