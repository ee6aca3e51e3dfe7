import type { BeforeAfterPair } from "~/content/types";
import { PauseButton } from "./pause-button";
import { Picture } from "./picture";
import { useHydrated } from "./use-hydrated";
import { useRotation } from "./use-rotation";

const SLIDE_INTERVAL_MS = 3000;
const IMAGE_SIZES = "(min-width: 1152px) 560px, (min-width: 640px) 50vw, 100vw";

export function BeforeAfterSlider({ pairs }: { pairs: BeforeAfterPair[] }) {
  const { index, paused, togglePaused } = useRotation({
    count: pairs.length,
    intervalMs: SLIDE_INTERVAL_MS,
    ready: true,
  });
  const hydrated = useHydrated();
  return (
    <section aria-roledescription="carousel" aria-labelledby="before-after-heading" className="bg-slate-50 py-16">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="before-after-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Before and after
          </h2>
          {hydrated && (
            <PauseButton paused={paused} onToggle={togglePaused} slideshowName="before and after slideshow" />
          )}
        </div>
        <div aria-live={paused ? "polite" : "off"} className="mt-8 grid">
          {pairs.map((pair, slide) => (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern marks each slide as a group, not a fieldset
            <div
              key={pair.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${slide + 1} of ${pairs.length}: ${pair.caption}`}
              aria-hidden={slide !== index}
              data-active={slide === index}
              className={`col-start-1 row-start-1 transition-opacity duration-700 motion-reduce:transition-none ${slide === index ? "opacity-100" : "invisible opacity-0"}`}
            >
              <div className="grid gap-4 sm:grid-cols-2">
                {[
                  { label: "Before", image: pair.before },
                  { label: "After", image: pair.after },
                ].map(({ label, image }) => (
                  <div key={label} className="relative overflow-hidden rounded-xl shadow">
                    <Picture image={image} sizes={IMAGE_SIZES} className="h-auto w-full" decorative={slide !== index} />
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
