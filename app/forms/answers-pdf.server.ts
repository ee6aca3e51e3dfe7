import { labelledAnswer, labelledAnswerHeight, sectionHeading } from "~/services/pdf/pdf-layout.server";
import type { AnyFormDefinition, FieldDefinition } from "./definition";
import { answerRows, type StoredFileName } from "./print-answer";

/**
 * Every field of a submission as the form labels it and the answer printer prints it (the same words as the
 * inbox, the CSV and the emails): the label in bold, the answer below it, a page break between fields. Fields
 * laid out in sections get their section's heading where a section starts. A file field is drawn by
 * `fileField` when given (a photo grid); otherwise it lists its files' names when `files` are given.
 */
export function labelledAnswers(
  doc: PDFKit.PDFDocument,
  definition: Pick<AnyFormDefinition, "fields">,
  payload: Record<string, unknown>,
  options: {
    size?: number;
    sectionSize?: number;
    files?: readonly StoredFileName[];
    fileField?: (field: FieldDefinition) => void;
  } = {},
) {
  const size = options.size ?? 10;
  let section: string | undefined;
  for (const field of definition.fields) {
    const [row] =
      field.kind === "file" && options.fileField ? [] : answerRows({ fields: [field] }, payload, options.files);
    if (field.section !== undefined && field.section !== section) {
      section = field.section;
      const firstHeight = row ? labelledAnswerHeight(doc, row[0], row[1], size) : size * 3;
      sectionHeading(doc, section, options.sectionSize ?? size + 3, firstHeight);
    }
    if (field.kind === "file" && options.fileField) options.fileField(field);
    else if (row) labelledAnswer(doc, row[0], row[1], size);
  }
}
