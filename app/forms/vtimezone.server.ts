import { DateTime } from "luxon";

/**
 * The VTIMEZONE component (RFC 5545 §3.6.5) of an IANA zone, for ical-generator's timezone generator: the zone's
 * offsets and yearly clock changes as this year's rules have them, read from the platform's time-zone data
 * through luxon. Written here rather than taken from a VTIMEZONE package (such as @touch4it/ical-timezones),
 * which the project does not carry: the rules of one zone are a few lines, and luxon already knows them.
 * Rules from 1970 on, as tzurl.org writes them: appointments are recent or ahead, never decades back.
 */
export function vtimezoneOf(zone: string): string | null {
  const cached = components.get(zone);
  if (cached !== undefined) return cached;
  const component = DateTime.now().setZone(zone).isValid ? componentOf(zone, DateTime.now().year) : null;
  components.set(zone, component);
  return component;
}

const components = new Map<string, string | null>();

type Change = { at: DateTime; from: number; to: number };

function componentOf(zone: string, year: number): string {
  const changes = clockChanges(zone, year);
  const observances =
    changes.length === 0
      ? (() => {
          const always = DateTime.fromObject({ year }, { zone }).setLocale("en-US");
          return [observance("STANDARD", "19700101T000000", "", always.offset, always.offset, always.offsetNameShort)];
        })()
      : changes.map((change) => {
          // The wall clock just before the change, in the offset it changes from: DTSTART's local time.
          const wallClock = change.at.plus({ minutes: change.from });
          return observance(
            change.to > Math.min(...changes.map((other) => other.to)) ? "DAYLIGHT" : "STANDARD",
            sameRuleIn1970(wallClock).toFormat("yyyyLLdd'T'HHmmss"),
            `RRULE:FREQ=YEARLY;BYMONTH=${wallClock.month};BYDAY=${weekOfMonth(wallClock)}SU`,
            change.from,
            change.to,
            change.at.setZone(zone).setLocale("en-US").offsetNameShort,
          );
        });
  return ["BEGIN:VTIMEZONE", `TZID:${zone}`, ...observances, "END:VTIMEZONE"].join("\r\n");
}

function observance(
  kind: "STANDARD" | "DAYLIGHT",
  start: string,
  rule: string,
  from: number,
  to: number,
  name: string | null,
): string {
  return [
    `BEGIN:${kind}`,
    `TZOFFSETFROM:${offsetText(from)}`,
    `TZOFFSETTO:${offsetText(to)}`,
    ...(name ? [`TZNAME:${name}`] : []),
    `DTSTART:${start}`,
    ...(rule ? [rule] : []),
    `END:${kind}`,
  ].join("\r\n");
}

/** The instants in `year` when the zone's clocks change, found day by day, then to the minute. */
function clockChanges(zone: string, year: number): Change[] {
  const changes: Change[] = [];
  let day = DateTime.fromObject({ year }, { zone: "utc" });
  while (day.year === year) {
    const next = day.plus({ days: 1 });
    const from = day.setZone(zone).offset;
    const to = next.setZone(zone).offset;
    if (from !== to) {
      let low = day.toMillis();
      let high = next.toMillis();
      while (high - low > 60_000) {
        const middle = low + Math.floor((high - low) / 120_000) * 60_000;
        if (DateTime.fromMillis(middle, { zone }).offset === from) low = middle;
        else high = middle;
      }
      changes.push({ at: DateTime.fromMillis(high, { zone: "utc" }), from, to });
    }
    day = next;
  }
  return changes;
}

/** "-0500" from minutes east of UTC. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0");
  return `${sign}${hours}${String(Math.abs(minutes) % 60).padStart(2, "0")}`;
}

/** Which Sunday of its month a day is: 2 for the second, -1 for the last (a day within the month's last week). */
function weekOfMonth(day: DateTime): number {
  return day.day + 7 > (day.daysInMonth ?? 31) ? -1 : Math.ceil(day.day / 7);
}

/** The same Sunday of the same month (the second, or the last), at the same time, in 1970; `day` is in UTC. */
function sameRuleIn1970(day: DateTime): DateTime {
  const week = weekOfMonth(day);
  const month = DateTime.fromObject(
    { year: 1970, month: day.month, hour: day.hour, minute: day.minute },
    { zone: "utc" },
  );
  if (week > 0) {
    const firstSunday = month.plus({ days: (7 - month.weekday) % 7 });
    return firstSunday.plus({ weeks: week - 1 });
  }
  const last = month.endOf("month").startOf("day").set({ hour: day.hour, minute: day.minute });
  return last.minus({ days: last.weekday % 7 });
}
