import * as z from "zod/mini";

type LengthConstraints = Record<string, { maxLength: number }>;

/**
 * Each text answer's length cap, by field name, read from the form's schema: the same numbers the server
 * enforces become the `maxlength` of the fields (through Conform's `constraint`, or written out), so an answer
 * cannot grow past its limit while being typed. Read from the schema's definition, as zod documents for
 * libraries built on it; zod's JSON Schema writer, which did it before, was 7 KB more on every form page.
 */
export function lengthConstraintsOf(schema: z.ZodMiniObject): LengthConstraints {
  const constraints: LengthConstraints = {};
  for (const [name, field] of Object.entries(schema.def.shape)) {
    const maxLength = textMaxLength(field);
    if (maxLength !== undefined) constraints[name] = { maxLength };
  }
  return constraints;
}

/** The smallest maximum length of a text field, through the optional and default wrappers around it. */
function textMaxLength(field: z.core.$ZodType): number | undefined {
  const def = (field as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "optional":
    case "default":
    case "nullable":
      return textMaxLength(def.innerType);
    case "string": {
      const caps = (def.checks ?? []).flatMap((check) =>
        check instanceof z.core.$ZodCheckMaxLength ? [check._zod.def.maximum] : [],
      );
      return caps.length > 0 ? Math.min(...caps) : undefined;
    }
    default:
      return undefined;
  }
}
