import { useEffect, useRef, useState } from "react";
import type { DeviceFormDraft } from "~/components/forms/use-device-form";
import { mergePhotos } from "./photo-list";
import { PHOTOS_FIELD } from "./schema";

/**
 * The checklist's photo list, kept with the draft in place of the photo input (which is emptied after each pick),
 * and what the last change to it said: the photos skipped as already there, or the one removed.
 */
export function useChecklistPhotos({ restoredFiles, keepFiles }: Pick<DeviceFormDraft, "restoredFiles" | "keepFiles">) {
  const [photos, setPhotos] = useState<File[]>([]);
  const [notice, setNotice] = useState<string>();

  const photosNow = useRef(photos);
  photosNow.current = photos;
  useEffect(() => {
    if (!restoredFiles) return;
    const restored = restoredFiles[PHOTOS_FIELD] ?? [];
    // Photos picked while the draft was being read are kept beside the draft's, and saved with them.
    const merged = mergePhotos(restored, photosNow.current).photos;
    setPhotos(merged);
    if (merged.length > restored.length) void keepFiles(PHOTOS_FIELD, merged);
  }, [restoredFiles, keepFiles]);

  const change = (next: File[], said: string | undefined) => {
    setPhotos(next);
    setNotice(said);
    void keepFiles(PHOTOS_FIELD, next);
  };
  const add = (added: File[]) => {
    const merged = mergePhotos(photos, added);
    const skipped = merged.skipped.length > 0 ? merged.skipped.join(", ") : undefined;
    change(merged.photos, skipped ? `Already in the list, so not added again: ${skipped}.` : undefined);
  };
  const remove = (photo: File) =>
    change(
      photos.filter((candidate) => candidate !== photo),
      `Removed ${photo.name}.`,
    );
  /** A new checklist (stored, or handed to the queue) starts with no photos. */
  const clear = () => {
    setPhotos([]);
    setNotice(undefined);
  };

  return { photos, notice, add, remove, clear };
}
