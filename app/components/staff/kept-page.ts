/*
 * The staff app keeps Quick Links and the tools' pages on the device (decision 0904), and never a customer's
 * contact details. The service worker asks for the copy it keeps with this header, and the page leaves out what
 * must not be kept; a page that carries such details answers `Cache-Control: no-store`, which the worker never
 * keeps (scripts/staff-app/service-worker.mjs).
 */

/** Sent by the service worker when it fetches a page to keep. */
export const KEPT_PAGE_HEADER = "Staff-App-Kept-Page";

/** Whether a response may be kept on the device. */
export const mayBeKept = (response: Response) => !/\bno-store\b/i.test(response.headers.get("Cache-Control") ?? "");
