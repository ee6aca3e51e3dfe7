import { useCallback, useEffect, useState } from "react";

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/**
 * The index of the slide to show, advancing every `intervalMs` once `ready`, wrapping around.
 * It starts paused for people who ask for reduced motion (WCAG 2.2.2); the pause control can still play it.
 */
export function useRotation({ count, intervalMs, ready }: { count: number; intervalMs: number; ready: boolean }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    const query = window.matchMedia(REDUCED_MOTION);
    if (query.matches) setPaused(true);
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) setPaused(true);
    };
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    if (!ready || paused || count < 2) return;
    const timer = window.setInterval(() => setIndex((current) => (current + 1) % count), intervalMs);
    return () => window.clearInterval(timer);
  }, [ready, paused, count, intervalMs]);

  const togglePaused = useCallback(() => setPaused((current) => !current), []);
  return { index, paused, togglePaused };
}
