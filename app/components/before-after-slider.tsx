import type { BeforeAfterPair } from "~/content/types";
import { PauseButton } from "./pause-button";
import { Picture } from "./picture";

const SLIDE_INTERVAL_MS = 3000;
const IMAGE_SIZES = "(min-width: 1152px) 560px, (min-width: 640px) 50vw, 100vw";

/** Before and after photos of finished jobs, a pair at a time; the page's script rotates them. */
export function BeforeAfterSlider({ pairs }: { pairs: BeforeAfterPair[] }) {
  return (
    <section
      aria-roledescription="carousel"
      aria-labelledby="before-after-heading"
      data-slideshow
      data-interval={SLIDE_INTERVAL_MS}
      className="bg-slate-50 py-16"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="before-after-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Before and after
          </h2>
          <PauseButton slideshowName="before and after slideshow" />
        </div>
        <div data-slides aria-live="off" className="mt-8 grid">
          {pairs.map((pair, slide) => (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern marks each slide as a group, not a fieldset
            <div
              key={pair.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${slide + 1} of ${pairs.length}: ${pair.caption}`}
              aria-hidden={slide !== 0}
              data-slide
              data-active={slide === 0}
              className="col-start-1 row-start-1 transition-opacity duration-700 data-[active=false]:invisible data-[active=false]:opacity-0 motion-reduce:transition-none"
            >
              <div className="grid gap-4 sm:grid-cols-2">
                {[
                  { label: "Before", image: pair.before },
                  { label: "After", image: pair.after },
                ].map(({ label, image }) => (
                  <div key={label} className="relative overflow-hidden rounded-xl shadow">
                    <Picture image={image} sizes={IMAGE_SIZES} className="h-auto w-full" />
                    <span className="absolute top-3 left-3 rounded bg-slate-950/80 px-3 py-1 text-sm font-semibold text-white">
                      {label}
                    </span>
                  </div>
                ))}
              </div>
              <p className="mt-3 text-center font-medium text-slate-700">{pair.caption}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
