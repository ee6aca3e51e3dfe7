import { useEffect, useRef, useState } from "react";
import { PHOTO_PREVIEW_FIELD, PHOTO_PREVIEW_PATH } from "./photo-preview";

/** A HEIC or HEIF photo, as iPhones take them; some browsers give such a file no type, only its name. */
const isHeif = (file: File) => /hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name);

/** Types every browser draws as an image. */
const drawable = (file: File) => file.type.startsWith("image/") && !isHeif(file);

/** How long to wait before asking again when the server was busy or out of reach, and how many times. */
const RETRY_DELAYS_MS = [2_000, 5_000, 10_000];

const pause = (milliseconds: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** One ask: the JPEG, undefined when there is none to be had, or "again" when the server was busy or unreachable. */
async function askForPreview(photo: File, signal: AbortSignal): Promise<Blob | undefined | "again"> {
  const body = new FormData();
  body.set(PHOTO_PREVIEW_FIELD, photo);
  try {
    const response = await fetch(PHOTO_PREVIEW_PATH, { method: "POST", body, signal });
    if (response.status >= 500) return "again";
    const isJpeg = response.headers.get("content-type") === "image/jpeg";
    return response.ok && isJpeg ? await response.blob() : undefined;
  } catch {
    return signal.aborted ? undefined : "again";
  }
}

/**
 * A small JPEG of the photo from the server, which decodes HEIC as the submit does; asked again a few times while
 * the server is busy (its photo workers full) or out of reach. Undefined when it cannot be had (signed out, a
 * damaged photo, the photo removed meanwhile, or still no answer), and the list shows its placeholder instead.
 */
async function serverPreview(photo: File, signal: AbortSignal): Promise<Blob | undefined> {
  for (const delay of [...RETRY_DELAYS_MS, undefined]) {
    const answer = await askForPreview(photo, signal);
    if (answer !== "again") return answer;
    if (delay === undefined || signal.aborted) return undefined;
    await pause(delay, signal);
  }
  return undefined;
}

/**
 * An object URL for each photo that can be shown, made once per file: the file itself where the browser draws
 * it, and for a HEIC (which only Safari draws) a preview the server makes, asked for once, when the photo is
 * picked. A URL is revoked, and a preview still on its way cancelled, as soon as its photo leaves the list, and
 * all of them when the screen is left, so the photos' memory is given back.
 */
export function usePhotoPreviews(photos: readonly File[]): ReadonlyMap<File, string> {
  const urls = useRef(new Map<File, string>());
  // One per HEIC asked for, kept after its answer so that a photo the server could not preview is not sent again.
  const serverRequests = useRef(new Map<File, AbortController>());
  const [previews, setPreviews] = useState<ReadonlyMap<File, string>>(new Map());

  useEffect(() => {
    const listed = new Set(photos);
    for (const [photo, url] of urls.current) {
      if (listed.has(photo)) continue;
      URL.revokeObjectURL(url);
      urls.current.delete(photo);
    }
    for (const [photo, request] of serverRequests.current) {
      if (listed.has(photo)) continue;
      request.abort();
      serverRequests.current.delete(photo);
    }
    const publish = () => setPreviews(new Map(urls.current));
    for (const photo of photos) {
      if (urls.current.has(photo) || serverRequests.current.has(photo)) continue;
      if (drawable(photo)) {
        urls.current.set(photo, URL.createObjectURL(photo));
      } else if (isHeif(photo)) {
        const request = new AbortController();
        serverRequests.current.set(photo, request);
        void serverPreview(photo, request.signal).then((jpeg) => {
          if (!jpeg || request.signal.aborted) return;
          urls.current.set(photo, URL.createObjectURL(jpeg));
          publish();
        });
      }
    }
    publish();
  }, [photos]);

  useEffect(
    () => () => {
      for (const url of urls.current.values()) URL.revokeObjectURL(url);
      for (const request of serverRequests.current.values()) request.abort();
      urls.current = new Map();
      serverRequests.current = new Map();
    },
    [],
  );
  return previews;
}
