import type { BrowserAnswer } from "~/forms/browser-answer";
import { handOverOnFailure, type KeptAnswer } from "~/forms/queue-answer";
import { uploadIdsFieldOf } from "~/forms/resumable-uploads";
import { type ForeignAnswer, sendForm, type UploadProgress } from "~/forms/send-form";
import { type ChecklistActionResult, checklistForm } from "./definition";
import { PHOTOS_FIELD } from "./schema";

const { messages } = checklistForm;

export type ChecklistAnswer = ChecklistActionResult | BrowserAnswer | ForeignAnswer | KeptAnswer;

type ChecklistSend = {
  /** The checklist's answers, without its photos. */
  body: FormData;
  photos: readonly File[];
  submitUrl: string;
  /** The photos already up, by their upload's id: the post names them instead of carrying them. */
  uploadIds: ReadonlyMap<File, string>;
  onProgress: (progress: UploadProgress) => void;
  /** Told which photos each send names by their upload, so that a send again can name the same. */
  onSend: (named: ReadonlyMap<File, string>) => void;
};

/**
 * Posts the checklist with upload progress, handed to the device's queue when it cannot be sent. When the server
 * no longer has an upload (a day old, or kept by another instance), it is sent again with the photos themselves.
 */
export async function sendChecklist({ body, photos, submitUrl, uploadIds, onProgress, onSend }: ChecklistSend) {
  const queue = {
    formType: checklistForm.type,
    label: checklistForm.label,
    page: window.location.pathname,
    action: submitUrl,
    answeredInJson: true,
  };
  const keepOnDevice = handOverOnFailure(queue, messages);
  const send = (named: ReadonlyMap<File, string>) => {
    onSend(named);
    return sendForm<ChecklistActionResult, KeptAnswer>(
      submitUrl,
      postWith(body, photos, named),
      messages,
      onProgress,
      (_, failure) =>
        // What waits on the device carries the photos themselves, not their uploads: the signal may return after
        // the server let an upload go (a day on), and the draft that had the photos is gone by then.
        keepOnDevice(postWith(body, photos, new Map()), failure),
    );
  };
  const sent = await send(uploadIds);
  if (sent.status === "error" && "problems" in sent && sent.problems?.[uploadIdsFieldOf(PHOTOS_FIELD)]) {
    return send(new Map());
  }
  return sent;
}

/** The post: the answers, and each photo named by its upload, or carried when it has none. */
function postWith(body: FormData, photos: readonly File[], named: ReadonlyMap<File, string>) {
  const withPhotos = new FormData();
  for (const [name, value] of body) withPhotos.append(name, value);
  for (const photo of photos) {
    const uploadId = named.get(photo);
    if (uploadId) withPhotos.append(uploadIdsFieldOf(PHOTOS_FIELD), uploadId);
    else withPhotos.append(PHOTOS_FIELD, photo, photo.name);
  }
  return withPhotos;
}
