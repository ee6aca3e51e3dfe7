import { useEffect, useRef } from "react";
import { labellingOf } from "~/components/forms/defined-field";
import { fileInputClass } from "~/components/forms/field-look";
import { FileField } from "~/components/forms/file-field";
import type { FieldDefinition } from "~/forms/definition";
import { AddedPhotos } from "./added-photos";
import { usePhotoPreviews } from "./use-photo-previews";
import type { PhotoUpload } from "./use-photo-uploads";

/**
 * The site photos: picked several at a time or taken with the camera, listed by name with a thumbnail (a
 * HEIC's made by the server, since only Safari draws one), each with a Remove button. Without JavaScript the picker is a plain file input
 * that posts with the form.
 */
export function PhotoPicker({
  definition,
  photos,
  uploads,
  notice,
  hydrated,
  errors,
  onAdd,
  onRemove,
}: {
  definition: FieldDefinition;
  photos: readonly File[];
  /** How far each photo's upload is, while the form is filled. */
  uploads?: ReadonlyMap<File, PhotoUpload>;
  /** What the last addition said: the photos skipped as already in the list. */
  notice: string | undefined;
  hydrated: boolean;
  errors?: readonly string[];
  onAdd: (files: File[]) => void;
  onRemove: (photo: File) => void;
}) {
  const previews = usePhotoPreviews(photos);
  const picker = useRef<HTMLInputElement>(null);
  const takeFrom = (input: HTMLInputElement) => {
    onAdd([...(input.files ?? [])]);
    // The photos now live in the list; the input is emptied so the same photo can be picked again after a remove.
    input.value = "";
  };
  const add = (event: React.ChangeEvent<HTMLInputElement>) => takeFrom(event.currentTarget);
  // Photos picked before the page's script ran (a slow phone shows the form first) are in the input but were never
  // listed, and the submit sends only the listed ones: they join the list as the page comes alive.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run once, when the page comes alive, not on each render
  useEffect(() => {
    if (hydrated && picker.current?.files?.length) takeFrom(picker.current);
  }, [hydrated]);
  return (
    <div className="grid gap-4 sm:col-span-2">
      <FileField
        {...labellingOf(definition)}
        label={hydrated ? "Choose photos" : definition.label}
        name={definition.name}
        errors={errors}
        multiple
        accept={definition.accepts?.type.accept}
        data-listed-files
        ref={picker}
        onChange={hydrated ? add : undefined}
      />
      {hydrated ? (
        <div>
          <label htmlFor="checklist-camera" className="block font-medium text-slate-900">
            Take a photo
          </label>
          <input
            id="checklist-camera"
            type="file"
            accept="image/*"
            capture="environment"
            onChange={add}
            className={fileInputClass}
          />
        </div>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700">
        {notice}
      </p>
      {photos.length > 0 ? (
        <AddedPhotos
          label={definition.label}
          photos={photos}
          previews={previews}
          uploads={uploads}
          onRemove={onRemove}
        />
      ) : null}
    </div>
  );
}
