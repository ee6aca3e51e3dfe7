/**
 * A resource route whose loader and action the server calls itself (server/server-answered-routes.ts), without
 * React Router's request handling: for small answers that come at volume, such as a public form's JSON answer.
 * Such a route has a fixed path and answers with a Response; its request's body is read whole, up to one byte
 * past `maxBodyBytes` (the action's own reader then finds it too large and says so).
 */
export type ServerAnsweredHandle = { answeredBy: "server"; maxBodyBytes: number };

export function serverAnsweredHandle(limits: { maxBodyBytes: number }): ServerAnsweredHandle {
  return { answeredBy: "server", maxBodyBytes: limits.maxBodyBytes };
}

export function isServerAnswered(handle: unknown): handle is ServerAnsweredHandle {
  return typeof handle === "object" && handle !== null && "answeredBy" in handle && handle.answeredBy === "server";
}
