import { labellingOf } from "~/components/forms/defined-field";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import type { FieldDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { checklistSchema } from "./schema";

/** The server's length caps, as the fields' maxlength. */
const LENGTH_LIMITS = lengthConstraintsOf(checklistSchema);

/** One of the checklist's written answers: a line, an email, a phone number or a longer text. */
export function ChecklistField({
  definition,
  defaultValue,
  errors,
}: {
  definition: FieldDefinition;
  defaultValue: string;
  errors: string[] | undefined;
}) {
  const common = {
    ...labellingOf(definition),
    name: definition.name,
    defaultValue,
    errors,
    autoComplete: definition.autoComplete ?? "off",
    required: !definition.optional,
    maxLength: LENGTH_LIMITS[definition.name]?.maxLength,
    inputMode: definition.inputMode,
  };
  if (definition.kind === "textarea") return <TextAreaField {...common} rows={definition.rows} />;
  const kind = definition.kind === "email" || definition.kind === "tel" ? definition.kind : "text";
  return <TextField {...common} kind={kind} />;
}
