import { type FocusEvent, type FormEvent, useState } from "react";
import type { FieldDefinition } from "~/forms/definition";
import { SOFT_CHECKS_SEEN_FIELD, softWarnings } from "~/forms/soft-checks";

type Shown = {
  /** The answer these warnings follow: a new answer shows its own (the server's, or none). */
  answer: unknown;
  warnings: Record<string, string>;
  /** The fields whose warnings a press of the send button showed: the next press sends them as they are. */
  seen: readonly string[];
  /** The last press was held back by a warning. */
  held: boolean;
};

export type SoftChecks = ReturnType<typeof useSoftChecks>;

/** Whether a submit is the person's press: Conform checks the answers again, as they change, by a hidden button's. */
export const isSendPress = (event: FormEvent<HTMLFormElement>) => !(event.nativeEvent as SubmitEvent).submitter?.hidden;

const isAnswerInput = (target: EventTarget): target is HTMLInputElement | HTMLTextAreaElement =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;

/**
 * A form's soft checks in the browser (app/forms/soft-checks.ts): the first press of the send button with an answer
 * worth a second look shows its warning under the field, takes the person there and sends nothing; the next press
 * sends. The server's answer may carry warnings of its own (a page that was sent before its script ran). A field's
 * warning follows its answer once shown, and appears when the person leaves the field.
 */
export function useSoftChecks(fields: readonly FieldDefinition[] | undefined, answer: object | undefined) {
  const checked = (fields ?? []).filter((field) => field.softCheck);
  const fromServer = answer && "warnings" in answer ? ((answer.warnings as Record<string, string>) ?? {}) : {};
  const [shown, setShown] = useState<Shown>();
  const current: Shown =
    shown && shown.answer === answer
      ? shown
      : { answer, warnings: fromServer, seen: Object.keys(fromServer), held: false };

  /** Whether the press is held back: a warning it has not shown yet. */
  const holdBack = (event: FormEvent<HTMLFormElement>): boolean => {
    if (checked.length === 0 || !isSendPress(event)) return false;
    const warnings = softWarnings(checked, new FormData(event.currentTarget));
    const unseen = Object.keys(warnings).filter((name) => !current.seen.includes(name));
    const held = unseen.length > 0;
    setShown({ answer, warnings, seen: [...new Set([...current.seen, ...unseen])], held });
    if (held) {
      event.preventDefault();
      event.currentTarget.querySelector<HTMLElement>(`[name="${unseen[0]}"]`)?.focus();
    } else {
      // Checked here, so the server does not check again: a post kept on the device and sent on a later day must
      // not come back with a warning ("already passed") nobody is there to answer.
      const seenField = event.currentTarget.elements.namedItem(SOFT_CHECKS_SEEN_FIELD);
      if (seenField instanceof HTMLInputElement) seenField.value = checked.map((field) => field.name).join(" ");
    }
    return held;
  };

  const follow = (target: EventTarget, always: boolean) => {
    if (!isAnswerInput(target)) return;
    const check = checked.find((field) => field.name === target.name)?.softCheck;
    if (!check || (!always && !(target.name in current.warnings))) return;
    const { [target.name]: _previous, ...others } = current.warnings;
    const warning = check(target.value.trim());
    setShown({ ...current, warnings: warning ? { ...others, [target.name]: warning } : others });
  };

  return {
    /** Whether the form has soft checks at all. */
    active: checked.length > 0,
    warnings: current.warnings,
    seen: current.seen,
    held: current.held,
    holdBack,
    onInput: (event: FormEvent<HTMLFormElement>) => follow(event.target, false),
    onBlur: (event: FocusEvent<HTMLFormElement>) => follow(event.target, true),
  };
}
