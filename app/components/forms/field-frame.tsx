import type { ReactNode } from "react";
import {
  errorIdOf,
  type FieldControl,
  type FieldSource,
  hintIdOf,
  useFieldControl,
  warningIdOf,
} from "./field-control";
import { FieldError } from "./field-error";
import { errorMessageOf } from "./field-look";

/** How a field is labelled and explained, the same for every kind of field. */
export type FieldLabelling = {
  label: ReactNode;
  hint?: ReactNode;
  /** Marks the label "(optional)". */
  optional?: boolean;
  /** What a missing answer says under the field; without it only the form's banner speaks of missing answers. */
  requiredText?: string;
  /** Reads the error out as it appears: for a problem found as the person acts, such as a file too large. */
  announceError?: boolean;
  /** Spans both columns of a two-column form. */
  wide?: boolean;
  /** The bigger type of a form that asks one question per screen. */
  size?: "large";
  /** Classes of the field's outer box. */
  className?: string;
  /** An answer allowed but worth a second look (a date already past), said under the field until it changes. */
  warning?: string;
};

/** The attributes that tie a control to its hint and error, and mark it invalid while it has errors. */
export function describedControl(control: FieldControl, labelling: FieldLabelling) {
  const message = errorMessageOf(control.errors, labelling.requiredText);
  const describedBy = [
    labelling.hint ? hintIdOf(control) : undefined,
    message ? errorIdOf(control) : undefined,
    labelling.warning ? warningIdOf(control) : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  return {
    message,
    aria: {
      "aria-invalid": control.errors.length > 0 ? true : undefined,
      "aria-describedby": describedBy || undefined,
    },
  };
}

/**
 * What every field part does with its props: where its answer comes from (Conform's metadata or written-out
 * values), how it is labelled, and the attributes that tie the control to its hint and error. `rest` is the
 * part's own props, for its control.
 */
export function useDescribedField<Props extends FieldSource & FieldLabelling>(props: Props) {
  const {
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
    size,
    className,
    warning,
    ...rest
  } = props;
  const control = useFieldControl({ field, name, id, defaultValue, errors });
  const labelling: FieldLabelling = {
    label,
    hint,
    optional,
    requiredText,
    announceError,
    wide,
    size,
    className,
    warning,
  };
  return { control, labelling, ...describedControl(control, labelling), rest };
}

export function OptionalMark() {
  return <span className="font-normal text-slate-600"> (optional)</span>;
}

export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-slate-600">
      {children}
    </p>
  );
}

/** The classes of a field's outer box in a form's grid. */
export const columnClass = (labelling: FieldLabelling) =>
  [labelling.wide ? "sm:col-span-2" : undefined, labelling.className].filter(Boolean).join(" ") || undefined;

/** A labelled field: its label (with "(optional)"), its hint, the control, and its error. */
export function FieldFrame({
  control,
  labelling,
  message,
  children,
}: {
  control: FieldControl;
  labelling: FieldLabelling;
  message: string | undefined;
  children: ReactNode;
}) {
  const large = labelling.size === "large";
  return (
    <div className={columnClass(labelling)}>
      <label
        htmlFor={control.id}
        className={large ? "block text-lg font-semibold text-slate-900 sm:text-xl" : "block font-medium text-slate-900"}
      >
        {labelling.label}
        {labelling.optional ? <OptionalMark /> : null}
      </label>
      {labelling.hint ? <FieldHint id={hintIdOf(control)}>{labelling.hint}</FieldHint> : null}
      {children}
      <FieldError id={errorIdOf(control)} message={message} announce={labelling.announceError} large={large} />
      {labelling.warning ? (
        <p id={warningIdOf(control)} className="mt-1 border-l-4 border-amber-500 bg-amber-50 px-3 py-2 text-amber-950">
          {labelling.warning}
        </p>
      ) : null}
    </div>
  );
}
