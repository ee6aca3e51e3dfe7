import { useEffect, useState } from "react";
import { forgetFormsOf, waitingFormsOf } from "~/forms/device-forms";
import { dropKeptPages } from "./kept-page";

/*
 * The staff area as an app on the device (decision 0904): its service worker, and what logging out leaves
 * behind (the forms that wait for the signal are waiting-forms.tsx). The worker and the manifest are made by the
 * build (scripts/staff-app/).
 */

const SERVICE_WORKER = "/admin/service-worker.js";

/**
 * Registers the staff area's service worker and asks it to keep the tools' pages (`toolPaths`) for this session
 * (`keptPagesOwner`, an opaque id of it), so each opens without signal. Answers, once a new build's worker is
 * waiting, the way to switch to it.
 */
export function useStaffServiceWorker(toolPaths: readonly string[], keptPagesOwner: string): (() => void) | undefined {
  const [switchToNewVersion, setSwitchToNewVersion] = useState<() => void>();
  const paths = toolPaths.join("\n");
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    let cancelled = false;
    void import("workbox-window").then(async ({ Workbox }) => {
      const worker = new Workbox(SERVICE_WORKER, { scope: "/admin/" });
      worker.addEventListener("waiting", () => {
        if (cancelled) return;
        setSwitchToNewVersion(() => () => {
          worker.addEventListener("controlling", () => window.location.reload());
          worker.messageSkipWaiting();
        });
      });
      const registration = await worker.register().catch(() => undefined);
      const active = registration && (await activeWorker(registration));
      if (cancelled) return;
      active?.postMessage({ type: "cache-tool-pages", owner: keptPagesOwner, paths: paths.split("\n") });
    });
    return () => {
      cancelled = true;
    };
  }, [paths, keptPagesOwner]);
  return switchToNewVersion;
}

/**
 * The registration's worker once it is active. Not `navigator.serviceWorker.ready` or Workbox's `messageSW`: a
 * page opened outside the worker's scope (signed in at /admin) is never controlled by it, and both wait for that,
 * or for a worker to install, when one is active already.
 */
function activeWorker(registration: ServiceWorkerRegistration): Promise<ServiceWorker | undefined> {
  const coming = registration.installing ?? registration.waiting;
  if (registration.active || !coming) return Promise.resolve(registration.active ?? undefined);
  return new Promise((resolve) => {
    coming.addEventListener("statechange", () => {
      if (coming.state === "activated" || coming.state === "redundant") resolve(registration.active ?? undefined);
    });
  });
}

export function NewVersionNotice({ onReload }: { onReload: () => void }) {
  return (
    <div className="mx-auto max-w-7xl px-4 pt-4 sm:px-6">
      <p className="flex flex-wrap items-center gap-3 rounded-lg bg-brand-50 px-4 py-3 text-slate-800">
        <span>A new version of the staff tools is ready.</span>
        <button type="button" onClick={onReload} className="button-secondary min-h-11 px-3 py-1">
          Reload to update
        </button>
      </p>
    </div>
  );
}

/** Without signal a link opens its page as a document, which the service worker has kept, not as data. */
export function useOfflineDocumentLinks() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (navigator.onLine || !(event.target instanceof Element)) return;
      const link = event.target.closest("a[href]");
      // Stopped before React Router sees it, not prevented: the browser follows the link itself.
      if (link instanceof HTMLAnchorElement && link.origin === window.location.origin) event.stopPropagation();
    };
    window.addEventListener("click", onClick, true);
    return () => window.removeEventListener("click", onClick, true);
  }, []);
}

/**
 * Before logging out: asks first when something of this person's still waits to be sent, then clears what the
 * device keeps of them (their waiting forms, their drafts, the tools' pages). False when they chose to stay.
 */
export async function leaveDevice(userId: number): Promise<boolean> {
  const waiting = await waitingFormsOf(userId);
  if (
    waiting.length > 0 &&
    !window.confirm(
      `${waiting.length} form(s) you sent without signal are not sent yet and would be lost. Log out anyway?`,
    )
  ) {
    return false;
  }
  await forgetFormsOf(userId);
  await dropKeptPages();
  return true;
}
