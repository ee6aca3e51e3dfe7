import { useEffect, useRef, useState } from "react";

/** Types a browser can draw as an image; other files (a HEIC on most desktops) are listed by name only. */
const previewable = (file: File) => file.type.startsWith("image/") && !/hei[cf]/i.test(file.type);

/**
 * An object URL for each photo the browser can show, made once per file. A URL is revoked as soon as its
 * photo leaves the list, and every one when the screen is left, so the photos' memory is given back.
 */
export function usePhotoPreviews(photos: readonly File[]): ReadonlyMap<File, string> {
  const urls = useRef(new Map<File, string>());
  const [previews, setPreviews] = useState<ReadonlyMap<File, string>>(new Map());

  useEffect(() => {
    const next = new Map<File, string>();
    for (const photo of photos) {
      if (!previewable(photo)) continue;
      next.set(photo, urls.current.get(photo) ?? URL.createObjectURL(photo));
    }
    for (const [photo, url] of urls.current) if (!next.has(photo)) URL.revokeObjectURL(url);
    urls.current = next;
    setPreviews(next);
  }, [photos]);

  useEffect(
    () => () => {
      for (const url of urls.current.values()) URL.revokeObjectURL(url);
      urls.current = new Map();
    },
    [],
  );
  return previews;
}
