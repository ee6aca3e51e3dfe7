import type { ReactNode } from "react";

/**
 * An in-page link that glides to its section and moves keyboard focus there, by the page's script
 * (app/components/enhancements/glide-links.ts). Without JavaScript it is a plain anchor link.
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
    <a href={`#${targetId}`} data-glide className={className}>
      {children}
    </a>
  );
}
