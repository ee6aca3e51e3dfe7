import type { ImageRef } from "~/content/types";
import { PauseButton } from "./pause-button";
import { Picture } from "./picture";
import { useSiteChrome } from "./site-chrome";

const HERO_SIZES = "100vw";
const SLIDE_INTERVAL_MS = 3000;

/**
 * The welcome banner. Its backgrounds rotate, once every one of them has loaded or failed to load, by the
 * page's script (app/components/enhancements/slideshow.ts); without it the first one stays.
 */
export function HeroSlider({ images, welcomeLine }: { images: ImageRef[]; welcomeLine: string }) {
  const { company } = useSiteChrome();
  return (
    <section
      aria-roledescription="carousel"
      aria-label="Welcome banner"
      data-slideshow
      data-interval={SLIDE_INTERVAL_MS}
      data-wait-for-images
      className="relative isolate flex min-h-[28rem] items-center overflow-hidden bg-slate-900 sm:min-h-[34rem]"
    >
      <div data-slides aria-live="off" className="absolute inset-0 -z-10">
        {images.map((image, slide) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern marks each slide as a group, not a fieldset
          <div
            key={image.name}
            role="group"
            aria-roledescription="slide"
            aria-label={`${slide + 1} of ${images.length}`}
            aria-hidden={slide !== 0}
            data-slide
            data-active={slide === 0}
            className="absolute inset-0 transition-opacity duration-700 data-[active=false]:opacity-0 motion-reduce:transition-none"
          >
            <Picture image={image} sizes={HERO_SIZES} priority={slide === 0} className="h-full w-full object-cover" />
          </div>
        ))}
        <div className="absolute inset-0 bg-gradient-to-r from-slate-950/85 via-slate-950/60 to-slate-950/30" />
      </div>
      <div className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
        <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{welcomeLine}</h1>
        <p className="mt-4 max-w-xl text-lg text-slate-100 sm:text-xl">{company.tagline}</p>
      </div>
      <PauseButton slideshowName="banner slideshow" className="absolute right-4 bottom-4" />
    </section>
  );
}
