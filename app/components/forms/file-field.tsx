import type { InputHTMLAttributes, Ref } from "react";
import type { FieldSource } from "./field-control";
import { FieldFrame, type FieldLabelling, useDescribedField } from "./field-frame";
import { fileInputClass } from "./field-look";

type FileAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "name" | "type" | "value" | "defaultValue" | "className" | "size"
> & { ref?: Ref<HTMLInputElement> };

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
