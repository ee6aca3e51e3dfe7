import type { ReactNode, Ref } from "react";
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
      className={`${alertToneClass[tone]}${className ? ` ${className}` : ""}`}
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
}: {
  children?: ReactNode;
  className?: string;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div aria-live="assertive" data-form-alert className={className} ref={ref}>
      {children}
    </div>
  );
}

/** A form's outcome in its region: the staff forms' answer above or beside their fields. */
export function OutcomeAlert({ outcome, className }: { outcome: Outcome | undefined; className?: string }) {
  return (
    <AlertRegion className={className}>
      {outcome ? <Alert tone={outcome.status}>{outcome.message}</Alert> : null}
    </AlertRegion>
  );
}
