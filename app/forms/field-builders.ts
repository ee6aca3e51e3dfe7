import * as z from "zod/mini";
import type { FieldDefinition, FieldKind, FieldOption, FileAcceptance, FileMessages, ThumbnailBox } from "./definition";
import { type FileType, PHOTO } from "./file-types";
import { REQUIRED_MESSAGE } from "./required-message";
import { emailAddress, singleLineEmail, textField } from "./text-field";

/** How a field is shown and printed, besides its name, label, kind and whether it may be left empty. */
export type Presentation = Omit<FieldDefinition, "name" | "label" | "kind" | "optional">;

/**
 * One question, declared once: the schema piece that checks its answer (none for a value worked out on the
 * server) and the definition that shows it on the form and prints it in the inbox, the CSV, emails and PDFs.
 */
export type FormField<
  Name extends string = string,
  Schema extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
> = {
  schema: Schema;
  definition: FieldDefinition & { name: Name };
};

export function field<const Name extends string, Schema extends z.ZodMiniType | undefined>(
  kind: FieldKind,
  name: Name,
  label: string,
  schema: Schema,
  presentation: Presentation = {},
): FormField<Name, Schema> {
  return { schema, definition: { name, label, kind, ...presentation } };
}

/** The same question, which may be left empty. */
export function optional<Schema extends z.ZodMiniType, Definition extends FieldDefinition>(required: {
  schema: Schema;
  definition: Definition;
}): { schema: z.ZodMiniOptional<Schema>; definition: Definition & { optional: true } } {
  return { schema: z.optional(required.schema), definition: { ...required.definition, optional: true } };
}

/** A trimmed answer of at most `max` characters, asked as `kind`. */
const lengthCapped =
  (kind: FieldKind) =>
  <const Name extends string>(name: Name, label: string, { max, ...presentation }: Presentation & { max: number }) =>
    field(kind, name, label, textField(label, max), presentation);

export const text = lengthCapped("text");
export const textarea = lengthCapped("textarea");
export const tel = lengthCapped("tel");
/**
 * An email input whose answer the server checks only for its length and for being one line (the browser's
 * input checks its form): an address with a line break, sent as a Reply-To, could shape the mail's headers.
 */
export const emailText = <const Name extends string>(
  name: Name,
  label: string,
  { max, ...presentation }: Presentation & { max: number },
) => field("email", name, label, singleLineEmail(textField(label, max)), presentation);

/** One email address, checked for its form on the server too. */
export const email = <const Name extends string>(name: Name, label: string, presentation?: Presentation) =>
  field("email", name, label, emailAddress(label), presentation);

