import type { AppLoadContext } from "react-router";
import type { SubmittedFile } from "~/features/deliveries/submission-store.server";
import { type PreparedUploads, submitForm } from "~/forms/submit-form.server";
import { cleanPhoto } from "~/server/photos/clean-photo.server";
import { checklistPdf } from "./checklist-pdf.server";
import { CHECKLIST_PDF_FIELD, checklistForm } from "./definition";
import { checklistFileName } from "./file-name";
import { checklistAnswers } from "./schema";

/**
 * The checklist's action: the photos are stored upright and without their location, the PDF is built from
 * the answers and the photos, and both are stored with the checklist and its deliveries in one transaction.
 */
export function submitChecklist(request: Request, context: AppLoadContext) {
  return submitForm(request, context, checklistForm, {
    payload: checklistAnswers,
    prepareUploads: cleanPhotos,
    document: async (answers, _context, photos) => {
      const submittedAt = new Date();
      return [
        {
          fieldName: CHECKLIST_PDF_FIELD,
          fileName: checklistFileName(answers.projectName, submittedAt),
          contentType: "application/pdf",
          content: await checklistPdf(answers, photos, submittedAt),
        },
      ];
    },
  });
}

/** Every photo cleaned, one at a time (each is tens of megabytes decoded); one that cannot be is left out. */
async function cleanPhotos(uploads: SubmittedFile[]): Promise<PreparedUploads> {
  const prepared: PreparedUploads = { files: [], problems: [] };
  for (const upload of uploads) {
    const cleaned = await cleanPhoto(upload);
    if (cleaned.ok) prepared.files.push(cleaned.file);
    else prepared.problems.push({ fieldName: upload.fieldName, fileName: upload.fileName, reason: cleaned.reason });
  }
  return prepared;
}
