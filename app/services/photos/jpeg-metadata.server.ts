// Written by hand: sharp (libvips) always decodes and re-encodes, so it cannot remove metadata and keep a JPEG's
// compressed pixels (lovell/sharp#3327, #2636), and no well-kept npm package only strips JPEG segments.

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;

const ICC_PROFILE = Buffer.from("ICC_PROFILE\0", "latin1");

/**
 * Kept: JFIF (APP0), the colour profile (APP2 ICC_PROFILE) and Adobe's colour transform (APP14), which the
 * decoder needs. Gone: EXIF and XMP (APP1, with the GPS position and the orientation), MPF (APP2) and the
 * pictures it points at after the image, IPTC (APP13), every other APPn, and comments.
 */
function keepsSegment(marker: number, body: Uint8Array): boolean {
  if (marker === APP0 || marker === APP14) return true;
  if (marker === APP2) return Buffer.from(body.subarray(0, ICC_PROFILE.length)).equals(ICC_PROFILE);
  return !(marker > APP0 && marker <= 0xef) && marker !== COM;
}

/** Where the entropy-coded data that starts at `from` ends: the next marker that is not a restart or a stuffed 0xFF. */
function entropyDataEnd(jpeg: Uint8Array, from: number): number | undefined {
  for (let at = from; at + 1 < jpeg.length; at += 1) {
    if (jpeg[at] !== 0xff) continue;
    const next = jpeg[at + 1] as number;
    if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) return at;
  }
  return undefined;
}

/**
 * The JPEG with its metadata removed and its compressed image data byte for byte as sent: nothing is decoded,
 * so nothing is lost or grows. Segments between a progressive JPEG's scans are judged like those before the
 * first. Anything after the image's end (MPF's extra pictures, a phone's trailer) is dropped. Undefined when
 * the bytes are not a JPEG this can walk.
 */
export function jpegWithoutMetadata(jpeg: Uint8Array): Uint8Array | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) return undefined;
  const kept: Uint8Array[] = [jpeg.subarray(0, 2)];
  let offset = 2;
  while (offset + 2 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) return undefined;
    const marker = jpeg[offset + 1] as number;
    if (marker === 0xff) {
      // Fill bytes before a marker.
      offset += 1;
      continue;
    }
    if (marker === EOI) {
      kept.push(jpeg.subarray(offset, offset + 2));
      return Buffer.concat(kept);
    }
    if (offset + 4 > jpeg.length) return undefined;
    const length = ((jpeg[offset + 2] as number) << 8) | (jpeg[offset + 3] as number);
    const end = offset + 2 + length;
    if (length < 2 || end > jpeg.length) return undefined;
    if (marker === SOS) {
      // A scan: its header, then its entropy-coded data up to the next marker.
      const scanEnd = entropyDataEnd(jpeg, end);
      if (scanEnd === undefined) return undefined;
      kept.push(jpeg.subarray(offset, scanEnd));
      offset = scanEnd;
      continue;
    }
    if (keepsSegment(marker, jpeg.subarray(offset + 4, end))) kept.push(jpeg.subarray(offset, end));
    offset = end;
  }
  return undefined;
}
