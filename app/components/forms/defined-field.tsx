import type { FieldMetadata } from "@conform-to/react";
import { Fragment, type ReactNode } from "react";
import type { FieldDefinition, FieldKind } from "~/forms/definition";
import { ChoiceField } from "./choice-field";
import { FileField } from "./file-field";
import { FormSection } from "./form-section";
import { SelectField } from "./select-field";
import { TextAreaField } from "./text-area-field";
import { TextField } from "./text-field";

/** What a missing answer says under a field, by its kind, on forms that say it there as well as in the banner. */
export function requiredTextFor(kind: FieldKind): string {
  switch (kind) {
    case "yesNo":
      return "Please choose yes or no.";
    case "radio":
      return "Please choose one.";
    default:
      return "This field is required.";
  }
}

/** The props every part takes from a field's definition: its label, hint, "(optional)" and width. */
export function labellingOf(definition: FieldDefinition, sayRequired = false) {
  return {
    label: definition.label,
    hint: definition.hint,
    optional: definition.optional,
    wide: definition.wide,
    requiredText: sayRequired ? requiredTextFor(definition.kind) : undefined,
  };
}

type DefinedFieldProps = {
  definition: FieldDefinition;
  /** A soft check's warning under the field (soft-checks.ts). */
  warning?: string;
  /** Conform's metadata for the field. */
  field: FieldMetadata<unknown>;
  /** Say "This field is required." under each missing answer, not only in the form's banner. */
  sayRequired?: boolean;
  /**
   * Mark a required text answer `required` for the browser too, so a page without JavaScript stops a blank
   * one before sending (Conform turns the browser's own check off when it runs).
   */
  nativeRequired?: boolean;
};

/** One question of a form, drawn from its definition: the part its kind calls for, labelled as defined. */
export function DefinedField({ definition, field, sayRequired, nativeRequired, warning }: DefinedFieldProps) {
  const labelling = { ...labellingOf(definition, sayRequired), warning };
  const required = nativeRequired && !definition.optional ? true : undefined;
  switch (definition.kind) {
    case "textarea":
      return (
        <TextAreaField
          {...labelling}
          field={field}
          required={required}
          rows={definition.rows}
          placeholder={definition.placeholder}
          autoComplete={definition.autoComplete}
        />
      );
    case "select":
      return (
        <SelectField
          {...labelling}
          field={field}
          options={definition.options ?? []}
          emptyOption={definition.placeholder ?? "Choose one"}
          autoComplete={definition.autoComplete}
        />
      );
    case "radio":
    case "yesNo":
      return <ChoiceField {...labelling} field={field} options={definition.options} />;
    case "file":
      return (
        <FileField
          {...labelling}
          field={field}
          accept={definition.accepts?.type.accept}
          multiple={(definition.accepts?.maxCount ?? 1) > 1}
        />
      );
    default:
      return (
        <TextField
          {...labelling}
          field={field}
          required={required}
          kind={definition.kind}
          inputMode={definition.inputMode}
          placeholder={definition.placeholder}
          autoComplete={definition.autoComplete}
        />
      );
  }
}

/**
 * A form's questions, drawn from its definition in their order: all of them, or with `section` the ones of
 * that section under its heading. `fields` is Conform's metadata, by name. `replace` puts a form's own
 * rendering in a field's place (a follow-up pair, a file checked in the browser), or null to leave it out
 * where the replacement already shows it.
 */
export function DefinedFields({
  definitions,
  fields,
  section,
  sayRequired,
  nativeRequired,
  replace = {},
  warnings = {},
}: {
  definitions: readonly FieldDefinition[];
  fields: Record<string, FieldMetadata<unknown>>;
  section?: string;
  sayRequired?: boolean;
  nativeRequired?: boolean;
  replace?: Readonly<Record<string, ReactNode>>;
  /** The soft checks' warnings, by field, each shown under its field (soft-checks.ts). */
  warnings?: Readonly<Record<string, string>>;
}) {
  const shown =
    section === undefined ? definitions : definitions.filter((definition) => definition.section === section);
  const rendered = shown.map((definition) => {
    if (definition.name in replace) return <Fragment key={definition.name}>{replace[definition.name]}</Fragment>;
    const field = fields[definition.name];
    if (!field) throw new Error(`The form has no field named ${definition.name}.`);
    return (
      <DefinedField
        key={definition.name}
        definition={definition}
        field={field}
        sayRequired={sayRequired}
        nativeRequired={nativeRequired}
        warning={warnings[definition.name]}
      />
    );
  });
  return section === undefined ? rendered : <FormSection title={section}>{rendered}</FormSection>;
}
