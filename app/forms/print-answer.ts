import { company } from "~/content/company";
import type { AnyFormDefinition, FieldDefinition } from "./definition";

export const NOT_PROVIDED = "(Not provided)";

const calendarDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const instant = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: company.timeZone,
});
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/**
 * One answer as people read it, the same in the inbox, the CSV, the emails and the PDFs: yes/no as Yes/No,
 * a choice by its label, a calendar date as a date, a time on the 12-hour clock, an amount in dollars, and
 * an empty answer as (Not provided).
 */
export function printAnswer(field: FieldDefinition, value: unknown): string {
  if (value === undefined || value === null || value === "") return NOT_PROVIDED;
  const text = String(value);
  switch (field.kind) {
    case "yesNo":
      return text === "yes" ? "Yes" : text === "no" ? "No" : text;
    case "select":
    case "radio":
      return field.options?.find((option) => option.value === text)?.label ?? text;
    case "date":
      return printDate(text);
    case "time":
      return printTime(text);
    case "money":
      return Number.isFinite(Number(text)) ? money.format(Number(text)) : text;
    default:
      return text;
  }
}

/** A calendar date (2026-03-05) is a day, not an instant: printed as written, in no time zone. */
function printDate(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const date = new Date(`${text}T00:00:00Z`);
    if (!Number.isNaN(date.getTime())) return calendarDate.format(date);
  }
  const moment = new Date(text);
  return Number.isNaN(moment.getTime()) ? text : instant.format(moment);
}

function printTime(text: string): string {
  const match = /^(\d{2}):(\d{2})/.exec(text);
  if (!match) return text;
  const hours = Number(match[1]);
  const suffix = hours < 12 ? "AM" : "PM";
  return `${hours % 12 === 0 ? 12 : hours % 12}:${match[2]} ${suffix}`;
}

/** The answer of a field in a stored payload. */
export function answerOf(field: FieldDefinition, payload: Record<string, unknown>): unknown {
  return field.read ? field.read(payload) : payload[field.name];
}

/** A file stored with a submission, as the answer to its field. */
export type StoredFileName = { fieldName: string; fileName: string };

/**
 * Every field of a stored submission, label and printed answer, in the form's order. A file field reads as
 * the names of its files when they are given, and is left out otherwise (the inbox lists files apart).
 */
export function answerRows(
  definition: Pick<AnyFormDefinition, "fields">,
  payload: Record<string, unknown>,
  files?: readonly StoredFileName[],
): Array<[label: string, answer: string]> {
  return definition.fields.flatMap((field): Array<[string, string]> => {
    if (field.kind !== "file") return [[field.label, printAnswer(field, answerOf(field, payload))]];
    if (!files) return [];
    const names = files.filter((file) => file.fieldName === field.name).map((file) => file.fileName);
    return [[field.label, names.length > 0 ? names.join(", ") : NOT_PROVIDED]];
  });
}
