import { type TextareaHTMLAttributes, useState } from "react";
import type { FieldSource } from "./field-control";
import { FieldFrame, type FieldLabelling, useDescribedField } from "./field-frame";
import { inputClass, lengthCount } from "./field-look";

type TextAreaAttributes = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "id" | "name" | "defaultValue" | "className"
>;

/**
 * How much of the cap is used, shown under the field. On the public pages, which run without React in the
 * browser, their script keeps it up to date by the data attributes.
 */
function LengthCounter({ used, maxLength }: { used: number; maxLength: number }) {
  const count = lengthCount(used, maxLength);
  return (
    <>
      <p className="text-right text-sm text-slate-600" aria-hidden="true" data-count-shown>
        {count.shown}
      </p>
      <p className="sr-only" aria-live="polite" data-count-spoken>
        {count.spoken}
      </p>
    </>
  );
}

/** A longer answer, several lines high, with its label, hint, error, and a count against its length cap. */
export function TextAreaField(props: FieldSource & Omit<FieldLabelling, "size"> & TextAreaAttributes) {
  const { control, labelling, message, aria, rest } = useDescribedField(props);
  const { rows = 3, onInput, ...textarea } = rest;
  const maxLength = textarea.maxLength ?? control.maxLength;
  // What was typed counts until the form is reset (Conform's key changes); then the starting answer does.
  const [typed, setTyped] = useState<{ key: string | undefined; used: number }>();
  const used =
    typed && typed.key === control.key ? typed.used : String(textarea.value ?? control.defaultValue ?? "").length;
  return (
    <FieldFrame control={control} labelling={labelling} message={message}>
      <textarea
        rows={rows}
        maxLength={maxLength}
        {...textarea}
        key={control.key}
        id={control.id}
        name={control.name}
        defaultValue={textarea.value === undefined ? control.defaultValue : undefined}
        onInput={(event) => {
          setTyped({ key: control.key, used: event.currentTarget.value.length });
          onInput?.(event);
        }}
        {...aria}
        className={inputClass}
      />
      {maxLength !== undefined && <LengthCounter used={used} maxLength={maxLength} />}
    </FieldFrame>
  );
}
