// How an image's renditions are made: the widths and the formats with their encoder settings, one definition for
// the build's images (scripts/build-images.mjs) and the site photos an admin uploads (app/services/site-photos/).
// Plain JavaScript, since the build runs it with node alone.

/**
 * The widths of the ladder (app/content/image-ladder.json) an image this wide is written at: those not wider than
 * it, or the smallest when none is.
 * @param {readonly number[]} ladder
 * @param {number} intrinsicWidth
 * @returns {number[]}
 */
export function renditionWidths(ladder, intrinsicWidth) {
  const fitting = ladder.filter((width) => width <= intrinsicWidth);
  return fitting.length > 0 ? fitting : [ladder[0] ?? intrinsicWidth];
}

/**
 * The formats every image is written in, in the order they are written, each with its encoder's settings. The
 * JPEG has no alpha channel: transparent pixels are laid on white.
 * @type {ReadonlyArray<{ ext: "avif" | "webp" | "jpg"; encode: (image: import("sharp").Sharp) => import("sharp").Sharp }>}
 */
export const RENDITION_FORMATS = [
  { ext: "avif", encode: (image) => image.avif({ quality: 50, effort: 4 }) },
  { ext: "webp", encode: (image) => image.webp({ quality: 75 }) },
  { ext: "jpg", encode: (image) => image.flatten({ background: "#ffffff" }).jpeg({ quality: 78, mozjpeg: true }) },
];

/**
 * True when every pixel of a raw RGBA buffer, ignoring a `border`-pixel frame, is fully opaque: its renditions
 * are written without an alpha channel.
 * @param {Uint8Array} data
 * @param {{ width: number; height: number; channels: number }} info
 * @param {number} border
 */
export function isOpaque(data, { width, height, channels }, border) {
  for (let y = border; y < height - border; y++) {
    const row = y * width * channels;
    for (let x = border; x < width - border; x++) {
      if (data[row + x * channels + channels - 1] !== 255) return false;
    }
  }
  return true;
}

/**
 * The file name of one rendition: `<name>-<width>.<ext>`, as the pages' srcset names it.
 * @param {string} name
 * @param {number} width
 * @param {string} ext
 */
export const renditionFileName = (name, width, ext) => `${name}-${width}.${ext}`;
