import type { InputHTMLAttributes, Ref } from "react";
import type { FieldSource } from "./field-control";
import { FieldFrame, type FieldLabelling, useDescribedField } from "./field-frame";
import { inputClass } from "./field-look";

type FileAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "name" | "type" | "value" | "defaultValue" | "className" | "size"
> & { ref?: Ref<HTMLInputElement> };

const fileInputClass = `${inputClass} file:mr-4 file:rounded-full file:border-0 file:bg-brand-700 file:px-4 file:py-1.5 file:font-semibold file:text-white`;

/** A file picker with its label, hint and error. A file is never a default: the browser cannot set one. */
export function FileField(props: Omit<FieldSource, "defaultValue"> & Omit<FieldLabelling, "size"> & FileAttributes) {
  const { control, labelling, message, aria, rest: input } = useDescribedField(props);
  return (
    <FieldFrame control={control} labelling={labelling} message={message}>
      <input
        {...input}
        type="file"
        key={control.key}
        id={control.id}
        name={control.name}
        {...aria}
        className={fileInputClass}
      />
    </FieldFrame>
  );
}
