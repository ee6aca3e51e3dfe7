import { useId } from "react";
import { inputClass } from "~/features/forms/field-error";

/** A labelled drop-down for the staff screens; with `anyLabel`, a first option that means "any". */
export function LabelledSelect({
  label,
  options,
  anyLabel,
  ...select
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  anyLabel?: string;
} & React.SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      <select id={id} className={inputClass} {...select}>
        {anyLabel ? <option value="">{anyLabel}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
