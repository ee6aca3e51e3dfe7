/**
 * Runs before a staff page's scripts do (an inline script at the top of the staff frame). A form the browser sent
 * itself, before React had the page, is on its way as a new page; a second press of its button once React has the
 * page would send it again beside it, as data, and that answer would be shown instead (the staff directory's Add
 * answered "Please correct the fields below." because the first send had added the person). So a post form the
 * browser sent itself is not sent again from that page: the page the first send brings answers it. A page
 * restored from the back-forward cache starts afresh.
 */
function guardNativeSends() {
  let sentByBrowser = new WeakSet<EventTarget>();
  // At the window, in capture, before React's listeners on the document see the press.
  addEventListener(
    "submit",
    (event) => {
      if (event.target && sentByBrowser.has(event.target)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    true,
  );
  // At the window, bubbling, after React: a send React took over was prevented; any other is the browser's.
  addEventListener("submit", (event) => {
    const form = event.target;
    if (!event.defaultPrevented && form instanceof HTMLFormElement && form.method === "post") sentByBrowser.add(form);
  });
  addEventListener("pageshow", (event) => {
    if (event.persisted) sentByBrowser = new WeakSet();
  });
}

export const NATIVE_SEND_GUARD_SCRIPT = `(${guardNativeSends})()`;
