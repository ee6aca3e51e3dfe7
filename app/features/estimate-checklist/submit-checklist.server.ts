import type { AppLoadContext } from "react-router";
import { submitForm } from "~/forms/submit-form.server";
import type { PdfImage } from "~/services/pdf/pdf-layout.server";
import { inWorker } from "~/services/work-pool/work-pool.server";
import { checklistPdfImage } from "./checklist-pdf.server";
import { CHECKLIST_PDF_FIELD, checklistForm } from "./definition";
import { checklistFileName } from "./file-name";
import { checklistAnswers } from "./schema";
import { workTasks } from "./work-tasks.server";

/**
 * The checklist's action: the platform stores the photos upright and without their location, each with its
 * thumbnail; the PDF is built from the answers and those thumbnails in the work pool, before the database is
 * asked for a connection, and stored with the checklist and its deliveries in one transaction.
 */
export function submitChecklist(request: Request, context: AppLoadContext) {
  return submitForm(request, context, checklistForm, {
    payload: checklistAnswers,
    document: async (answers, _context, photos) => {
      const submittedAt = new Date();
      const images: PdfImage[] = photos.files.flatMap((file) =>
        file.photo?.thumbnail ? [checklistPdfImage(file.photo.thumbnail, file.fileName)] : [],
      );
      return [
        {
          fieldName: CHECKLIST_PDF_FIELD,
          fileName: checklistFileName(answers.projectName, submittedAt),
          contentType: "application/pdf",
          content: await inWorker(
            context.config,
            workTasks.checklistPdf,
            answers,
            { images, problems: photos.problems },
            submittedAt,
          ),
        },
      ];
    },
  });
}
