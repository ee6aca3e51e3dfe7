/**
 * A slideshow's pause control. It stays hidden until the page's script runs the slideshow
 * (app/components/enhancements/slideshow.ts), which shows it and keeps its label and icon in step.
 */
export function PauseButton({ slideshowName, className = "" }: { slideshowName: string; className?: string }) {
  return (
    <button
      type="button"
      hidden
      data-pause
      data-paused="false"
      data-name={slideshowName}
      className={`group inline-flex min-h-11 items-center gap-2 rounded-full bg-white/95 px-4 text-sm font-semibold text-slate-900 shadow ring-1 ring-slate-300 hover:bg-white focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-400 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16" fill="currentColor">
        <path className="group-data-[paused=true]:hidden" d="M4 2h3v12H4zM9 2h3v12H9z" />
        <path className="hidden group-data-[paused=true]:inline" d="M4 2.5v11l9-5.5z" />
      </svg>
      <span data-pause-label>Pause {slideshowName}</span>
    </button>
  );
}
