import type { ChoiceOption, OptionId } from "./choice";

type ChoiceFieldsetProps = {
  name: string;
  legend: string;
  options: readonly ChoiceOption[];
  required?: boolean;
} & (
  | { value: OptionId | undefined; onChange: (id: OptionId) => void }
  /** Uncontrolled, for the plain HTML form that works without JavaScript. */
  | { defaultValue?: string; value?: never; onChange?: never }
);

/** One multiple-choice question: a radio group named by its legend, each option shown with its letter. */
export function ChoiceFieldset(props: ChoiceFieldsetProps) {
  const { name, legend, options, required } = props;
  return (
    <fieldset>
      <legend className="text-lg font-semibold text-slate-900 sm:text-xl">{legend}</legend>
      <div className="mt-4 grid gap-3">
        {options.map((option) => (
          <label
            key={option.id}
            className="flex cursor-pointer items-start gap-3 rounded-xl border border-slate-300 bg-white p-4 hover:border-brand-700 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-600/40"
          >
            <input
              type="radio"
              name={name}
              value={option.id}
              required={required}
              className="mt-1 h-5 w-5 shrink-0 accent-brand-700 focus:outline-none"
              {...("onChange" in props && props.onChange
                ? { checked: props.value === option.id, onChange: () => props.onChange(option.id) }
                : { defaultChecked: props.defaultValue === option.id })}
            />
            <span>
              <span className="mr-2 font-bold text-brand-800" aria-hidden="true">
                {option.id}.
              </span>
              {option.text}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
