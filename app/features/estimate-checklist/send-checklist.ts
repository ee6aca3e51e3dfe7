import type { ChecklistActionResult } from "./definition";

export type UploadProgress = { sent: number; total: number };

/** How a send ended, as the page tells it: the action's answer, or why there was none. */
export type SendOutcome =
  | { kind: "answered"; result: ChecklistActionResult }
  /** No answer at all: offline, or the connection dropped mid-upload. Sending again is safe. */
  | { kind: "unreachable" }
  /** An answer that is not the action's (a proxy's error page, or the sign-in page after the session ended). */
  | { kind: "http"; status: number; statusText: string; signedOut: boolean }
  | { kind: "failed"; message: string };

/**
 * Posts the checklist with XMLHttpRequest, whose upload events (unlike fetch's) tell how many bytes have
 * gone out, so a dozen photos on a weak signal show real progress.
 */
export function sendChecklist(url: string, body: FormData, onProgress: (progress: UploadProgress) => void) {
  return new Promise<SendOutcome>((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("accept", "application/json");
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress({ sent: event.loaded, total: event.total });
    });
    request.addEventListener("error", () => resolve({ kind: "unreachable" }));
    request.addEventListener("abort", () => resolve({ kind: "unreachable" }));
    request.addEventListener("load", () => {
      const json = (request.getResponseHeader("content-type") ?? "").startsWith("application/json");
      if (json) {
        try {
          resolve({ kind: "answered", result: JSON.parse(request.responseText) as ChecklistActionResult });
          return;
        } catch (error) {
          resolve({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
          return;
        }
      }
      const signedOut = new URL(request.responseURL || url, window.location.href).pathname === "/admin";
      resolve({ kind: "http", status: request.status, statusText: request.statusText, signedOut });
    });
    try {
      request.send(body);
    } catch (error) {
      resolve({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  });
}
