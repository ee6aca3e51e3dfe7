/**
 * A resource route whose loader and action the server calls itself (server/server-answered-routes.ts), without
 * React Router's request handling: for small answers that come at volume, such as a public form's JSON answer.
 * Such a route has a fixed path and answers with a JsonAnswer or a Response (a redirect); its request's body is
 * read whole, up to one byte past `maxBodyBytes` (the action's own reader then finds it too large and says so).
 */
export type ServerAnsweredHandle = { answeredBy: "server"; maxBodyBytes: number };

export function serverAnsweredHandle(limits: { maxBodyBytes: number }): ServerAnsweredHandle {
  return { answeredBy: "server", maxBodyBytes: limits.maxBodyBytes };
}

export function isServerAnswered(handle: unknown): handle is ServerAnsweredHandle {
  return typeof handle === "object" && handle !== null && "answeredBy" in handle && handle.answeredBy === "server";
}

/**
 * A server-answered route's JSON answer, written as the text of `body` without a Fetch Response: making one and
 * reading it back through its streams was 5% of the app's CPU under a flood of form posts. A plain object with a
 * mark, like the handle, since the server's bundle and the app's each have their own copy of this module.
 */
export type JsonAnswer = {
  answer: "json";
  body: unknown;
  status: number;
  headers: Record<string, string>;
};

export function jsonAnswer(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): JsonAnswer {
  return { answer: "json", body, status: init.status ?? 200, headers: init.headers ?? {} };
}

export function isJsonAnswer(value: unknown): value is JsonAnswer {
  return typeof value === "object" && value !== null && "answer" in value && value.answer === "json";
}
