import * as z from "zod/mini";
import { field, type Presentation } from "~/forms/field-builders";
import { REQUIRED_MESSAGE } from "~/forms/required-message";

/** Whether `value` (YYYY-MM-DD) is a day the calendar has: not 2025-02-30. */
function isCalendarDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A date from a date input (YYYY-MM-DD), a real one. A past date is allowed: an appointment may be recorded late. */
function calendarDate(label: string) {
  return z
    .string({ error: REQUIRED_MESSAGE })
    .check(
      z.trim(),
      z.minLength(1, REQUIRED_MESSAGE),
      z.regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date`),
      z.refine(isCalendarDay, `${label} is not a real date`),
    );
}

/** A time from a time input, on the 24-hour clock (14:30); seconds, when a browser sends them, are dropped. */
function clockTime(label: string) {
  return z.pipe(
    z
      .string({ error: REQUIRED_MESSAGE })
      .check(
        z.trim(),
        z.minLength(1, REQUIRED_MESSAGE),
        z.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, `${label} must be a time, like 2:30 PM`),
      ),
    z.transform((value: string) => value.slice(0, 5)),
  );
}

/**
 * An amount of dollars as people type it ($12,500 or 12500.5), kept as a string with cents: "12500.50".
 * Written by hand: a money library would be heavier than these two rules in the browser bundle.
 */
function dollarAmount(label: string) {
  const message = `${label} must be an amount in dollars, like 12,500.00`;
  return z.pipe(
    z.string({ error: REQUIRED_MESSAGE }).check(
      z.trim(),
      z.refine((value) => /^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(value), message),
      z.refine((value) => Number(value.replace(/[$,\s]/g, "")) < 1e12, message),
    ),
    z.transform((value: string) => Number(value.replace(/[$,\s]/g, "")).toFixed(2)),
  );
}

// The staff forms' calendar and money questions, apart from the other builders so that the public forms' pages
// do not load them.

/** A real calendar day (YYYY-MM-DD); a past one is allowed. */
export const date = <const Name extends string>(name: Name, label: string, presentation?: Presentation) =>
  field("date", name, label, calendarDate(label), presentation);

export const time = <const Name extends string>(name: Name, label: string, presentation?: Presentation) =>
  field("time", name, label, clockTime(label), presentation);

/** An amount of dollars, kept as a string with cents. */
export const money = <const Name extends string>(name: Name, label: string, presentation?: Presentation) =>
  field("money", name, label, dollarAmount(label), presentation);
