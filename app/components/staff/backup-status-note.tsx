export type BackupStatusNoteProps = {
  /** When the last good backup finished and its size, as people read them; undefined: none yet. */
  lastGood: { finishedAt: string; size: string } | undefined;
  alert: "overdue" | "failed" | undefined;
  /** BACKUP_EVERY in milliseconds. */
  every: number;
};

const UNITS = [
  [86_400_000, "day"],
  [3_600_000, "hour"],
  [60_000, "minute"],
  [1_000, "second"],
] as const;

/** "2 days", "48 hours", "40 seconds": the largest unit the duration is a whole number of. */
function spellDuration(milliseconds: number): string {
  for (const [size, unit] of UNITS) {
    if (milliseconds >= size && milliseconds % size === 0) {
      const count = milliseconds / size;
      return `${count} ${unit}${count === 1 ? "" : "s"}`;
    }
  }
  return `${milliseconds} ms`;
}

/** The dashboard's line about backups, and its warning when there has been none for too long or the last failed. */
export function BackupStatusNote({ lastGood, alert, every }: BackupStatusNoteProps) {
  const last = lastGood ? `${lastGood.finishedAt} (${lastGood.size})` : undefined;
  if (!alert) return <p className="text-slate-700">Last backup: {last ?? "none yet"}.</p>;
  const problem =
    alert === "failed"
      ? "The last backup failed; it is tried again within a minute."
      : `No backup for more than ${spellDuration(2 * every)}.`;
  return (
    <section aria-labelledby="backup-alert-heading" className="rounded-xl border-2 border-red-700 bg-red-50 p-3">
      <h2 id="backup-alert-heading" className="font-bold text-red-900">
        Backups need attention
      </h2>
      <p className="mt-1 text-red-900">
        {problem} Last good backup: {last ?? "none yet"}. The server's log says why (look for &ldquo;scheduled backup
        failed&rdquo;).
      </p>
    </section>
  );
}