/** A day from a date input, which says only "Enter a date" when it is not one. */
export const isoDate = <const Name extends string>(name: Name, label: string, presentation?: Presentation) =>
  field(
    "date",
    name,
    label,
    z.iso.date({ error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Enter a date") }),
    presentation,
  );

/** One of `values`: missing is "required", anything else says `invalid`. */
function oneOf<const Value extends string>(values: readonly Value[], invalid: string) {
  return z.enum(values as readonly [Value, ...Value[]], {
    error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : invalid),
  });
}

/** A choice among radio buttons, each option with its label (and a note shown while it is chosen). */
export const radio = <const Name extends string, const Value extends string>(
  name: Name,
  label: string,
  options: readonly (FieldOption & { value: Value })[],
  invalid: string,
  presentation?: Presentation,
) =>
  field(
    "radio",
    name,
    label,
    oneOf(
      options.map((option) => option.value),
      invalid,
    ),
    { ...presentation, options },
  );

/** A choice from a list whose values are their own labels. */
export const select = <const Name extends string, const Value extends string>(
  name: Name,
  label: string,
  values: readonly Value[],
  invalid: string,
  presentation?: Presentation,
) =>
  field("select", name, label, oneOf(values, invalid), {
    ...presentation,
    options: values.map((value) => ({ value, label: value })),
  });

export const yesNo = <const Name extends string>(name: Name, label: string, presentation?: Presentation) =>
  field("yesNo", name, label, oneOf(["yes", "no"], "Choose yes or no"), presentation);

/** A file field's limits and, where the defaults will not do, what the person is told. */
export type FileOptions = Presentation & {
  maxBytes: number;
  maxCount: number;
  messages?: Partial<FileMessages>;
};

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * A field of files of `type`, at most `maxCount` of at most `maxBytes` each: one rule that is the browser's check
 * (size, count, and the declared type where browsers agree on it) and the server's (the same, by the bytes).
 */
export function file<const Name extends string, const Count extends number>(
  name: Name,
  label: string,
  type: FileType,
  { maxBytes, maxCount, messages, ...presentation }: FileOptions & { maxCount: Count },
  photos?: FileAcceptance["photos"],
) {
  const said: FileMessages = {
    tooLarge: `${label}: a file is larger than ${megabytes(maxBytes)}. Please remove it and try again.`,
    tooMany: `${label}: at most ${maxCount} ${maxCount === 1 ? "file" : "files"}. Please remove some and try again.`,
    wrongType: `${label}: a file is not ${type.described}. Please remove it and try again.`,
    ...messages,
  };
  const one = z
    .file({ error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : undefined) })
    .check(z.maxSize(maxBytes, said.tooLarge), ...(type.browserCheck ? [type.browserCheck(said.wrongType)] : []));
  const accepts: FileAcceptance = { type, maxBytes, maxCount, messages: said, photos };
  // One file comes as a File, several as an array: each is read as a list, so a long one says `tooMany`. None is
  // missing, said beside the field as every missing answer is.
  const several = z.pipe(
    z.transform((value: unknown) => (value === undefined || Array.isArray(value) ? value : [value])),
    z
      .array(one, { error: REQUIRED_MESSAGE })
      .check(z.minLength(1, REQUIRED_MESSAGE), z.maxLength(maxCount, said.tooMany)),
  );
  const schema = maxCount === 1 ? one : several;
  // The count in the definition's type, so that a webhook body takes a field of several files only as a list
  // (storedFilesBase64), never as one (storedFileBase64).
  return field("file", name, label, schema, { ...presentation, accepts }) as FormField<Name, typeof schema> & {
    definition: { accepts: FileAcceptance & { maxCount: Count } };
  };
}

/**
 * A field of photos as phones take them, cleaned on the server (upright, metadata gone) before they are stored.
 * `thumbnail` only for a form whose document prints the photos small.
 */
export const photo = <const Name extends string, const Count extends number>(
  name: Name,
  label: string,
  { thumbnail, ...options }: FileOptions & { maxCount: Count; thumbnail?: ThumbnailBox },
) => file(name, label, PHOTO, options, { thumbnail });

/** A value the server works out and stores (an average, a score), not asked: only printed. */
export const computed = <const Name extends string>(
  name: Name,
  label: string,
  read: NonNullable<FieldDefinition["read"]>,
) => field("text", name, label, undefined, { read });

type ShapeOf<Fields extends readonly FormField[]> = {
  [Field in Fields[number] as Field["schema"] extends z.ZodMiniType ? Field["definition"]["name"] : never]: Extract<
    Field["schema"],
    z.ZodMiniType
  >;
};

/**
 * A form's questions, each written once, in the form's order: the schema that checks the answers (for the
 * browser and the server) and the definitions that show and print them.
 */
export function formFields<const Fields extends readonly FormField[]>(...fields: Fields) {
  const shape = Object.fromEntries(
    fields.flatMap(({ definition, schema }) => (schema ? [[definition.name, schema]] : [])),
  ) as ShapeOf<Fields>;
  return {
    schema: z.object(shape),
    fields: fields.map((field) => field.definition) as {
      readonly [Index in keyof Fields]: Fields[Index]["definition"];
    },
  };
}
