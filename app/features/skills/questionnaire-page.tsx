import type { ReactNode } from "react";

/** The frame of the quiz and the assessment pages: a green title band, then one narrow column. */
export function QuestionnairePage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <>
      <section className="bg-brand-900">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
          <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{title}</h1>
          <p className="mt-3 text-lg text-brand-50">{lead}</p>
        </div>
      </section>
      <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">{children}</div>
    </>
  );
}
