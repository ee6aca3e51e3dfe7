import type { ContactQuestion } from "./questions";

type ContactFieldProps = { question: ContactQuestion; problem?: string } & (
  | { value: string; onChange: (value: string) => void }
  /** Uncontrolled, for the plain HTML form that works without JavaScript. */
  | { defaultValue?: string; value?: never; onChange?: never }
);

/** One of the first three questions: the person's name, email or phone, as a labelled text field. */
export function ContactField(props: ContactFieldProps) {
  const { question, problem } = props;
  const id = `assessment-${question.id}`;
  return (
    <div>
      <label htmlFor={id} className="block text-lg font-semibold text-slate-900 sm:text-xl">
        {question.question}
      </label>
      <input
        id={id}
        name={question.id}
        type={question.type}
        placeholder={question.placeholder}
        autoComplete={question.autoComplete}
        required
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        className="mt-3 block w-full rounded-lg border border-slate-400 bg-white px-3 py-3 text-lg text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-red-700"
        {...("onChange" in props && props.onChange
          ? { value: props.value, onChange: (event) => props.onChange(event.target.value) }
          : { defaultValue: props.defaultValue })}
      />
      {problem && (
        <p id={`${id}-problem`} className="mt-2 font-medium text-red-800">
          {problem}
        </p>
      )}
    </div>
  );
}
