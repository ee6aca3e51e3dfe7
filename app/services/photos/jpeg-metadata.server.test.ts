import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { jpegWithoutMetadata } from "./jpeg-metadata.server";

const GPS_EXIF = { IFD3: { GPSLatitudeRef: "N", GPSLatitude: "33/1 56/1 1234/100" } };

async function photoWithEverything() {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366aa" } })
    .withExif(GPS_EXIF)
    .withIccProfile("p3")
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
    .jpeg({ quality: 80, progressive: true })
    .toBuffer();
  // Bytes after the image's end, as a phone's extra pictures (MPF) or a trailer would be.
  return new Uint8Array(Buffer.concat([bytes, Buffer.from("trailing data with a secret")]));
}

describe("a JPEG's metadata removed without re-encoding", () => {
  it("drops EXIF, XMP and what follows the image, keeps the colour profile and the compressed pixels", async () => {
    const sent = await photoWithEverything();
    const stripped = jpegWithoutMetadata(sent);
    if (!stripped) throw new Error("not stripped");
    const metadata = await sharp(stripped).metadata();
    expect([metadata.exif, metadata.xmp]).toEqual([undefined, undefined]);
    expect(metadata.icc).toBeDefined();
    expect(stripped.byteLength).toBeLessThan(sent.byteLength);
    expect(Buffer.from(stripped).includes("secret")).toBe(false);
    const pixels = async (bytes: Uint8Array) => (await sharp(bytes).raw().toBuffer()).toString("hex");
    expect(await pixels(stripped)).toBe(await pixels(sent));
  });

  it("drops metadata placed between a progressive JPEG's scans", async () => {
    const sent = await photoWithEverything();
    const segment = (marker: number, text: string) => {
      const body = Buffer.from(text, "latin1");
      return Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
    };
    // In entropy-coded data a 0xFF is always stuffed, so 0xFFDA is a scan's start: before the second one.
    const starts = [...Buffer.from(sent).entries()].filter(([at, byte]) => byte === 0xff && sent[at + 1] === 0xda);
    const second = starts[1]?.[0] ?? 0;
    expect(second).toBeGreaterThan(0);
    const withHidden = new Uint8Array(
      Buffer.concat([
        sent.subarray(0, second),
        segment(0xe1, "Exif\0\0GPS secret"),
        segment(0xfe, "comment secret"),
        sent.subarray(second),
      ]),
    );
    const stripped = jpegWithoutMetadata(withHidden);
    if (!stripped) throw new Error("not stripped");
    expect(Buffer.from(stripped).includes("secret")).toBe(false);
    const pixels = async (bytes: Uint8Array) => (await sharp(bytes).raw().toBuffer()).toString("hex");
    expect(await pixels(stripped)).toBe(await pixels(sent));
  });

  it("gives up on bytes it cannot walk", () => {
    expect(jpegWithoutMetadata(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(jpegWithoutMetadata(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x5a, 0x5a]))).toBeUndefined();
  });
});
