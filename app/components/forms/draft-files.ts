import type { DraftFile } from "~/forms/device-forms";

/*
 * A staff form's files in its draft (app/forms/device-forms.ts): read from the form's file inputs, or from the
 * list a form holds for a field instead, and put back in the inputs when the draft opens.
 */

export const isFileInput = (target: EventTarget | null): target is HTMLInputElement =>
  target instanceof HTMLInputElement && target.type === "file" && target.name !== "";

const fileInputsOf = (form: HTMLFormElement) =>
  [...form.querySelectorAll<HTMLInputElement>("input[type=file][name]")].filter(isFileInput);

/** The files to keep: each file input's choice, or the list a form holds for the field instead. */
export function filesIn(form: HTMLFormElement, held: ReadonlyMap<string, File[]>): DraftFile[] {
  const fields = new Set([...fileInputsOf(form).map((input) => input.name), ...held.keys()]);
  return [...fields].flatMap((field) => {
    const files =
      held.get(field) ?? fileInputsOf(form).flatMap((input) => (input.name === field ? [...(input.files ?? [])] : []));
    return files.map((file) => ({ field, file }));
  });
}

/** Kept files by field; those kept before drafts named their field belong to the form's first file field. */
export function byField(form: HTMLFormElement, files: readonly DraftFile[]): Record<string, File[]> {
  const firstField = fileInputsOf(form)[0]?.name ?? "";
  const fields: Record<string, File[]> = {};
  for (const { field, file } of files) {
    const name = field || firstField;
    fields[name] = [...(fields[name] ?? []), file];
  }
  return fields;
}

/**
 * Puts the kept files back in their inputs, but for an input the person already used while the draft was read,
 * and one whose files the form lists itself (`data-listed-files`: it empties the input after each pick).
 */
export function restoreFiles(form: HTMLFormElement, files: Record<string, File[]>, editedEarly: ReadonlySet<string>) {
  for (const input of fileInputsOf(form)) {
    const kept = files[input.name];
    if (!kept?.length || editedEarly.has(input.name) || "listedFiles" in input.dataset) continue;
    const transfer = new DataTransfer();
    for (const file of kept) transfer.items.add(file);
    input.files = transfer.files;
  }
}
