import type { ReactNode } from "react";
import type { ImageRef } from "~/content/types";
import { Picture } from "./picture";

/** The top banner of an inner page: its image behind a dark scrim, the page title and what goes with it. */
export function PageBanner({ image, children }: { image: ImageRef; children: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden bg-slate-900">
      <div className="absolute inset-0 -z-10">
        <Picture image={image} sizes="100vw" priority className="h-full w-full object-cover" />
        <div className="absolute inset-0 bg-gradient-to-r from-slate-950/90 via-slate-950/70 to-slate-950/20" />
      </div>
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6 sm:py-24">{children}</div>
    </section>
  );
}
