import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { checklistPdf } from "../app/features/estimate-checklist/checklist-pdf.server";
import { peerReviewPdf } from "../app/features/peer-review/peer-review-pdf.server";
import { peerReviewReportPdf } from "../app/features/peer-review/peer-review-report-pdf.server";
import { cleanPhotoWithThumbnail } from "../app/server/photos/clean-photo.server";

/**
 * What the worker threads of app/server/work-pool.server.ts run, by name. Bundled by scripts/build.mjs to
 * build/server-entry/work-worker.js; its arguments and results cross threads by structured clone.
 */
export const workTasks = { cleanPhotoWithThumbnail, checklistPdf, peerReviewPdf, peerReviewReportPdf };

export type WorkTasks = typeof workTasks;

/**
 * On Linux each thread has its own niceness, and the threads libvips starts from this one inherit it: photo and
 * PDF work then gives way to the thread that answers the pages when both want a core. (Measured with four
 * checklists at once, the sign-in page's worst time did not change with it: that stall is elsewhere.)
 */
function yieldToThePages() {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (threadId > 0) setPriority(threadId, 10);
  } catch {
    // Elsewhere than Linux there is no per-thread niceness to set: the work runs as before.
  }
}
yieldToThePages();

export default function runWorkTask({ task, args }: { task: keyof WorkTasks; args: unknown[] }) {
  return (workTasks[task] as (...args: unknown[]) => unknown)(...args);
}
