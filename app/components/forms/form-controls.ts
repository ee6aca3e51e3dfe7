import { NOT_ANSWERS, type ReadableAnswer } from "~/forms/device-forms";

/*
 * What a form's controls hold, read and written as a person would: the answers a draft keeps, the same answers in
 * words, and a draft put back as if typed.
 */

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export const isAnswerControl = (element: Element): element is Control =>
  (element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement) &&
  element.name !== "" &&
  !NOT_ANSWERS.has(element.name) &&
  !(element instanceof HTMLInputElement && ["file", "hidden", "submit", "button", "reset"].includes(element.type));

/** The answers in the form now, by field name (a checkbox group gives every chosen value). */
export function answersIn(form: HTMLFormElement): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      values[element.name] ??= [];
      if (element.checked) values[element.name]?.push(element.value);
    } else {
      values[element.name] = [element.value];
    }
  }
  return values;
}

/** Whether the person changed the control from what the page came with, whether or not a script saw it happen. */
function changedFromPage(element: Control): boolean {
  if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
    return element.checked !== element.defaultChecked;
  }
  if (element instanceof HTMLSelectElement) {
    const options = Array.from(element.options);
    if (element.multiple) return options.some((option) => option.selected !== option.defaultSelected);
    const onReset = options.findLast((option) => option.defaultSelected) ?? options.find((option) => !option.disabled);
    return element.value !== (onReset?.value ?? "");
  }
  return element.value !== element.defaultValue;
}

/** Puts a control back to what the page came with, without an event. */
function backToPage(element: Control) {
  if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
    element.checked = element.defaultChecked;
  } else if (element instanceof HTMLSelectElement) {
    for (const option of Array.from(element.options)) option.selected = option.defaultSelected;
  } else {
    element.value = element.defaultValue;
  }
}

/**
 * What the person typed or picked before the page's script ran (a slow phone still loading it, a quick hand)
 * is in the fields, but React's state never saw it, and the first render after hydrating puts a controlled
 * field back. Each such field is set back to the page's value and given again as if typed or clicked now, so
 * that the form's handlers have it; the names of those fields.
 */
export function replayEditsBeforeScripts(form: HTMLFormElement): Set<string> {
  const changed = Array.from(form.elements).filter(isAnswerControl).filter(changedFromPage);
  const names = new Set(changed.map((element) => element.name));
  if (names.size === 0) return names;
  const answers = Object.fromEntries(Object.entries(answersIn(form)).filter(([name]) => names.has(name)));
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    if (names.has(element.name)) backToPage(element);
  }
  restoreAnswers(form, answers, new Set());
  return names;
}

/**
 * Puts a draft's answers back into the form as if typed or clicked, so React's handlers and the form's own
 * checks see them: a value through the element's native setter and an input event (React ignores a plain
 * assignment), a checkbox or radio by a click when it differs. A field the draft does not know keeps its value,
 * and so does one the person `edited` while the draft was being read: what they typed last wins.
 */
export function restoreAnswers(form: HTMLFormElement, values: Record<string, string[]>, edited: ReadonlySet<string>) {
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    const saved = values[element.name];
    if (!saved || edited.has(element.name)) continue;
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      if (element.checked !== saved.includes(element.value)) element.click();
      continue;
    }
    const value = saved[0] ?? "";
    if (element.value === value) continue;
    const prototype = Object.getPrototypeOf(element) as object;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(element, value);
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  }
}

/** An element's words, a space between those of its parts (a name and a note in spans of their own). */
function textOf(element: Element | null | undefined): string {
  if (!element) return "";
  const words: string[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) words.push(node.textContent ?? "");
  return words.join(" ").replace(/\s+/g, " ").trim();
}

/** A control's question: a choice group's legend, otherwise its own label without the "(optional)" note. */
function questionOf(element: Control): string {
  const choice = element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio");
  const legend = choice ? element.closest("fieldset")?.querySelector("legend") : undefined;
  const label = textOf(legend ?? element.labels?.[0]) || element.name;
  return label.replace(/\s*\(optional\)$/, "").replace(/\s*\*$/, "");
}

/** The answers given so far in words, question by question, as the person would read them back. */
export function readableAnswersIn(form: HTMLFormElement): ReadableAnswer[] {
  const byName = new Map<string, { label: string; values: string[] }>();
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    const entry = byName.get(element.name) ?? { label: questionOf(element), values: [] };
    byName.set(element.name, entry);
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      if (element.checked) entry.values.push(textOf(element.labels?.[0]) || element.value);
    } else if (element instanceof HTMLSelectElement) {
      entry.values.push(...Array.from(element.selectedOptions, (option) => (option.value ? textOf(option) : "")));
    } else {
      entry.values.push(element.value);
    }
  }
  return [...byName.values()]
    .map(({ label, values }) => ({ label, value: values.filter((value) => value.trim() !== "").join(", ") }))
    .filter((answer) => answer.value !== "");
}
