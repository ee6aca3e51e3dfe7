import { type ReactNode, useId } from "react";

const BOX = "rounded-2xl bg-white shadow-sm ring-1 ring-slate-200";
const FIELDS = "grid gap-5 sm:grid-cols-2";
const HEADING = "text-xl font-bold text-brand-800";

/**
 * A titled part of a long form: its heading names the region, its fields sit in two columns from phone width up.
 * A `collapsible` one is a <details> that starts open and folds to its title (a tap target of 44 px or more), with
 * or without scripts; `id` is what a link jumps to.
 */
export function FormSection({
  title,
  children,
  collapsible = false,
  id,
}: {
  title: string;
  children: ReactNode;
  collapsible?: boolean;
  id?: string;
}) {
  const headingId = useId();
  if (collapsible) {
    return (
      <details id={id} open className={`group scroll-mt-4 ${BOX}`}>
        <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 p-5 sm:p-6 [&::-webkit-details-marker]:hidden">
          <h2 className={HEADING}>{title}</h2>
          <span aria-hidden="true" className="text-2xl leading-none text-brand-800 transition group-open:rotate-180">
            ⌄
          </span>
        </summary>
        <div className={`${FIELDS} px-5 pb-5 sm:px-6 sm:pb-6`}>{children}</div>
      </details>
    );
  }
  return (
    <section id={id} aria-labelledby={headingId} className={`p-5 sm:p-6 ${BOX}`}>
      <h2 id={headingId} className={HEADING}>
        {title}
      </h2>
      <div className={`mt-4 ${FIELDS}`}>{children}</div>
    </section>
  );
}

/** Opens the collapsed sections around a form's control, so it can be seen and take focus. */
export function revealControl(control: Element | null) {
  for (let section = control?.closest("details"); section; section = section.parentElement?.closest("details")) {
    section.open = true;
  }
}
