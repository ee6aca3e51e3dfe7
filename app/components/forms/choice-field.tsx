import type { FieldOption } from "~/forms/definition";
import { errorIdOf, type FieldSource, hintIdOf } from "./field-control";
import { FieldError } from "./field-error";
import { columnClass, FieldHint, type FieldLabelling, OptionalMark, useDescribedField } from "./field-frame";
import { choiceRowClass } from "./field-look";

export const YES_NO_OPTIONS: readonly FieldOption[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

/**
 * One answer out of a few, as radio buttons in a fieldset named by its legend; yes/no is the common case.
 * The whole group is marked while it has an error, so a missed question stands out.
 */
export function ChoiceField(props: FieldSource & Omit<FieldLabelling, "size"> & { options?: readonly FieldOption[] }) {
  const { control, labelling, message, aria, rest } = useDescribedField(props);
  const { label, hint, optional, announceError } = labelling;
  const { options = YES_NO_OPTIONS } = rest;
  const outer = columnClass(labelling);
  // The group's highlight reaches past its content without moving it: the outer grid keeps the negative
  // margins from collapsing into the spacing around the field.
  return (
    <div className={outer ? `grid ${outer}` : "grid"}>
      <fieldset
        key={control.key}
        id={control.id}
        {...aria}
        className="-m-3 rounded-lg border border-transparent p-3 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50"
      >
        <legend className="font-medium text-slate-900">
          {label}
          {optional ? <OptionalMark /> : null}
        </legend>
        {hint ? <FieldHint id={hintIdOf(control)}>{hint}</FieldHint> : null}
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {options.map((option) => (
            <div key={option.value} className="group/option">
              <label className={choiceRowClass}>
                <input
                  type="radio"
                  name={control.name}
                  value={option.value}
                  defaultChecked={control.defaultValue === option.value}
                  className="h-5 w-5 accent-brand-700"
                />
                {option.label}
              </label>
              {option.note ? (
                <p className="mt-1 hidden max-w-prose text-sm text-slate-700 group-has-checked/option:block">
                  {option.note}
                </p>
              ) : null}
            </div>
          ))}
        </div>
        <FieldError id={errorIdOf(control)} message={message} announce={announceError} />
      </fieldset>
    </div>
  );
}
