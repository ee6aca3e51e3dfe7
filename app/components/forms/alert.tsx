import { type ReactNode, type Ref, useEffect, useRef } from "react";
import { alertToneClass } from "./field-look";

/** What a form's action answers, as far as the page shows it. */
export type Outcome = { status: "error" | "success"; message: ReactNode };

/**
 * A banner: red for an error, read out at once (role=alert); green for a success, read out politely
 * (role=status).
 */
export function Alert({
  tone,
  children,
  className,
}: {
  tone: "error" | "success";
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      // Focusable by script only, so a form can move focus to its answer.
      tabIndex={-1}
      className={`${alertToneClass[tone]} scroll-m-4${className ? ` ${className}` : ""}`}
    >
      {children}
    </div>
  );
}

/**
 * The place a form's answer appears. It stays in the page while empty, so a screen reader already knows it
 * as a live region and reads a message that appears in it.
 */
export function AlertRegion({
  children,
  className,
  ref,
  id,
}: {
  children?: ReactNode;
  className?: string;
  ref?: Ref<HTMLDivElement>;
  id?: string;
}) {
  return (
    <div aria-live="assertive" data-form-alert className={className} ref={ref} id={id}>
      {children}
    </div>
  );
}

/** Where a page without JavaScript lands after a post: forms post to their page at `#form-outcome`. */
export const FORM_OUTCOME_ID = "form-outcome";

/**
 * Brings a form's answer into view and focus each time `answer` is a new one, so a person who sees the form
 * clear, or stay as it was, also sees why, on a phone as on a desktop.
 */
export function useRevealedAnswer(answer: unknown) {
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer === undefined || answer === null) return;
    const alert = region.current?.querySelector<HTMLElement>("[role=alert],[role=status]");
    if (!alert) return;
    alert.focus({ preventScroll: true });
    alert.scrollIntoView({ block: "center" });
  }, [answer]);
  return region;
}

/**
 * A form's outcome in its region, moved into view and focus when it changes. Its tone comes from the
 * outcome's status, never from its wording. `revealOn` is the answer the outcome was made from, where the
 * outcome is made afresh at each render (default: the outcome itself); null leaves focus where it is.
 */
export function OutcomeAlert({
  outcome,
  revealOn,
  className,
  id,
}: {
  outcome: Outcome | undefined;
  revealOn?: unknown;
  className?: string;
  id?: string;
}) {
  const region = useRevealedAnswer(outcome === undefined ? undefined : revealOn === undefined ? outcome : revealOn);
  return (
    <AlertRegion className={className} ref={region} id={id}>
      {outcome ? <Alert tone={outcome.status}>{outcome.message}</Alert> : null}
    </AlertRegion>
  );
}
