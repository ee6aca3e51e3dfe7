import { megabytes } from "./megabytes";
import type { PhotoUpload } from "./use-photo-uploads";

type AddedPhotosProps = {
  /** The photo field's label, which names the list. */
  label: string;
  photos: readonly File[];
  /** Each photo's thumbnail, once made. */
  previews: ReadonlyMap<File, string>;
  uploads: ReadonlyMap<File, PhotoUpload> | undefined;
  onRemove: (photo: File) => void;
};

/** The photos in the list, each with its thumbnail, name, size, upload and a Remove button. */
export function AddedPhotos({ label, photos, previews, uploads, onRemove }: AddedPhotosProps) {
  return (
    <section aria-label={label}>
      <p className="font-medium text-slate-900">
        {photos.length} {photos.length === 1 ? "photo" : "photos"} added
      </p>
      <ul className="mt-2 grid gap-3 sm:grid-cols-2">
        {photos.map((photo) => (
          <AddedPhoto
            key={`${photo.name}-${photo.size}`}
            photo={photo}
            preview={previews.get(photo)}
            upload={uploads?.get(photo)}
            onRemove={onRemove}
          />
        ))}
      </ul>
    </section>
  );
}

function AddedPhoto({
  photo,
  preview,
  upload,
  onRemove,
}: {
  photo: File;
  preview: string | undefined;
  upload: PhotoUpload | undefined;
  onRemove: (photo: File) => void;
}) {
  return (
    <li className="flex items-center gap-3 rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200">
      {preview ? (
        <img src={preview} alt="" width={64} height={48} className="h-12 w-16 rounded object-cover" />
      ) : (
        <span className="grid h-12 w-16 place-items-center rounded bg-slate-200 text-xs text-slate-700">Photo</span>
      )}
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-slate-900">{photo.name}</span>
        <span className="text-sm text-slate-700">{megabytes(photo.size)}</span>
        <UploadState photo={photo} upload={upload} />
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
