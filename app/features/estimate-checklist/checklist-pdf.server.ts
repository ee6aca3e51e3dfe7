import { labelledAnswers } from "~/forms/answers-pdf.server";
import type { FieldDefinition } from "~/forms/definition";
import type { UploadProblem } from "~/forms/photos.server";
import { NOT_PROVIDED, printAnswer } from "~/forms/print-answer";
import { createPdfDocument, mm, toBuffer } from "~/services/pdf/pdf-document.server";
import { heading, imageGrid, labelledAnswer, type PdfImage, paragraph } from "~/services/pdf/pdf-layout.server";
import type { Thumbnail } from "~/services/photos/clean-photo.server";
import { checklistForm } from "./definition";
import { PIXELS_PER_POINT, THUMBNAIL_BOX } from "./pdf-thumbnail";
import type { ChecklistAnswers } from "./schema";

export const CHECKLIST_PDF_TITLE = "Estimate Checklist";

/** A photo's thumbnail as the PDF places it, captioned with its name. */
export function checklistPdfImage(thumbnail: Thumbnail, fileName: string): PdfImage {
  return {
    jpeg: thumbnail.jpeg,
    width: thumbnail.width / PIXELS_PER_POINT,
    height: thumbnail.height / PIXELS_PER_POINT,
    caption: fileName,
  };
}

/**
 * The checklist as a PDF: the title, who completed it and when, then every section with each label and its
 * answer ("(Not provided)" when blank), the site photos' thumbnails (checklistPdfImage) in the photo section,
 * and a note for each photo that could not be used, naming the file and why.
 */
export async function checklistPdf(
  answers: ChecklistAnswers,
  { images, problems }: { images: readonly PdfImage[]; problems: readonly UploadProblem[] },
  submittedAt: Date,
): Promise<Uint8Array> {
  const doc = createPdfDocument({
    title: `${CHECKLIST_PDF_TITLE}: ${answers.projectName || "Project"}`,
    margin: mm(15),
  });
  heading(doc, CHECKLIST_PDF_TITLE, 18, "center");
  doc.moveDown(0.3);
  const when = printAnswer({ name: "submittedAt", label: "Submitted", kind: "date" }, submittedAt.toISOString());
  paragraph(doc, `Completed by ${answers.fillerName} (${answers.fillerEmail}) on ${when}`, 11);
  doc.moveDown(0.5);
  labelledAnswers(doc, checklistForm, answers, {
    size: 10,
    sectionSize: 13,
    fileField: (field: FieldDefinition) => {
      if (images.length === 0 && problems.length === 0) {
        labelledAnswer(doc, field.label, NOT_PROVIDED);
        return;
      }
      labelledAnswer(doc, field.label, `${images.length} of ${images.length + problems.length} included below.`);
      imageGrid(doc, images, { cellWidth: THUMBNAIL_BOX.width, cellHeight: THUMBNAIL_BOX.height });
      for (const problem of problems) {
        paragraph(doc, `Photo "${problem.fileName}" could not be included: ${problem.reason}.`, 10);
        doc.moveDown(0.3);
      }
    },
  });
  return toBuffer(doc);
}
