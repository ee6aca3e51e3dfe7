import { useCallback, useEffect, useRef, useState } from "react";
import type { DetailedError, Upload } from "tus-js-client";
import { RESUMABLE_UPLOADS_PATH, type ResumableUploadMetadata } from "~/forms/resumable-uploads";
import { checklistForm } from "./definition";
import { PHOTOS_FIELD } from "./schema";

/**
 * Where a photo's upload stands: bytes up so far, once complete the upload's id that the post names, and when the
 * server refused it, its words why (the photo then goes with the checklist).
 */
export type PhotoUpload = { sent: number; total: number; uploadId?: string; stalled?: boolean; refused?: string };

/**
 * A photo's upload under way; `settled` resolves when it completes, stops for want of a connection, or is
 * refused.
 */
type Running = { upload: Upload; uploadId?: string; stalled: boolean; settled: Promise<void>; settle: () => void };

/** A fresh `settled` for a run that starts (again). */
function unsettled(): Pick<Running, "settled" | "settle"> {
  let settle = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { settled, settle };
}

// Retried on their own for a minute; after that (or at once when the device is offline) an upload waits for the
// browser's `online` event, and a post meanwhile sends the photo itself.
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 20_000];

/**
 * The server's refusal of an upload, in its words: a 4xx other than tus's conflicts (too large, over the
 * person's cap, not a photo) or 507 (its disk is short of space). Neither changes by trying again.
 */
function refusalOf(error: Error): string | undefined {
  const response = (error as Partial<DetailedError>).originalResponse;
  const status = response?.getStatus() ?? 0;
  const refused = (status >= 400 && status < 500 && status !== 409 && status !== 423) || status === 507;
  return refused ? response?.getBody().trim() || undefined : undefined;
}

/**
 * Each photo starts going up to the server as soon as it is in the list, resumably (tus-js-client): a dropped
 * connection continues from the last byte the server holds, and so does a reload, since tus keeps each photo's
 * upload URL on the device under the photo's fingerprint (name, type, size, date) and the draft keeps the photo
 * itself. A photo removed from the list has its upload cancelled and deleted on the server.
 */
export function usePhotoUploads(photos: readonly File[]) {
  const [uploads, setUploads] = useState<ReadonlyMap<File, PhotoUpload>>(new Map());
  const running = useRef(new Map<File, Running>());

  const update = useCallback((photo: File, change: Partial<PhotoUpload>) => {
    setUploads((current) => {
      if (!running.current.has(photo)) return current;
      const next = new Map(current);
      next.set(photo, { sent: 0, total: photo.size, ...current.get(photo), ...change });
      return next;
    });
  }, []);

  useEffect(() => {
    const wanted = new Set(photos);
    for (const [photo, { upload, settle }] of running.current) {
      if (wanted.has(photo)) continue;
      running.current.delete(photo);
      settle();
      void upload.abort(true).catch(() => undefined);
    }
    setUploads((current) => new Map([...current].filter(([photo]) => wanted.has(photo))));
    const added = photos.filter((photo) => !running.current.has(photo));
    if (added.length === 0) return;
    void import("tus-js-client").then((tus) => {
      for (const photo of added) {
        if (running.current.has(photo) || !wanted.has(photo)) continue;
        const run = uploadOf(photo, tus, update);
        running.current.set(photo, run);
        update(photo, {});
        void run.upload.findPreviousUploads().then((previous) => {
          const [latest] = previous;
          if (latest) run.upload.resumeFromPreviousUpload(latest);
          run.upload.start();
        });
      }
    });
  }, [photos, update]);

  // Back online: the uploads that gave up go on from where the server stopped.
  useEffect(() => {
    const resume = () => {
      for (const run of running.current.values()) {
        if (!run.stalled) continue;
        Object.assign(run, { stalled: false }, unsettled());
        run.upload.start();
      }
    };
    window.addEventListener("online", resume);
    return () => window.removeEventListener("online", resume);
  }, []);

  // Leaving the page stops the transfers; the server keeps what it has, for the next visit to continue.
  useEffect(() => {
    const all = running.current;
    return () => {
      for (const { upload } of all.values()) void upload.abort(false);
      all.clear();
    };
  }, []);

  /**
   * Waits until every photo's upload is complete or has stopped for want of a connection; resolves with the
   * upload id of each photo that is up.
   */
  const settled = useCallback(async (): Promise<ReadonlyMap<File, string>> => {
    const runs = [...running.current];
    await Promise.all(runs.map(([, run]) => run.settled));
    return new Map(runs.flatMap(([photo, run]) => (run.uploadId ? [[photo, run.uploadId] as const] : [])));
  }, []);

  return { uploads, settled };
}

type Update = (photo: File, change: Partial<PhotoUpload>) => void;

/** A photo's upload, not started yet, telling `update` how far it is; a refused upload is not tried again. */
function uploadOf(photo: File, { Upload, defaultOptions }: typeof import("tus-js-client"), update: Update): Running {
  const metadata: ResumableUploadMetadata = {
    formType: checklistForm.type,
    fieldName: PHOTOS_FIELD,
    filename: photo.name,
  };
  const upload = new Upload(photo, {
    endpoint: new URL(RESUMABLE_UPLOADS_PATH, window.location.href).href,
    metadata,
    retryDelays: RETRY_DELAYS,
    onShouldRetry: (error, attempt, options) =>
      refusalOf(error) === undefined && (defaultOptions.onShouldRetry?.(error, attempt, options) ?? false),
    onProgress: (sent, total) => update(photo, { sent, total, stalled: false }),
    onSuccess: () => {
      run.uploadId = upload.url?.split("/").pop();
      run.stalled = false;
      update(photo, { sent: photo.size, uploadId: run.uploadId, stalled: false });
      run.settle();
    },
    onError: (error) => {
      const refused = refusalOf(error);
      // A refused upload is not tried again when the signal comes back: its photo goes with the checklist.
      run.stalled = refused === undefined;
      update(photo, refused === undefined ? { stalled: true } : { stalled: false, refused });
      run.settle();
    },
  });
  const run: Running = { upload, stalled: false, ...unsettled() };
  return run;
}
