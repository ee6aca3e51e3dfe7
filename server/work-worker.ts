import { checklistPdf } from "../app/features/estimate-checklist/checklist-pdf.server";
import { peerReviewPdf } from "../app/features/peer-review/peer-review-pdf.server";
import { cleanPhotoWithThumbnail } from "../app/server/photos/clean-photo.server";

/**
 * What the worker threads of app/server/work-pool.server.ts run, by name. Bundled by scripts/build.mjs to
 * build/server-entry/work-worker.js; its arguments and results cross threads by structured clone.
 */
export const workTasks = { cleanPhotoWithThumbnail, checklistPdf, peerReviewPdf };

export type WorkTasks = typeof workTasks;

export default function runWorkTask({ task, args }: { task: keyof WorkTasks; args: unknown[] }) {
  return (workTasks[task] as (...args: unknown[]) => unknown)(...args);
}
