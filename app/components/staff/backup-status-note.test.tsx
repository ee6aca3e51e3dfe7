import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { BackupStatusNote } from "./backup-status-note";

const text = (html: string) => html.replaceAll(/<[^>]+>/g, "").replaceAll("&quot;", '"');
// As the dashboard's loader hands it over: the time in the company's time zone, the size for people.
const lastGood = { finishedAt: formatStaffTime("2026-11-25T19:40:00.000Z"), size: "74.2 MB" };

describe("the dashboard's line about backups", () => {
  it("says when the last good backup was taken and its size", () => {
    const html = renderToStaticMarkup(<BackupStatusNote lastGood={lastGood} alert={undefined} every={86_400_000} />);
    expect(text(html)).toBe("Last backup: Nov 25, 2026, 2:40 PM (74.2 MB).");
  });

  it("warns when there has been none for twice BACKUP_EVERY", () => {
    const html = renderToStaticMarkup(<BackupStatusNote lastGood={lastGood} alert="overdue" every={86_400_000} />);
    expect(html).toContain('aria-labelledby="backup-alert-heading"');
    expect(text(html)).toContain("Backups need attention");
    expect(text(html)).toContain("No backup for more than 2 days. Last good backup: Nov 25, 2026, 2:40 PM (74.2 MB).");
  });

  it("warns when the last one failed, and when none was ever taken", () => {
    expect(
      text(renderToStaticMarkup(<BackupStatusNote lastGood={lastGood} alert="failed" every={20_000} />)),
    ).toContain("The last backup failed; it is tried again within a minute.");
    expect(
      text(renderToStaticMarkup(<BackupStatusNote lastGood={undefined} alert="overdue" every={20_000} />)),
    ).toContain("No backup for more than 40 seconds. Last good backup: none yet.");
  });
});
