import * as z from "zod/mini";

export type AnswerCheck<Value> = { value: Value } | { error: Record<string, string[]> };

/**
 * A form's answers checked against its schema: the parsed value, or each field's messages by its name. Plain
 * zod, so both Conform (parse-form.ts) and the public pages' script, which has no React, use it.
 */
export function checkAnswers<Schema extends z.ZodMiniType>(
  schema: Schema,
  payload: Record<string, unknown>,
): AnswerCheck<z.output<Schema>> {
  const result = z.safeParse(schema, blanksAsMissing(payload));
  if (result.success) return { value: result.data };
  const error: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const name = issue.path.join(".");
    error[name] = [...(error[name] ?? []), issue.message];
  }
  return { error };
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
