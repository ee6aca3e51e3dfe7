/**
 * The PDF's file name, peer-review-{reviewFor or 'employee'}.pdf (docs/spec.md §9), safe on every system: letters
 * and digits of any script are kept, every run of anything else becomes one hyphen.
 */
export function peerReviewFileName(reviewFor: string): string {
  const name = reviewFor
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return `peer-review-${name || "employee"}.pdf`;
}
