type PauseButtonProps = { paused: boolean; onToggle: () => void; slideshowName: string; className?: string };

export function PauseButton({ paused, onToggle, slideshowName, className = "" }: PauseButtonProps) {
  const label = paused ? `Play ${slideshowName}` : `Pause ${slideshowName}`;
  return (
    <button
      type="button"
      onClick={onToggle}
      className={`inline-flex items-center gap-2 rounded-full bg-white/95 px-4 py-2 text-sm font-semibold text-slate-900 shadow ring-1 ring-slate-300 hover:bg-white focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-400 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16" fill="currentColor">
        {paused ? <path d="M4 2.5v11l9-5.5z" /> : <path d="M4 2h3v12H4zM9 2h3v12H9z" />}
      </svg>
      {label}
    </button>
  );
}
