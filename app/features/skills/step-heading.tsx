import { type ReactNode, useEffect, useRef } from "react";

/**
 * The heading of one step of a questionnaire. It takes the focus when it appears, so a screen reader announces
 * the new question and the keyboard starts from it; render it with a `key` per step.
 */
export function StepHeading({ children, autoFocus = true }: { children: ReactNode; autoFocus?: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <h2
      ref={ref}
      tabIndex={-1}
      className="text-sm font-semibold tracking-widest text-brand-800 uppercase focus:outline-none"
    >
      {children}
    </h2>
  );
}
