import { useEffect } from "react";
import type { ChoiceOption, OptionId } from "~/features/skills/choice";
import { optionForKey } from "~/features/skills/choice";

type Shortcuts = {
  enabled: boolean;
  /** The options of the question on screen; none for a text question. */
  options: readonly ChoiceOption[];
  onChoose: (id: OptionId) => void;
  onNext: () => void;
  onPrevious: () => void;
};

const NON_TEXT_INPUTS = new Set(["radio", "checkbox", "button", "submit", "reset"]);

/** Typing in a field must stay typing: no letter picks an option and Left arrow moves the caret. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable;
}

const isRadio = (target: EventTarget | null) => target instanceof HTMLInputElement && target.type === "radio";

/**
 * The assessment's keys: A-D or 1-4 pick an option, Enter continues, Left arrow goes back. A focused button or
 * link keeps its own Enter, and a radio group keeps its own arrow keys.
 */
export function useAnswerShortcuts({ enabled, options, onChoose, onNext, onPrevious }: Shortcuts) {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTextEntry(event.target)) return;
      const target = event.target;
      if (event.key === "Enter") {
        if (target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement) return;
        event.preventDefault();
        onNext();
      } else if (event.key === "ArrowLeft") {
        if (isRadio(target)) return;
        event.preventDefault();
        onPrevious();
      } else {
        const option = optionForKey(event.key, options);
        if (!option) return;
        event.preventDefault();
        onChoose(option);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [enabled, options, onChoose, onNext, onPrevious]);
}
