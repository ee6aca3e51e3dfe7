import type { AppLoadContext } from "react-router";
import { signInStaff } from "../../app/services/auth/require-staff.server";
import { startSession } from "../../app/services/auth/sessions.server";
import { cookieFrom } from "./staff";

/**
 * A request as a signed-in staff user's browser sends it, to call a loader or an action as a function: it is
 * passed through the staff middleware on `context` first, as the staff routes' requests are.
 */
export async function staffRequest(
  context: AppLoadContext,
  userId: number,
  path: string,
  init: { method?: string; body?: URLSearchParams | FormData } = {},
): Promise<Request> {
  const cookie = cookieFrom(await startSession(context.db, context.config, { userId, secondFactorPending: false }));
  const request = new Request(`http://localhost${path}`, {
    method: init.method ?? "GET",
    body: init.body,
    headers: { cookie },
  });
  await signInStaff(request, context);
  return request;
}

/** Calls a staff loader or action as the app does: the staff middleware signs the request in first. */
export async function asStaffRoute<Result>(
  request: Request,
  context: AppLoadContext,
  handler: (request: Request, context: AppLoadContext) => Result,
): Promise<Awaited<Result>> {
  await signInStaff(request, context);
  return await handler(request, context);
}

/** What a loader or resource route threw as its answer: a Response, or `data(...)` with its status. */
export async function thrownStatus(work: Promise<unknown>): Promise<number | undefined> {
  const thrown = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (thrown instanceof Response) return thrown.status;
  return (thrown as { init?: { status?: number } } | undefined)?.init?.status;
}
