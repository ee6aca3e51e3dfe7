import {
  type BrowserAnswer,
  type BrowserFailure,
  browserAnswer,
  connectionFailure,
  isSignedOutAnswer,
  isSignInLocation,
  SEND_TIMEOUT_MS,
} from "./browser-answer";
import type { FormMessages } from "./messages";

export type UploadProgress = { sent: number; total: number };

/** An answer that is not ours, in the words the original shows (docs/spec.md §8): a proxy's error page, say. */
export type ForeignAnswer = { status: "error"; message: string; retry: true };

type SendMessages = Pick<FormMessages, "offline" | "unreachable" | "timedOut" | "signedOut" | "failed">;

/**
 * Sends a form to an endpoint that answers with the form's result in JSON, for the forms that do not go
 * through a route's client action: the checklist, whose photos need upload progress, and the public pages
 * that run without React. XMLHttpRequest, unlike fetch, reports the bytes sent. It answers by the same rules
 * as the client action of every other form (form-route.ts): the server's JSON as it is; offline, out of reach,
 * no answer within SEND_TIMEOUT_MS once the body is sent, or the sign-in page (the session ended) each as the
 * browser's own answer; another page (a proxy's 502) as `Error: {status} - {status text}`. A staff form given
 * `handOver` (queue-answer.ts, not imported here: the public pages' script stays small) and sent without signal
 * or signed out is handed to the device's queue instead and sent by itself later (decisions 0904 and 1002).
 */
export function sendForm<Answer, Kept = never>(
  url: string,
  body: FormData | URLSearchParams,
  messages: SendMessages,
  onProgress?: (progress: UploadProgress) => void,
  handOver?: (body: FormData, failure: BrowserFailure) => Promise<Kept | undefined>,
): Promise<Answer | BrowserAnswer | ForeignAnswer | Kept> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    let timedOut = false;
    request.open("POST", url);
    request.setRequestHeader("accept", "application/json");
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress?.({ sent: event.loaded, total: event.total });
    });
    // The upload may take minutes on a weak signal; the wait for the answer starts once it is all sent.
    request.upload.addEventListener("load", () => {
      setTimeout(() => {
        if (request.readyState === XMLHttpRequest.DONE) return;
        timedOut = true;
        request.abort();
      }, SEND_TIMEOUT_MS);
    });
    const failure = async (failed: BrowserFailure = timedOut ? "timedOut" : connectionFailure()) => {
      const kept = body instanceof FormData ? await handOver?.(body, failed) : undefined;
      resolve(kept ?? browserAnswer(failed, messages));
    };
    request.addEventListener("error", () => void failure());
    request.addEventListener("abort", () => void failure());
    request.addEventListener("load", () => {
      const redirectedTo = request.responseURL ? new URL(request.responseURL).pathname : "";
      if (redirectedTo === "/admin" && isSignInLocation(request.responseURL)) {
        void failure("signedOut");
        return;
      }
      if ((request.getResponseHeader("content-type") ?? "").startsWith("application/json")) {
        try {
          const answer = JSON.parse(request.responseText) as Answer;
          // Filled in by someone other than the session's person: it waits for theirs, as after a session ended.
          if (isSignedOutAnswer(answer)) void failure("signedOut");
          else resolve(answer);
          return;
        } catch {
          // A JSON answer cut short: the same as no answer.
          void failure();
          return;
        }
      }
      resolve({ status: "error", message: `Error: ${request.status} - ${request.statusText}`, retry: true });
    });
    try {
      request.send(body);
    } catch {
      void failure();
    }
  });
}
