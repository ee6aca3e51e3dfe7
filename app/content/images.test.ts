import { readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { beforeAfterPairs, clientLogos, serviceTiles } from "./home";
import { banners, heroImages, servicePhotos, signatureImage } from "./images";
import { servicePages } from "./services";
import type { ImageRef } from "./types";

const sourcesDir = path.resolve("assets/images");

const contentImages: ImageRef[] = [
  ...heroImages,
  ...Object.values(banners),
  ...Object.values(servicePhotos).flat(),
  ...beforeAfterPairs.flatMap((pair) => [pair.before, pair.after]),
  ...clientLogos.map((logo) => logo.image),
  ...serviceTiles.map((tile) => tile.image),
  ...servicePages.flatMap((page) => [page.bannerImage, ...page.images]),
  signatureImage,
];

describe("the images the content names", () => {
  const sources = new Map(readdirSync(sourcesDir).map((file) => [path.parse(file).name, path.join(sourcesDir, file)]));

  it("have a source in assets/images whose size matches the width and height the pages reserve", async () => {
    for (const image of new Map(contentImages.map((ref) => [ref.name, ref])).values()) {
      const source = sources.get(image.name);
      expect(source, `assets/images/${image.name}.*`).toBeDefined();
      const metadata = await sharp(source).metadata();
      expect({ name: image.name, width: metadata.width, height: metadata.height }).toEqual({
        name: image.name,
        width: image.width,
        height: image.height,
      });
    }
  });

  it("count five banner backgrounds, two before/after pairs and four client logos", () => {
    expect(heroImages).toHaveLength(5);
    expect(beforeAfterPairs).toHaveLength(2);
    expect(clientLogos).toHaveLength(4);
  });

  it("all have alternative text", () => {
    for (const image of contentImages) expect(image.alt.trim().length, image.name).toBeGreaterThan(5);
  });
});
