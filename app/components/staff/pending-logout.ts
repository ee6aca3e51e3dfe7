/*
 * A logout the server has not heard of yet. The session's cookie is HttpOnly, so only the server can end it:
 * logging out without signal keeps the logout here, where the staff app's service worker reads it too, and the
 * worker sends it before it answers any staff page (scripts/staff-app/service-worker.mjs). Decision 0904.
 */

const PENDING_LOGOUT_CACHE = "staff-pending-logout";
export const LOGOUT_PATH = "/admin/logout";
/** The Background Sync tag that wakes the worker to send a kept logout once the signal is back. */
export const SEND_PENDING_LOGOUT = "send-pending-logout";

/** Posts the logout as the page's form does; true once the server has ended the session. */
async function postLogout(): Promise<boolean> {
  const answer = await fetch(LOGOUT_PATH, { method: "POST", credentials: "same-origin", redirect: "manual" }).catch(
    () => undefined,
  );
  return answer !== undefined && (answer.type === "opaqueredirect" || answer.ok);
}

/** Logs out now, or keeps the logout to send when the server can be reached. True when it was sent now. */
export async function logOutOrKeep(): Promise<boolean> {
  if (await postLogout()) return true;
  await (await caches.open(PENDING_LOGOUT_CACHE)).put(LOGOUT_PATH, new Response(""));
  return false;
}

/** Sends a kept logout: "none" when there is none, "sent", or "kept" while the server is still out of reach. */
export async function sendPendingLogout(): Promise<"none" | "sent" | "kept"> {
  if (!(await caches.has(PENDING_LOGOUT_CACHE))) return "none";
  if (!(await postLogout())) return "kept";
  await caches.delete(PENDING_LOGOUT_CACHE);
  return "sent";
}
