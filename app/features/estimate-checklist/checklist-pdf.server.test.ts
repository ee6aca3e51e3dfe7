import { describe, expect, it } from "vitest";
import { checklistAnswers } from "#tests/checklist-fixture";
import { pdfText } from "#tests/pdf-reading";
import { checklistPdf } from "./checklist-pdf.server";

const NO_PHOTOS = { images: [], problems: [] };

describe("the checklist PDF", () => {
  it("prints the symbols people type, and a placeholder for an emoji no font has", async () => {
    const answers = {
      ...checklistAnswers,
      projectScope: "Feeder ≈ 200 ft → new panel ✓, 90° bends only 🦄",
      codeViolations: "☐ GFCI at sink ⚠",
    };
    const pdf = await checklistPdf(answers, NO_PHOTOS, new Date("2026-03-05T14:00:00Z"));
    const text = (await pdfText(pdf)).replace(/\s+/g, " ");

    expect(text).toContain("Project Scope Feeder ≈ 200 ft → new panel ✓, 90° bends only [emoji]");
    expect(text).toContain("Visible Code Violations ☐ GFCI at sink ⚠");
  });
});
