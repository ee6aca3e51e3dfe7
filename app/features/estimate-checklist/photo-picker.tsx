import { useEffect, useRef } from "react";
import { labellingOf } from "~/components/forms/defined-field";
import { fileInputClass } from "~/components/forms/field-look";
import { FileField } from "~/components/forms/file-field";
import type { FieldDefinition } from "~/forms/definition";
import { usePhotoPreviews } from "./use-photo-previews";
import type { PhotoUpload } from "./use-photo-uploads";

/** A size as a person reads it on a phone: "840 KB", "3.2 MB". */
export const megabytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

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
        <section aria-label={definition.label}>
          <p className="font-medium text-slate-900">
            {photos.length} {photos.length === 1 ? "photo" : "photos"} added
          </p>
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">
            {photos.map((photo) => {
              const preview = previews.get(photo);
              return (
                <li
                  key={`${photo.name}-${photo.size}`}
                  className="flex items-center gap-3 rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200"
                >
                  {preview ? (
                    <img src={preview} alt="" width={64} height={48} className="h-12 w-16 rounded object-cover" />
                  ) : (
                    <span className="grid h-12 w-16 place-items-center rounded bg-slate-200 text-xs text-slate-700">
                      Photo
                    </span>
                  )}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900">{photo.name}</span>
                    <span className="text-sm text-slate-700">{megabytes(photo.size)}</span>
                    <UploadState photo={photo} upload={uploads?.get(photo)} />
                  </span>
                  <button
                    type="button"
                    onClick={() => onRemove(photo)}
                    className="button-secondary px-3 py-1 text-sm"
                    aria-label={`Remove ${photo.name}`}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** A photo's upload in words, with a bar while it goes up. */
function UploadState({ photo, upload }: { photo: File; upload: PhotoUpload | undefined }) {
  if (!upload) return null;
  if (upload.refused) {
    return (
      <span role="status" className="block text-sm font-medium text-red-800">
        {upload.refused}
      </span>
    );
  }
  const said = upload.uploadId
    ? "Uploaded"
    : upload.stalled
      ? `Upload paused at ${megabytes(upload.sent)}: it goes on with a signal, or is sent with the checklist`
      : `Uploading: ${megabytes(upload.sent)} of ${megabytes(upload.total)}`;
  return (
    <span className="flex items-center gap-2 text-sm text-slate-700">
      {upload.uploadId ? null : (
        <progress value={upload.sent} max={upload.total} aria-label={`Upload of ${photo.name}`} className="w-20" />
      )}
      <span>{said}</span>
    </span>
  );
}
