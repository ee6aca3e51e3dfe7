import type { FieldMetadata } from "@conform-to/react";
import { useId } from "react";

/**
 * Where a field part gets its name, id, starting answer and errors: Conform's metadata for the field
 * (`field`), or the same written out for a plain form without Conform (the staff screens). Written-out
 * values win over the metadata's, so a form can show a problem it found itself.
 */
export type FieldSource = {
  field?: FieldMetadata<unknown>;
  name?: string;
  id?: string;
  defaultValue?: string;
  errors?: readonly string[] | null;
};

export type FieldControl = {
  /** Conform's key: a new one (the form was reset) makes the control start again from its default. */
  key: string | undefined;
  id: string;
  name: string;
  defaultValue: string | undefined;
  errors: readonly string[];
  /** The server's length cap for the answer (Conform's constraint, read from the form's schema). */
  maxLength: number | undefined;
};

export function useFieldControl({ field, name, id, defaultValue, errors }: FieldSource): FieldControl {
  const generatedId = useId();
  const resolvedName = name ?? field?.name;
  if (resolvedName === undefined) throw new Error("A form field needs a name, or Conform's metadata for it.");
  return {
    key: field?.key,
    id: id ?? field?.id ?? generatedId,
    name: resolvedName,
    defaultValue: defaultValue ?? (typeof field?.initialValue === "string" ? field.initialValue : undefined),
    errors: errors ?? field?.errors ?? [],
    maxLength: field?.maxLength,
  };
}

export const hintIdOf = (control: Pick<FieldControl, "id">) => `${control.id}-hint`;
export const errorIdOf = (control: Pick<FieldControl, "id">) => `${control.id}-error`;
export const warningIdOf = (control: Pick<FieldControl, "id">) => `${control.id}-warning`;
