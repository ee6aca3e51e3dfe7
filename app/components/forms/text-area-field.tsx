import type { TextareaHTMLAttributes } from "react";
import { type FieldSource, useFieldControl } from "./field-control";
import { inputClass } from "./field-error";
import { describedControl, FieldFrame, type FieldLabelling } from "./field-frame";

type TextAreaAttributes = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "id" | "name" | "defaultValue" | "className"
>;

/** A longer answer, several lines high, with its label, hint and error. */
export function TextAreaField({
  field,
  name,
  id,
  defaultValue,
  errors,
  label,
  hint,
  optional,
  requiredText,
  announceError,
  wide,
  className,
  rows = 3,
  ...textarea
}: FieldSource & Omit<FieldLabelling, "size"> & TextAreaAttributes) {
  const control = useFieldControl({ field, name, id, defaultValue, errors });
  const labelling = { label, hint, optional, requiredText, announceError, wide, className };
  const { message, aria } = describedControl(control, labelling);
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
