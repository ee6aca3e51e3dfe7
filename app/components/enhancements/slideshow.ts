const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/**
 * A slideshow rendered on the server (hero-slider.tsx, before-after-slider.tsx): its `[data-slide]`s take
 * turns every `data-interval` ms, wrapping around, and its pause control appears. With `data-wait-for-images`
 * it starts once every image in it has loaded or failed. It starts paused for people who ask for reduced
 * motion (WCAG 2.2.2); the control can still play it. While paused, a slide changed by hand is read out.
 */
export function enhanceSlideshow(root: HTMLElement) {
  const slides = Array.from(root.querySelectorAll<HTMLElement>("[data-slide]"));
  const live = root.querySelector<HTMLElement>("[data-slides]");
  const control = root.querySelector<HTMLButtonElement>("[data-pause]");
  const label = control?.querySelector<HTMLElement>("[data-pause-label]");
  const intervalMs = Number(root.dataset.interval);
  let index = 0;
  let paused = false;
  let ready = !("waitForImages" in root.dataset);
  let timer: number | undefined;

  const show = (next: number) => {
    index = next;
    slides.forEach((slide, position) => {
      slide.dataset.active = String(position === next);
      slide.setAttribute("aria-hidden", String(position !== next));
    });
  };
  const schedule = () => {
    window.clearInterval(timer);
    timer = undefined;
    if (ready && !paused && slides.length > 1) {
      timer = window.setInterval(() => show((index + 1) % slides.length), intervalMs);
    }
  };
  const setPaused = (value: boolean) => {
    paused = value;
    if (control && label) {
      control.dataset.paused = String(value);
      label.textContent = `${value ? "Play" : "Pause"} ${control.dataset.name}`;
    }
    live?.setAttribute("aria-live", value ? "polite" : "off");
    schedule();
  };

  const motion = window.matchMedia(REDUCED_MOTION);
  motion.addEventListener("change", (event) => {
    if (event.matches) setPaused(true);
  });
  control?.addEventListener("click", () => setPaused(!paused));
  if (control) control.hidden = false;

  if (!ready) {
    const images = Array.from(root.querySelectorAll("img"));
    const startOnceSettled = () => {
      if (ready || !images.every((image) => image.complete)) return;
      ready = true;
      schedule();
    };
    for (const image of images) {
      image.addEventListener("load", startOnceSettled);
      image.addEventListener("error", startOnceSettled);
    }
    startOnceSettled();
  }
  setPaused(motion.matches);
}
