import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

export type FixturePhoto = { name: string; type: string; bytes: Uint8Array };

/** Every answer of the checklist, a few left blank, with names that need more than Latin-1. */
export const checklistAnswers = {
  fillerName: "Nguyễn Văn Łukasz",
  fillerEmail: "pm@example.com",
  projectName: "Łódź Warehouse Retrofit",
  projectAddress: "12 Industrial Way",
  city: "Sumter",
  state: "SC",
  zip: "29150",
  ownerName: "Zoë Ångström",
  ownerEmail: "owner@example.com",
  ownerPhone: "803-555-0142",
  projectScope: "Replace 120 high-bay fixtures with LED and add occupancy sensors.",
  projectTimeline: "Start in March, four weeks on site.",
  permittingRequirements: "City permit; the GC pulls it.",
  workingHours: "7 am to 3 pm, no weekend work.",
  securityRequirements: "",
  parkingStaging: "Staging in bay 4.",
  existingServiceLocation: "Northeast corner, 800 A, 480/277 V.",
  panelCondition: "Good; two breakers need labels.",
  existingLighting: "400 W metal halide high bays.",
  existingGrounding: "",
  codeViolations: "Missing cover on junction box by dock 2.",
  projectDetails: "Lighting retrofit of the whole warehouse floor. ".repeat(40).trim(),
  plansDrawings: "Reflected ceiling plan on file.",
  measurements: "Ceiling height 32 ft.",
  missingDetails: "",
  conduitWire: "EMT, 12 AWG THHN.",
  fixtureTypes: "LED high bay 24,000 lm.",
  panelboards: "LP-1 and LP-2.",
  laborAccess: "Scissor lift needed.",
  tradeCoordination: "Sprinkler fitters in the same weeks.",
  panelLocations: "Electrical room by the offices.",
  conduitPaths: "Along the bar joists.",
  tightAreas: "",
  damages: "Scuffed panel door on LP-2.",
  decisionMakers: "Facilities manager and the owner.",
  budgetConstraints: "",
  preferredBrands: "Any DLC listed.",
  timelineExpectations: "Done before the April audit.",
  permitResponsibility: "GC.",
  rfisNeeded: "Emergency lighting count.",
} as const;

/** The answers left blank above: each prints "(Not provided)". */
/** The keys of the checklist's webhook body (docs/spec.md §7), in their order. */
export const CHECKLIST_WEBHOOK_KEYS = [
  "fillerName",
  "fillerEmail",
  "projectName",
  "timestamp",
  "filename",
  "pdfBase64",
  "formData",
  "photoCount",
];

export const BLANK_ANSWERS = Object.entries(checklistAnswers)
  .filter(([, value]) => value === "")
  .map(([name]) => name);

const HEIC_FIXTURE = path.join(import.meta.dirname, "../fixtures/site-photo.heic");

/** A GPS position as sharp writes it into EXIF (IFD3 is the GPS directory). */
const GPS_EXIF = {
  IFD0: { Make: "TestPhone" },
  IFD3: {
    GPSLatitudeRef: "N",
    GPSLatitude: "33/1 56/1 1234/100",
    GPSLongitudeRef: "W",
    GPSLongitude: "80/1 20/1 0/1",
  },
};

/**
 * A JPEG that a phone held sideways would take: stored 400 wide by 200 high, left half red and right half
 * blue, with orientation 6 (turn 90° clockwise to show) and a GPS position. Upright it is 200 by 400, red on top.
 */
export async function sidewaysJpegWithGps(): Promise<Uint8Array> {
  const bytes = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#dd1111" } })
    .composite([
      { input: { create: { width: 200, height: 200, channels: 3, background: "#1111dd" } }, left: 200, top: 0 },
    ])
    .withExif(GPS_EXIF)
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(bytes);
}

/** A photo of one colour, `width` by `height`, in the given format, with a GPS position where the format has EXIF. */
export async function plainPhoto(
  width: number,
  height: number,
  format: "jpeg" | "webp",
  background = "#4a7d3b",
): Promise<Uint8Array> {
  const image = sharp({ create: { width, height, channels: 3, background } }).withExif(GPS_EXIF);
  return new Uint8Array(
    await (format === "jpeg" ? image.jpeg({ quality: 85 }) : image.webp({ quality: 85 })).toBuffer(),
  );
}

/**
 * A phone-like upright JPEG of about 430 KB (1600 by 1200 of fine grain at quality 80) with a GPS position:
 * encoded again at quality 95 it would grow to about 630 KB.
 */
export async function grainyJpegWithGps(): Promise<Uint8Array> {
  const grain = { type: "gaussian", mean: 120, sigma: 40 } as const;
  const bytes = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#777777", noise: grain } })
    .blur(0.8)
    .withExif(GPS_EXIF)
    .jpeg({ quality: 80 })
    .toBuffer();
  return new Uint8Array(bytes);
}

/** A PNG with a half-transparent red square on a transparent ground. */
export async function transparentPng(): Promise<Uint8Array> {
  const bytes = await sharp({
    create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: { create: { width: 150, height: 150, channels: 4, background: { r: 220, g: 0, b: 0, alpha: 0.5 } } },
        left: 75,
        top: 75,
      },
    ])
    .png()
    .toBuffer();
  return new Uint8Array(bytes);
}

/** Starts like a JPEG, so it passes the type check, and then is not one. */
export function corruptJpeg(): Uint8Array {
  const bytes = new Uint8Array(4096).fill(0x5a);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
  return bytes;
}

/** The small HEIC fixture (64 by 48, left half green, right half white): tests/fixtures/README.md says how it was made. */
export function heicPhoto(): Uint8Array {
  return new Uint8Array(readFileSync(HEIC_FIXTURE));
}

export const CORRUPT_PHOTO_NAME = "IMG_0004-corrupt.jpg";
export const SIDEWAYS_PHOTO_NAME = "IMG_0003-sideways.jpg";

/**
 * Ten site photos as a phone sends them: a HEIC, a PNG with transparency, a sideways JPEG with a GPS
 * position, a corrupt JPEG, a WebP, and five JPEGs, one of them twelve megapixels.
 */
export async function tenSitePhotos(): Promise<FixturePhoto[]> {
  return [
    { name: "IMG_0001.HEIC", type: "image/heic", bytes: heicPhoto() },
    { name: "IMG_0002-transparent.png", type: "image/png", bytes: await transparentPng() },
    { name: SIDEWAYS_PHOTO_NAME, type: "image/jpeg", bytes: await sidewaysJpegWithGps() },
    { name: CORRUPT_PHOTO_NAME, type: "image/jpeg", bytes: corruptJpeg() },
    { name: "IMG_0005.webp", type: "image/webp", bytes: await plainPhoto(800, 600, "webp") },
    { name: "IMG_0006.jpg", type: "image/jpeg", bytes: await plainPhoto(4000, 3000, "jpeg") },
    { name: "IMG_0007.jpg", type: "image/jpeg", bytes: await plainPhoto(1600, 1200, "jpeg", "#888888") },
    { name: "IMG_0008.jpg", type: "image/jpeg", bytes: await plainPhoto(1200, 1600, "jpeg", "#335577") },
    { name: "IMG_0009.jpg", type: "image/jpeg", bytes: await plainPhoto(640, 480, "jpeg", "#aa7733") },
    { name: "IMG_0010.jpg", type: "image/jpeg", bytes: await plainPhoto(1024, 768, "jpeg", "#222222") },
  ];
}
