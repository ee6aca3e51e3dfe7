import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { contactPath } from "~/content/navigation";
import { MainMenu } from "./main-menu";
import { useHydrated } from "./use-hydrated";

const FOCUSABLE = "a[href], button:not([disabled])";

/**
 * The slide-in menu for small screens. A modal <dialog> makes the rest of the page inert and closes on Escape
 * or a tap on the dimmed backdrop; Tab and Shift+Tab wrap inside it, and focus returns to the toggle when it
 * closes. Until scripts run (or without them) the same dialog is a popover the toggle opens by itself, which
 * the browser closes on Escape and on a tap outside.
 */
export function MobileMenu() {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const close = () => setOpen(false);

  const keepFocusInside = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab") return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  const closeOnBackdropTap = (event: React.MouseEvent<HTMLDialogElement>) => {
    const panel = event.currentTarget.getBoundingClientRect();
    const insidePanel =
      event.clientX >= panel.left &&
      event.clientX <= panel.right &&
      event.clientY >= panel.top &&
      event.clientY <= panel.bottom;
    if (event.target === event.currentTarget && !insidePanel) close();
  };

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls="mobile-menu"
        popoverTarget={hydrated ? undefined : "mobile-menu"}
        onClick={() => setOpen((current) => !current)}
        className="inline-flex items-center justify-center rounded-md p-2 text-slate-800 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600 lg:hidden"
      >
        <span className="sr-only">Menu</span>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="28"
          height="28"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M3 6h18M3 12h18M3 18h18" strokeLinecap="round" />
        </svg>
      </button>
      <dialog
        id="mobile-menu"
        ref={dialogRef}
        aria-label="Main menu"
        onClose={() => {
          setOpen(false);
          toggleRef.current?.focus();
        }}
        onKeyDown={keepFocusInside}
        onClick={closeOnBackdropTap}
        popover={hydrated ? undefined : "auto"}
        className="mobile-menu fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-80 max-w-[85vw] bg-white p-0 shadow-2xl backdrop:bg-slate-950/50"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
          <span className="text-lg font-bold text-slate-900">Menu</span>
          <button
            type="button"
            onClick={close}
            popoverTarget={hydrated ? undefined : "mobile-menu"}
            popoverTargetAction="hide"
            className="rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600"
          >
            <span className="sr-only">Close menu</span>
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              width="24"
              height="24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <MainMenu
          className="px-3 py-4"
          listClassName="space-y-1"
          linkClassName="block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800"
          onNavigate={close}
        />
        <div className="px-6 pb-6">
          <Link to={contactPath} onClick={close} className="button-primary block w-full text-center">
            Contact Us
          </Link>
        </div>
      </dialog>
    </>
  );
}
