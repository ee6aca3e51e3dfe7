import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { enhanceMobileMenu, MOBILE_MENU_ID } from "~/components/enhancements/mobile-menu";
import { LineIcon } from "~/components/line-icon";
import { contactPath } from "~/content/navigation";
import { MainMenu } from "./main-menu";

/**
 * The slide-in menu for small screens. Rendered as a popover the toggle opens by itself, which the browser
 * closes on Escape and on a tap outside (and whose open state it tells assistive technology itself, so the
 * toggle has no aria-expanded until then); once scripts run it becomes a modal dialog (app/components/enhancements/
 * mobile-menu.ts): by the public pages' script, or here on the pages React runs.
 */
export function MobileMenu() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!toggleRef.current || !dialogRef.current) return;
    return enhanceMobileMenu(toggleRef.current, dialogRef.current);
  }, []);

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        aria-controls={MOBILE_MENU_ID}
        popoverTarget={MOBILE_MENU_ID}
        className="inline-flex items-center justify-center rounded-md p-2 text-slate-800 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600 lg:hidden"
      >
        <span className="sr-only">Menu</span>
        <LineIcon size={28} path="M3 6h18M3 12h18M3 18h18" />
      </button>
      <dialog
        id={MOBILE_MENU_ID}
        ref={dialogRef}
        aria-label="Main menu"
        popover="auto"
        className="mobile-menu fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-80 max-w-[85vw] bg-white p-0 shadow-2xl backdrop:bg-slate-950/50"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
          <span className="text-lg font-bold text-slate-900">Menu</span>
          <button
            type="button"
            popoverTarget={MOBILE_MENU_ID}
            popoverTargetAction="hide"
            data-menu-close
            className="inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600"
          >
            <span className="sr-only">Close menu</span>
            <LineIcon size={24} path="M6 6l12 12M18 6L6 18" />
          </button>
        </div>
        <MainMenu
          className="px-3 py-4"
          listClassName="space-y-1"
          linkClassName="block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800"
        />
        <div className="px-6 pb-6">
          <Link reloadDocument to={contactPath} className="button-primary block w-full text-center">
            Contact Us
          </Link>
        </div>
      </dialog>
    </>
  );
}
