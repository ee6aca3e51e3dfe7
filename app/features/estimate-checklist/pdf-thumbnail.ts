/** A photo's thumbnail box in the checklist's PDF, in points. */
export const THUMBNAIL_BOX = { width: 160, height: 120 } as const;

/** Its image has twice the pixels of its box, so it prints sharp (docs/spec.md §9). */
export const PIXELS_PER_POINT = 2;

/** The pixels of a photo's thumbnail in the PDF: made when the photo is cleaned. */
export const CHECKLIST_THUMBNAIL_PIXELS = {
  width: THUMBNAIL_BOX.width * PIXELS_PER_POINT,
  height: THUMBNAIL_BOX.height * PIXELS_PER_POINT,
} as const;
