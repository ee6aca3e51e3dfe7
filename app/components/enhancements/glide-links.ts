/**
 * In-page links marked `data-glide` glide to their section (instantly for people who ask for reduced motion)
 * and move keyboard focus there. Without JavaScript they are plain anchor links.
 */
export function enhanceGlideLinks(root: Document) {
  root.addEventListener("click", (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>("a[data-glide]");
    const targetId = link?.hash.slice(1);
    const target = targetId ? root.getElementById(targetId) : null;
    if (!target) return;
    event.preventDefault();
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    target.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
    target.focus({ preventScroll: true });
    window.history.replaceState(window.history.state, "", `#${targetId}`);
  });
}
