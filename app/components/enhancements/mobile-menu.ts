const FOCUSABLE = "a[href], button:not([disabled])";

/** The menu dialog's id, which its toggle controls (mobile-menu.tsx). */
export const MOBILE_MENU_ID = "mobile-menu";

/** The menu of a page rendered without React, found by that id. */
export function enhanceMobileMenuOf(document: Document) {
  const toggle = document.querySelector<HTMLButtonElement>(`[aria-controls="${MOBILE_MENU_ID}"]`);
  const menu = document.getElementById(MOBILE_MENU_ID);
  if (toggle && menu instanceof HTMLDialogElement) enhanceMobileMenu(toggle, menu);
}

/**
 * The slide-in menu for small screens (mobile-menu.tsx), once scripts run: a modal <dialog> that makes the rest
 * of the page inert and closes on Escape, on its close button, on a chosen link, or on a tap on the dimmed
 * backdrop; Tab and Shift+Tab wrap inside it, and focus returns to the toggle when it closes. Before (or
 * without) scripts the same dialog is a popover the toggle opens by itself. Returns what undoes it.
 */
export function enhanceMobileMenu(toggle: HTMLButtonElement, dialog: HTMLDialogElement): () => void {
  const closeButton = dialog.querySelector<HTMLButtonElement>("[data-menu-close]");
  for (const button of [toggle, closeButton]) {
    button?.removeAttribute("popovertarget");
    button?.removeAttribute("popovertargetaction");
  }
  dialog.removeAttribute("popover");
  toggle.setAttribute("aria-expanded", "false");

  const listeners = new AbortController();
  const { signal } = listeners;
  toggle.addEventListener(
    "click",
    () => {
      if (dialog.open) return dialog.close();
      dialog.showModal();
      toggle.setAttribute("aria-expanded", "true");
    },
    { signal },
  );
  closeButton?.addEventListener("click", () => dialog.close(), { signal });
  dialog.addEventListener(
    "close",
    () => {
      toggle.setAttribute("aria-expanded", "false");
      toggle.focus();
    },
    { signal },
  );
  dialog.addEventListener("keydown", (event) => keepFocusInside(dialog, event), { signal });
  dialog.addEventListener(
    "click",
    (event) => {
      const target = event.target as Element;
      if (target.closest("a[href]") || (target === dialog && !isInside(dialog, event))) dialog.close();
    },
    { signal },
  );
  return () => listeners.abort();
}

function keepFocusInside(dialog: HTMLDialogElement, event: KeyboardEvent) {
  if (event.key !== "Tab") return;
  const focusable = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = focusable[0];
  const last = focusable.at(-1);
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first?.focus();
  }
}

/** A click on the dialog element itself lands either on its panel's padding or on the backdrop beside it. */
function isInside(dialog: HTMLDialogElement, event: MouseEvent): boolean {
  const panel = dialog.getBoundingClientRect();
  return (
    event.clientX >= panel.left &&
    event.clientX <= panel.right &&
    event.clientY >= panel.top &&
    event.clientY <= panel.bottom
  );
}
