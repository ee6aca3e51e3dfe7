import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Alert } from "~/components/forms/alert";
import { discardDraft, discardDraftsOf } from "~/components/forms/form-draft";
import { SEND_WAITING_FORMS } from "~/forms/background-sync";
import { isSignedOutAnswer } from "~/forms/browser-answer";
import { sendForm } from "~/forms/send-form";
import {
  forgetWaiting,
  formDataOf,
  markWaitsForSignIn,
  onWaitingFormsChange,
  setSignedInUser,
  type WaitingForm,
  waitingFormsOf,
} from "~/forms/waiting-forms";

/*
 * The staff area as an app on the device (decision 0904): its service worker, the forms that wait for the
 * signal, and what logging out leaves behind. The worker and the manifest are made by the build
 * (scripts/staff-app/).
 */

const SERVICE_WORKER = "/admin/service-worker.js";
const PAGES_CACHE_PREFIX = "staff-pages-";

/**
 * Registers the staff area's service worker and asks it to keep the tools' pages (`toolPaths`), so each opens
 * without signal. Answers, once a new build's worker is waiting, the way to switch to it.
 */
export function useStaffServiceWorker(toolPaths: readonly string[]): (() => void) | undefined {
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
      await worker.register().catch(() => undefined);
      if (!cancelled) worker.messageSW({ type: "cache-tool-pages", paths: paths.split("\n") }).catch(() => undefined);
    });
    return () => {
      cancelled = true;
    };
  }, [paths]);
  return switchToNewVersion;
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

type Sent = { submissionKey: string; label: string; reference: string };

/** A round is one try of every form that waits; each reason to try starts the next. */
const nextRound = (round: number) => round + 1;

/** How often what waits is tried again while a staff page stays open. */
const RETRY_WAITING_EVERY_MS = 15_000;

/**
 * What the signed-in person sent without signal and still waits on the device, and what of it has been sent
 * since, with its reference. It is sent when this page opens, when the signal returns (the `online` event), when
 * the service worker's Background Sync says so, and every RETRY_WAITING_EVERY_MS while the page stays open: a
 * phone can report signal that carries nothing (a captive portal, a weak edge of coverage), and then no `online`
 * event ever comes.
 */
export function WaitingForms({ userId }: { userId: number }) {
  const [waiting, setWaiting] = useState<WaitingForm[]>([]);
  const [sent, setSent] = useState<Sent[]>([]);
  const [round, setRound] = useState(0);

  useEffect(() => {
    setSignedInUser(userId);
    const read = () => void waitingFormsOf(userId).then(setWaiting);
    read();
    const stopWatching = onWaitingFormsChange(read);
    const sendNow = () => setRound(nextRound);
    const onWorkerMessage = (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type === SEND_WAITING_FORMS) sendNow();
    };
    // The next open of any staff page sends what waits, as does the signal's return.
    sendNow();
    window.addEventListener("online", sendNow);
    navigator.serviceWorker?.addEventListener("message", onWorkerMessage);
    return () => {
      stopWatching();
      window.removeEventListener("online", sendNow);
      navigator.serviceWorker?.removeEventListener("message", onWorkerMessage);
    };
  }, [userId]);

  const somethingToSend = waiting.some((form) => !form.waitsForSignIn);
  useEffect(() => {
    if (!somethingToSend) return;
    const retry = setInterval(() => setRound(nextRound), RETRY_WAITING_EVERY_MS);
    return () => clearInterval(retry);
  }, [somethingToSend]);

  if (waiting.length === 0 && sent.length === 0) return null;
  return (
    <section aria-labelledby="waiting-forms-heading" className="mx-auto max-w-7xl px-4 pt-4 sm:px-6">
      {waiting.length > 0 ? (
        <div className="rounded-lg border border-amber-700 bg-amber-50 px-4 py-3 text-slate-900">
          <h2 id="waiting-forms-heading" className="font-bold">
            Waiting to be sent
          </h2>
          <ul className="mt-1 list-disc pl-5">
            {waiting.map((form) => (
              <WaitingFormItem
                key={form.submissionKey}
                form={form}
                round={round}
                onSent={(reference) =>
                  setSent((list) => [...list, { submissionKey: form.submissionKey, label: form.label, reference }])
                }
              />
            ))}
          </ul>
        </div>
      ) : (
        <h2 id="waiting-forms-heading" className="sr-only">
          Sent from this device
        </h2>
      )}
      {sent.length > 0 ? (
        <Alert tone="success" className="mt-2">
          {sent.map((form) => (
            <p key={form.submissionKey}>
              Sent: {form.label}, reference {form.reference}.
            </p>
          ))}
        </Alert>
      ) : null}
    </section>
  );
}

type SendAnswer = { status: string; reference?: string };

/** One waiting form: sent once per round while online, and forgotten once the server has stored it. */
function WaitingFormItem({
  form,
  round,
  onSent,
}: {
  form: WaitingForm;
  round: number;
  onSent: (reference: string) => void;
}) {
  const fetcher = useFetcher<SendAnswer>({ key: `waiting-${form.submissionKey}` });
  const [jsonAnswer, setJsonAnswer] = useState<SendAnswer>();
  const [sending, setSending] = useState(false);
  const answer = form.answeredInJson ? jsonAnswer : fetcher.data;
  // What the effects below read without running again when it changes: they run once per round, once per answer.
  const latest = useRef({ form, onSent, submit: fetcher.submit, sending });
  latest.current = { form, onSent, submit: fetcher.submit, sending: sending || fetcher.state !== "idle" };

  useEffect(() => {
    const { form, submit, sending } = latest.current;
    if (round === 0 || !navigator.onLine || sending) return;
    setSending(true);
    if (form.answeredInJson) {
      void sendForm<SendAnswer>(form.action, formDataOf(form), NO_MESSAGES).then((reply) => {
        setJsonAnswer(reply);
        setSending(false);
      });
    } else {
      // Sent from whatever staff page is open: that page's data is not reloaded after it (a session that ended
      // would take the person to sign-in before they read that the form waits for it).
      void submit(formDataOf(form), {
        method: "post",
        action: form.action,
        encType: "multipart/form-data",
        defaultShouldRevalidate: false,
      }).finally(() => setSending(false));
    }
  }, [round]);

  useEffect(() => {
    const { form, onSent } = latest.current;
    if (!answer) return;
    if (answer.status === "success" && answer.reference) {
      onSent(answer.reference);
      void discardDraft(form.draftKey).catch(() => undefined);
      void forgetWaiting(form.submissionKey);
    } else if (isSignedOutAnswer(answer) && !form.waitsForSignIn) {
      void markWaitsForSignIn(form);
    }
  }, [answer]);

  const kept = new Date(form.keptAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return (
    <li>
      {form.label}, kept at {kept}:{" "}
      {form.waitsForSignIn
        ? "your session had ended; it is sent when you sign in again."
        : sending
          ? "sending…"
          : "sent by itself when the signal returns."}
    </li>
  );
}

/** The XMLHttpRequest sender's messages, unused here: only the answer's kind matters to a waiting form. */
const NO_MESSAGES = { offline: "", unreachable: "", timedOut: "", signedOut: "", failed: "" };

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
  await Promise.all(waiting.map((form) => forgetWaiting(form.submissionKey)));
  await discardDraftsOf(userId).catch(() => undefined);
  if ("caches" in window) {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PAGES_CACHE_PREFIX)).map((name) => caches.delete(name)));
  }
  return true;
}
