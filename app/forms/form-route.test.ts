import { redirect } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SEND_TIMEOUT_MS } from "./browser-answer";
import { formRoute } from "./form-route";
import { formMessages } from "./messages";

const messages = formMessages({});
const { clientAction, shouldRevalidate } = formRoute<{ status: "success"; reference: string }>({
  type: "job-request",
  label: "Job Request",
  audience: "staff",
  messages,
});

/** The client action as React Router calls it, with the server's side of the send given. */
const send = (serverAction: () => Promise<unknown>) =>
  clientAction({
    serverAction,
    request: new Request("http://this.site/admin/quick-links/job-request", { method: "POST", body: new FormData() }),
  } as unknown as Parameters<typeof clientAction>[0]);

afterEach(() => {
  vi.useRealTimers();
});

describe("the client action every React form is sent through", () => {
  it("passes the server's answer through", async () => {
    await expect(send(async () => ({ status: "success", reference: "ERQ-ABC123" }))).resolves.toEqual({
      status: "success",
      reference: "ERQ-ABC123",
    });
  });

  it("answers that the session ended, instead of following the redirect to sign in, so the answers stay", async () => {
    const answer = await send(async () => {
      throw redirect("/admin?redirectTo=%2Fadmin%2Fquick-links%2Fjob-request");
    });
    expect(answer).toMatchObject({ status: "error", failure: "signedOut", message: messages.signedOut });
  });

  it("still follows any other redirect", async () => {
    await expect(
      send(async () => {
        throw redirect("/admin/account/two-factor");
      }),
    ).rejects.toBeInstanceOf(Response);
  });

  it("shows a refusal the route threw (a 403) as the form's message, and a 5xx as a send that could not be confirmed", async () => {
    const thrown = (status: number, data: unknown) => ({ status, statusText: "", internal: false, data });
    await expect(
      send(async () => {
        throw thrown(403, { message: "This page is for admins only." });
      }),
    ).resolves.toEqual({ status: "error", message: "This page is for admins only.", retry: false });
    await expect(
      send(async () => {
        throw thrown(500, "down");
      }),
    ).resolves.toMatchObject({ status: "error", failure: "unreachable", message: messages.unreachable, retry: true });
  });

  it("says the send could not be confirmed when the server has not answered in time", async () => {
    vi.useFakeTimers();
    const answer = send(() => new Promise(() => undefined));
    await vi.advanceTimersByTimeAsync(SEND_TIMEOUT_MS);
    await expect(answer).resolves.toMatchObject({ status: "error", failure: "timedOut", message: messages.timedOut });
  });

  it("does not ask the page's loaders again after an answer the browser made", async () => {
    const signedOut = await send(async () => {
      throw redirect("/admin?redirectTo=%2Fadmin");
    });
    const args = { actionResult: signedOut, defaultShouldRevalidate: true } as Parameters<typeof shouldRevalidate>[0];
    expect(shouldRevalidate(args)).toBe(false);
    expect(shouldRevalidate({ ...args, actionResult: { status: "success" } })).toBe(true);
  });
});
