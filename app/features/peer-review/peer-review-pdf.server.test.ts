import { describe, expect, it } from "vitest";
import { pdfContentStreams, pdfText, rgbOperands } from "#tests/pdf-reading";
import { mm } from "~/services/pdf/pdf-document.server";
import { TABLE_HEADER_FILL } from "~/services/pdf/pdf-layout.server";
import type { PeerReview } from "./definition";
import { peerReviewPdf } from "./peer-review-pdf.server";
import { PEER_REVIEW_STATEMENTS } from "./statements";

const review: PeerReview = {
  reviewFor: "Nguyễn Łukasz",
  date: "2026-03-05",
  answers: ["5", "4", "3", "2", "1", "NE", "", "5", "4", "3", "2", "1", "NE", "5", "4"],
  average: "3.23",
};

/** The text with each run of white space as one space: a long statement wraps onto two lines in its cell. */
const flat = (text: string) => text.replace(/\s+/g, " ");

describe("the peer review PDF", () => {
  it("prints the title, the header, the legend, every statement in order with its answer, and the average", async () => {
    const text = flat(await pdfText(await peerReviewPdf(review)));

    expect(text).toContain("Peer Review Questionnaire");
    expect(text).toContain("Peer Review for: Nguyễn Łukasz");
    expect(text).toContain("Date: 2026-03-05");
    expect(text).toContain("1=Never, 2=Occasionally, 3=Sometimes, 4=Most of the Time, 5=Always, NE=No Experience");
    expect(text).toContain("# Question Answer");
    let from = text.indexOf("# Question Answer");
    for (const [index, statement] of PEER_REVIEW_STATEMENTS.entries()) {
      const row = `${index + 1} ${statement} ${review.answers[index] || "-"}`;
      const at = text.indexOf(row, from);
      expect(at, `row ${index + 1} in order: ${row}`).toBeGreaterThan(from);
      from = at;
    }
    expect(text).toContain("7 Is interested in developing new skills and growing as a professional. -");
    expect(text.indexOf("Average Score: 3.23")).toBeGreaterThan(from);
  });

  it("fills the table's header blue, 150 mm wide, at 45 mm from the top", async () => {
    const drawing = pdfContentStreams(await peerReviewPdf(review)).join("\n");
    const headerFill = new RegExp(
      `(\\S+) (\\S+) (\\S+) (\\S+) re\\n(?:/DeviceRGB cs\\n)?${rgbOperands(TABLE_HEADER_FILL).replaceAll(".", "\\.")} (?:scn|rg)\\nf`,
    );
    const match = headerFill.exec(drawing);
    expect(match, "a rectangle filled with the header blue").not.toBeNull();
    const [, , top, width] = (match ?? []).map(Number);
    expect(top).toBeCloseTo(mm(45), 3);
    expect(width).toBeCloseTo(mm(10 + 110 + 30), 3);
  });

  it("prints the symbols people type, and a placeholder for what no font has", async () => {
    const text = await pdfText(await peerReviewPdf({ ...review, reviewFor: "Ana ✓ → Bo ≈ 90° 🦄 张" }));
    expect(text, text).toContain("Peer Review for: Ana ✓ → Bo ≈ 90° [emoji] [U+5F20]");
  });

  it("prints a name in any script as typed", async () => {
    const text = await pdfText(await peerReviewPdf({ ...review, reviewFor: "Łukasz Żółć, Nguyễn Văn Ánh, Ærø" }));
    expect(text, text).toContain("Peer Review for: Łukasz Żółć, Nguyễn Văn Ánh, Ærø");
  });
});
