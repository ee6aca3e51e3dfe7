import type { InputHTMLAttributes } from "react";
import type { FieldSource } from "./field-control";
import { FieldFrame, type FieldLabelling, useDescribedField } from "./field-frame";
import { inputClass, largeInputClass } from "./field-look";

export type TextKind = "text" | "email" | "tel" | "date" | "time" | "number" | "money" | "password" | "search";

/** What each kind asks the browser for: the input type, and the keyboard a phone shows. */
const KIND_ATTRIBUTES: Record<TextKind, InputHTMLAttributes<HTMLInputElement>> = {
  text: { type: "text" },
  email: { type: "email" },
  tel: { type: "tel" },
  date: { type: "date" },
  time: { type: "time" },
  // A count (years, people): whole and not negative.
  number: { type: "number", inputMode: "numeric", min: 0, step: 1 },
  // A text box, so "$1,250.50" can be typed as written; the schema reads the amount.
  money: { type: "text", inputMode: "decimal" },
  password: { type: "password" },
  search: { type: "search" },
};

type InputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "name" | "type" | "defaultValue" | "className" | "size"
>;

/** The input types that take a `maxlength` (a date or a number has none). */
const TYPES_WITH_LENGTH = new Set(["text", "email", "tel", "password", "search"]);

/**
 * A one-line answer with its label, hint and error, capped at the length the server accepts. `suggestions` are
 * offered as the person types (a <datalist>), any other answer still allowed.
 */
export function TextField(
  props: FieldSource & FieldLabelling & { kind?: TextKind; suggestions?: readonly string[] } & InputAttributes,
) {
  const { control, labelling, message, aria, rest } = useDescribedField(props);
  const { kind = "text", suggestions, ...input } = rest;
  const suggestionsId = `${control.id}-suggestions`;
  return (
    <FieldFrame control={control} labelling={labelling} message={message}>
      <input
        {...KIND_ATTRIBUTES[kind]}
        maxLength={TYPES_WITH_LENGTH.has(KIND_ATTRIBUTES[kind].type ?? "") ? control.maxLength : undefined}
        list={suggestions?.length ? suggestionsId : undefined}
        {...input}
        inputMode={input.inputMode ?? KIND_ATTRIBUTES[kind].inputMode}
        key={control.key}
        id={control.id}
        name={control.name}
        defaultValue={input.value === undefined ? control.defaultValue : undefined}
        {...aria}
        className={labelling.size === "large" ? largeInputClass : inputClass}
      />
      {suggestions?.length ? (
        <datalist id={suggestionsId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      ) : null}
    </FieldFrame>
  );
}
