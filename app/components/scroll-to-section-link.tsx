import type { ReactNode } from "react";

/**
 * An in-page link that glides to its section (instantly for people who ask for reduced motion) and moves
 * keyboard focus there. Without JavaScript it is a plain anchor link.
 */
export function ScrollToSectionLink({
  targetId,
  className,
  children,
}: {
  targetId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={`#${targetId}`}
      className={className}
      onClick={(event) => {
        const target = document.getElementById(targetId);
        if (!target) return;
        event.preventDefault();
        const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        target.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
        target.focus({ preventScroll: true });
        window.history.replaceState(window.history.state, "", `#${targetId}`);
      }}
    >
      {children}
    </a>
  );
}
