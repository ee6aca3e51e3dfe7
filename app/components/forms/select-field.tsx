import type { SelectHTMLAttributes } from "react";
import type { FieldOption } from "~/forms/definition";
import { type FieldSource, useFieldControl } from "./field-control";
import { inputClass } from "./field-error";
import { describedControl, FieldFrame, type FieldLabelling } from "./field-frame";

type SelectAttributes = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name" | "defaultValue" | "className">;

/** A drop-down with its label, hint and error; `emptyOption` labels a first choice that means "none yet" or "any". */
export function SelectField({
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
  options,
  emptyOption,
  ...select
}: FieldSource &
  Omit<FieldLabelling, "size"> &
  SelectAttributes & { options: readonly FieldOption[]; emptyOption?: string }) {
  const control = useFieldControl({ field, name, id, defaultValue, errors });
  const labelling = { label, hint, optional, requiredText, announceError, wide, className };
  const { message, aria } = describedControl(control, labelling);
  return (
    <FieldFrame control={control} labelling={labelling} message={message}>
      <select
        {...select}
        key={control.key}
        id={control.id}
        name={control.name}
        defaultValue={select.value === undefined ? control.defaultValue : undefined}
        {...aria}
        className={inputClass}
      >
        {emptyOption === undefined ? null : <option value="">{emptyOption}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
