import { useRef } from "react";
import { NavLink } from "react-router";
import { LineIcon } from "~/components/line-icon";

/** One entry of the staff navigation: a staff screen that exists. */
export type StaffNavEntry = { label: string; path: string };

const MENU_ID = "staff-menu";

/**
 * The staff screens: from a laptop's width (1280 px) a row of links, which the frame puts on a line of its own
 * under the mark and the signed-in user, since with every tool listed it does not fit beside them; narrower, a
 * menu behind one button. The menu is a native popover, so it opens without JavaScript, closes on Escape or a
 * tap outside, and needs no focus handling of ours.
 */
export function StaffNavigation({ entries }: { entries: readonly StaffNavEntry[] }) {
  const menuRef = useRef<HTMLUListElement>(null);
  // After a client-side navigation the frame stays on screen, and so would an open menu.
  const closeMenu = () => {
    if (menuRef.current?.matches(":popover-open")) menuRef.current.hidePopover();
  };
  return (
    <nav aria-label="Staff" className="xl:order-last xl:basis-full xl:pb-2">
      <button
        type="button"
        popoverTarget={MENU_ID}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-full border-2 border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700 xl:hidden"
      >
        <LineIcon size={18} path="M3 6h18M3 12h18M3 18h18" />
        Menu
      </button>
      <ul
        id={MENU_ID}
        ref={menuRef}
        popover="auto"
        className="fixed inset-x-0 top-14 bottom-auto max-h-[calc(100dvh-3.5rem)] w-full space-y-1 overflow-y-auto border-b border-slate-200 bg-white p-3 text-slate-800 shadow-lg xl:static xl:-mx-2 xl:flex xl:max-h-none xl:w-auto xl:flex-wrap xl:items-center xl:gap-1 xl:space-y-0 xl:overflow-visible xl:border-0 xl:bg-transparent xl:p-0 xl:shadow-none"
      >
        {entries.map((entry) => (
          <li key={entry.path}>
            <NavLink
              to={entry.path}
              onClick={closeMenu}
              className="block rounded-lg px-3 py-2.5 font-medium whitespace-nowrap text-slate-800 hover:bg-brand-50 aria-[current=page]:bg-brand-800 aria-[current=page]:text-white xl:rounded-full xl:px-2 xl:py-1.5 xl:text-sm"
            >
              {entry.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
