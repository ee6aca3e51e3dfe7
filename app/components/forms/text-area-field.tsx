import type { TextareaHTMLAttributes } from "react";
import type { FieldSource } from "./field-control";
import { inputClass } from "./field-error";
import { FieldFrame, type FieldLabelling, useDescribedField } from "./field-frame";

type TextAreaAttributes = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "id" | "name" | "defaultValue" | "className"
>;

/** A longer answer, several lines high, with its label, hint and error. */
export function TextAreaField(props: FieldSource & Omit<FieldLabelling, "size"> & TextAreaAttributes) {
  const { control, labelling, message, aria, rest } = useDescribedField(props);
  const { rows = 3, ...textarea } = rest;
  return (
    <FieldFrame control={control} labelling={labelling} message={message}>
      <textarea
        rows={rows}
        {...textarea}
        key={control.key}
        id={control.id}
        name={control.name}
        defaultValue={textarea.value === undefined ? control.defaultValue : undefined}
        {...aria}
        className={inputClass}
      />
    </FieldFrame>
  );
}
