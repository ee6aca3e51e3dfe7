import { preload } from "react-dom";
import ladder from "~/content/image-ladder.json";
import { renditionWidths } from "~/content/image-renditions.mjs";
import type { ImageRef } from "~/content/types";

function srcSet(name: string, format: string, widths: number[]): string {
  return widths.map((width) => `/images/${name}-${width}.${format} ${width}w`).join(", ");
}

type PictureProps = {
  image: ImageRef;
  /** The `sizes` attribute: how wide the image is shown at each viewport width. */
  sizes: string;
  className?: string;
  /** The image a visitor sees first: fetched at once, with high priority, and preloaded. */
  priority?: boolean;
};

export function Picture({ image, sizes, className, priority = false }: PictureProps) {
  const widths = renditionWidths(ladder, image.width);
  const fallbackWidth = widths.at(-1) ?? image.width;
  const avifSrcSet = srcSet(image.name, "avif", widths);
  if (priority) {
    // React puts this hint in <head>, so the browser fetches the image before it reaches the body.
    preload(`/images/${image.name}-${fallbackWidth}.avif`, {
      as: "image",
      type: "image/avif",
      imageSrcSet: avifSrcSet,
      imageSizes: sizes,
      fetchPriority: "high",
    });
  }
  return (
    <picture>
      <source type="image/avif" srcSet={avifSrcSet} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(image.name, "webp", widths)} sizes={sizes} />
      <img
        src={`/images/${image.name}-${fallbackWidth}.jpg`}
        srcSet={srcSet(image.name, "jpg", widths)}
        sizes={sizes}
        alt={image.alt}
        width={image.width}
        height={image.height}
        className={className}
        loading={priority ? "eager" : "lazy"}
        // Not "sync" for the priority image: the first paint would wait for its decode.
        decoding={priority ? "auto" : "async"}
        fetchPriority={priority ? "high" : "auto"}
      />
    </picture>
  );
}
