import { useEffect, useRef, useState } from "react";

const COPIED_DISPLAY_MS = 1_200;

/**
 * Copies the full URL of a path (or a full URL as it is), shows `Copied!` for 1.2 s and announces it to screen
 * readers. Shared by the Quick Links cards and the calendar address.
 */
export function CopyLinkButton({ path, title }: { path: string; title: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    const url = new URL(path, window.location.origin).href;
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(url);
      setState("copied");
      timer.current = setTimeout(() => setState("idle"), COPIED_DISPLAY_MS);
    } catch {
      setState("failed");
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={copy}
        aria-label={`Copy link to ${title}`}
        className="inline-flex size-11 items-center justify-center rounded-full border-2 border-brand-700 text-brand-800 hover:bg-brand-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <rect x="9" y="9" width="12" height="12" rx="2" />
          <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
        </svg>
      </button>
      <span role="status" className="text-sm font-semibold text-brand-800">
        {state === "copied" ? "Copied!" : state === "failed" ? "Copy failed: select the link and copy it" : ""}
      </span>
    </span>
  );
}
