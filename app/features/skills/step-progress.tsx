/** Where the person is: "n of total" and the same as a progress bar with a percentage. */
export function StepProgress({ step, total, label }: { step: number; total: number; label: string }) {
  const percentage = Math.round((step / total) * 100);
  return (
    <div className="flex items-center gap-4">
      <p className="shrink-0 font-semibold text-slate-700">
        {step} of {total}
      </p>
      {/* A <progress> element rather than a styled div: no inline style attribute for the CSP to refuse. */}
      <progress
        aria-label={label}
        max={100}
        value={percentage}
        className="h-2 flex-1 appearance-none overflow-hidden rounded-full bg-slate-200 [&::-moz-progress-bar]:bg-brand-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-700"
      />
      <p className="w-12 shrink-0 text-right font-semibold text-slate-700">{percentage}%</p>
    </div>
  );
}
