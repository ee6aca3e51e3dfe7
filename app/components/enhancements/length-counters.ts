import { lengthCount } from "~/components/forms/field-look";

/** Keeps the count under each long answer (text-area-field.tsx) up to date as the visitor types. */
export function enhanceLengthCounters(root: ParentNode) {
  for (const textarea of root.querySelectorAll<HTMLTextAreaElement>("textarea[maxlength]")) {
    const frame = textarea.parentElement;
    const shown = frame?.querySelector("[data-count-shown]");
    const spoken = frame?.querySelector("[data-count-spoken]");
    if (!shown || !spoken) continue;
    const update = () => {
      const count = lengthCount(textarea.value.length, textarea.maxLength);
      shown.textContent = count.shown;
      spoken.textContent = count.spoken;
    };
    textarea.addEventListener("input", update);
    textarea.form?.addEventListener("reset", () => setTimeout(update));
  }
}
