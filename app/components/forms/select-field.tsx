import type { SelectHTMLAttributes } from "react";
import type { FieldOption } from "~/forms/definition";
import type { FieldSource } from "./field-control";
import { FieldFrame, type FieldLabelling, useDescribedField } from "./field-frame";
import { inputClass } from "./field-look";

type SelectAttributes = Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "id" | "name" | "defaultValue" | "className" | "size"
>;

/** A drop-down with its label, hint and error; `emptyOption` labels a first choice that means "none yet" or "any". */
export function SelectField(
  props: FieldSource &
    Omit<FieldLabelling, "size"> &
    SelectAttributes & { options: readonly FieldOption[]; emptyOption?: string },
) {
  const { control, labelling, message, aria, rest } = useDescribedField(props);
  const { options, emptyOption, ...select } = rest;
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
