import contentDisposition from "content-disposition";
import { createPdfDocument, mm, toBuffer } from "~/services/pdf/pdf-document.server";
import { heading, paragraph, table } from "~/services/pdf/pdf-layout.server";
import { peerReviewFileName } from "./file-name";
import type { PersonSummary } from "./peer-review-report";
import { PRINTED_LEGEND, RATINGS } from "./ratings";

type EnoughReviews = Extract<PersonSummary, { enough: true }>;

export const PEER_REVIEW_REPORT_TITLE = "Peer Review Report";

/** The spread as one line: 1: 4, 2: 0, ..., NE: 1. */
export const printedSpread = (spread: EnoughReviews["spread"]) =>
  RATINGS.map((rating) => `${rating}: ${spread[rating]}`).join(", ");

/** One person's report: the averages over all their reviews, in the questionnaire's layout and font. */
export async function peerReviewReportPdf(person: EnoughReviews): Promise<Uint8Array<ArrayBuffer>> {
  const doc = createPdfDocument({ title: `${PEER_REVIEW_REPORT_TITLE}: ${person.name}` });
  doc.y = mm(12);
  heading(doc, PEER_REVIEW_REPORT_TITLE, 18, "center");
  doc.y = mm(22);
  paragraph(doc, `Peer Review for: ${person.name}`, 12);
  paragraph(doc, `Reviews: ${person.reviews}. Averages leave out NE; Answers counts the ratings 1 to 5.`, 11);
  paragraph(doc, PRINTED_LEGEND, 11);
  table(doc, {
    x: doc.page.margins.left,
    y: doc.y + mm(4),
    columns: [
      { header: "#", width: mm(10), align: "center" },
      { header: "Question", width: mm(110) },
      { header: "Average", width: mm(25), align: "center" },
      { header: "Answers", width: mm(25), align: "center" },
    ],
    rows: person.statements.map((row, index) => [String(index + 1), row.statement, row.average, String(row.answers)]),
  });
  doc.moveDown(0.5);
  heading(doc, `Overall average: ${person.overall}`, 12);
  paragraph(doc, `Spread of all answers: ${printedSpread(person.spread)}`, 11);
  return toBuffer(doc);
}

/** The download's Content-Disposition: peer-review-report-{name}.pdf. */
export function reportFileName(name: string): string {
  const fileName = peerReviewFileName(name).replace(/^peer-review-/, "peer-review-report-");
  return contentDisposition(fileName, { fallback: fileName.replace(/[^\x20-\x7e]/g, "_") });
}
