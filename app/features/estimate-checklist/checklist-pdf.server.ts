import { labelledAnswers } from "~/forms/answers-pdf.server";
import type { FieldDefinition } from "~/forms/definition";
import { NOT_PROVIDED, printAnswer } from "~/forms/print-answer";
import type { UploadProblem } from "~/forms/submit-form.server";
import type { SubmittedFile } from "~/outbox/submission-store.server";
import { createPdfDocument, mm, toBuffer } from "~/server/pdf/pdf-document.server";
import { heading, imageGrid, labelledAnswer, type PdfImage, paragraph } from "~/server/pdf/pdf-layout.server";
import { unprocessableReason } from "~/server/photos/clean-photo.server";
import { photoThumbnail } from "~/server/photos/photo-thumbnail.server";
import { checklistForm } from "./definition";
import type { ChecklistAnswers } from "./schema";

export const CHECKLIST_PDF_TITLE = "Estimate Checklist";

/** A thumbnail's box in the PDF, in points; its image has twice the pixels, so it prints sharp (spec §9). */
const THUMBNAIL_BOX = { width: 160, height: 120 } as const;
const PIXELS_PER_POINT = 2;

/**
 * The checklist as a PDF: the title, who completed it and when, then every section with each label and its
 * answer ("(Not provided)" when blank), the site photos as upright thumbnails in the photo section, and a note
 * for each photo that could not be used, naming the file and why.
 */
export async function checklistPdf(
  answers: ChecklistAnswers,
  photos: { files: readonly SubmittedFile[]; problems: readonly UploadProblem[] },
  submittedAt: Date,
): Promise<Uint8Array> {
  const { images, problems } = await thumbnails(photos);
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

/** Each photo's thumbnail, in the order they came; one that cannot be made joins the problems. */
async function thumbnails(photos: {
  files: readonly SubmittedFile[];
  problems: readonly UploadProblem[];
}): Promise<{ images: PdfImage[]; problems: UploadProblem[] }> {
  const images: PdfImage[] = [];
  const problems = [...photos.problems];
  // One at a time: a 12-megapixel photo is 48 MB decoded, and the server has other requests to serve.
  for (const photo of photos.files) {
    try {
      const thumbnail = await photoThumbnail(
        photo.content,
        THUMBNAIL_BOX.width * PIXELS_PER_POINT,
        THUMBNAIL_BOX.height * PIXELS_PER_POINT,
      );
      images.push({
        jpeg: thumbnail.jpeg,
        width: thumbnail.width / PIXELS_PER_POINT,
        height: thumbnail.height / PIXELS_PER_POINT,
        caption: photo.fileName,
      });
    } catch (error) {
      problems.push({ fieldName: photo.fieldName, fileName: photo.fileName, reason: unprocessableReason(error) });
    }
  }
  return { images, problems };
}
