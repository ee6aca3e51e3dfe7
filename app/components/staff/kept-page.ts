/*
 * The staff app keeps Quick Links and the tools' pages on the device (decision 0904), and never a customer's
 * contact details. The service worker asks for the copy it keeps with KEPT_PAGE_HEADER, and the page leaves out
 * what must not be kept. Every staff answer says `Cache-Control: no-store` to the browser's own cache (Back after
 * Log out shows nothing); the server marks with KEEPABLE_PAGE_HEADER the answers whose route did not say no-store
 * itself (one with a customer's details does), and the worker keeps only those (scripts/staff-app/service-worker.mjs).
 */

/** Sent by the service worker when it fetches a page to keep. */
export const KEPT_PAGE_HEADER = "Staff-App-Kept-Page";

/** Set by the server on a staff answer the staff app may keep on the device. */
export const KEEPABLE_PAGE_HEADER = "Staff-App-Keepable";

/** Whether a response may be kept on the device. */
export const mayBeKept = (response: Response) => response.headers.get(KEEPABLE_PAGE_HEADER) === "yes";
