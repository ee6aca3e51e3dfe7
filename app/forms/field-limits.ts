import * as z from "zod/mini";

type LengthConstraints = Record<string, { maxLength: number }>;

/**
 * Each text answer's length cap, by field name, read from the form's schema: the same numbers the server
 * enforces become the `maxlength` of the fields (through Conform's `constraint`, or written out), so an answer
 * cannot grow past its limit while being typed. Read through zod's JSON Schema of what the form accepts.
 */
export function lengthConstraintsOf(schema: z.ZodMiniType): LengthConstraints {
  const described = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  const constraints: LengthConstraints = {};
  for (const [name, property] of Object.entries(described.properties ?? {})) {
    // A file's size cap reads as a maxLength too, on a string of format "binary"; it is no text's length.
    if (typeof property === "object" && typeof property.maxLength === "number" && property.format !== "binary") {
      constraints[name] = { maxLength: property.maxLength };
    }
  }
  return constraints;
}
