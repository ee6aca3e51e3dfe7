import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { Alert } from "~/components/forms/alert";
import { CHANGE_PARAMETER, takeBackHere } from "~/components/forms/use-device-form";
import { SEND_WAITING_FORMS } from "~/forms/background-sync";
import { isSignedOutAnswer } from "~/forms/browser-answer";
import {
  filesOf,
  forgetForm,
  forgetFormsOf,
  holdForm,
  isWaiting,
  onDeviceFormsChange,
  postOf,
  readForm,
  setSignedInUser,
  type WaitingForm,
  waitingFormsOf,
  waitsForSignIn,
  writeForm,
} from "~/forms/device-forms";
import { sendForm } from "~/forms/send-form";
import { dropKeptPages } from "./kept-page";

/*
 * The staff area as an app on the device (decision 0904): its service worker, the forms that wait for the
 * signal, and what logging out leaves behind. The worker and the manifest are made by the build
 * (scripts/staff-app/).
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

/** A form sent from the queue; `notSent` is what its server did not send on, in words (its answer's message). */
type Sent = { submissionKey: string; label: string; reference: string; documentUrl?: string; notSent?: string };

/** A round is one try of every form that waits; each reason to try starts the next. */
const nextRound = (round: number) => round + 1;

/** How often what waits is tried again while a staff page is open. */
const RETRY_WAITING_EVERY_MS = 15_000;

/**
 * The device's queue for the signed-in person (app/forms/device-forms.ts): what they handed over without signal
 * or while signed out, with its answers to read, a way to change or cancel it, and what of it has been sent
 * since, with its reference. It is sent when this page opens, when the signal returns (the `online` event), when
 * the service worker's Background Sync says so, and every RETRY_WAITING_EVERY_MS while the page stays open: a
 * phone can report signal that carries nothing (a captive portal, a weak edge of coverage), and then no `online`
 * event ever comes. Every tab shows the same queue; a form is sent by the one tab that holds it.
 */
export function WaitingForms({ userId }: { userId: number }) {
  const [waiting, setWaiting] = useState<WaitingForm[]>([]);
  const [sent, setSent] = useState<Sent[]>([]);
  const [round, setRound] = useState(0);

  useEffect(() => {
    setSignedInUser(userId);
    const read = () => void waitingFormsOf(userId).then(setWaiting);
    read();
    const stopWatching = onDeviceFormsChange(read);
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

  const somethingToSend = waiting.some((form) => form.state === "waiting");
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
          <ul className="mt-1 grid gap-2">
            {waiting.map((form) => (
              <WaitingFormItem
                key={form.submissionKey}
                form={form}
                round={round}
                onSent={(answer) =>
                  setSent((list) => [
                    ...list,
                    {
                      submissionKey: form.submissionKey,
                      label: form.label,
                      reference: answer.reference,
                      documentUrl: answer.pdfUrl,
                      notSent: answer.sent === false ? answer.message : undefined,
                    },
                  ])
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
              Sent: {form.label}, reference {form.reference}.{form.notSent ? ` ${form.notSent}` : null}
              {form.documentUrl ? (
                <>
                  {" "}
                  <a href={form.documentUrl} download className="underline">
                    Download the PDF
                  </a>
                  .
                </>
              ) : null}
            </p>
          ))}
        </Alert>
      ) : null}
    </section>
  );
}

type SendAnswer = { status: string; reference?: string; pdfUrl?: string; message?: string; sent?: boolean };

/** A route form's fetcher answers in a later render: how long to wait for it once the fetcher is done. */
const FETCHER_ANSWER_MS = 5_000;

/**
 * One waiting form: tried once per round while online by the tab that holds it, forgotten once the server has
 * stored it; its answers to read, and Change (back into its page, as a draft) or Cancel.
 */
function WaitingFormItem({
  form,
  round,
  onSent,
}: {
  form: WaitingForm;
  round: number;
  onSent: (answer: SendAnswer & { reference: string }) => void;
}) {
  const fetcher = useFetcher<SendAnswer>({ key: `waiting-${form.submissionKey}` });
  const { pathname } = useLocation();
  const [sending, setSending] = useState(false);
  // What the effects below read without running again when it changes: they run once per round.
  const latest = useRef({ form, onSent, submit: fetcher.submit, fetcherData: fetcher.data });
  latest.current = { form, onSent, submit: fetcher.submit, fetcherData: fetcher.data };
  const busy = useRef(false);
  const fetcherAnswer = useRef<{ before: unknown; resolve: (answer: SendAnswer | undefined) => void }>(undefined);

  useEffect(() => {
    const waiter = fetcherAnswer.current;
    if (!waiter || fetcher.state !== "idle") return;
    fetcherAnswer.current = undefined;
    waiter.resolve(fetcher.data === waiter.before ? undefined : fetcher.data);
  }, [fetcher.state, fetcher.data]);

  useEffect(() => {
    if (round === 0 || !navigator.onLine || busy.current) return;
    busy.current = true;
    const { submit, onSent } = latest.current;
    /** Sends it as its page would: an endpoint answering JSON, or the route's action through React Router. */
    const send = async (held: WaitingForm): Promise<SendAnswer | undefined> => {
      if (held.answeredInJson) return sendForm<SendAnswer>(held.action, postOf(held), NO_MESSAGES);
      const answered = new Promise<SendAnswer | undefined>((resolve) => {
        fetcherAnswer.current = { before: latest.current.fetcherData, resolve };
      });
      // Sent from whatever staff page is open: that page's data is not reloaded after it (a session that ended
      // would take the person to sign-in before they read that the form waits for it).
      await submit(postOf(held), {
        method: "post",
        action: held.action,
        encType: "multipart/form-data",
        defaultShouldRevalidate: false,
      });
      const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), FETCHER_ANSWER_MS));
      return Promise.race([answered, late]);
    };
    void (async () => {
      const release = await holdForm(latest.current.form.submissionKey);
      if (!release) {
        // Another tab sends it, or its page still holds it: the next round tries again.
        busy.current = false;
        return;
      }
      try {
        // Read again under the hold: another tab may have sent it, or the person taken it back, meanwhile.
        const held = await readForm(latest.current.form.submissionKey);
        if (!held || !isWaiting(held)) return;
        setSending(true);
        const answer = await send(held);
        if (answer?.status === "success" && answer.reference) {
          await forgetForm(held.submissionKey);
          onSent({ ...answer, reference: answer.reference });
        } else if (isSignedOutAnswer(answer) && held.state === "waiting") {
          await writeForm(waitsForSignIn(held));
        }
      } finally {
        release();
        busy.current = false;
        setSending(false);
      }
    })();
  }, [round]);

  const cancel = async () => {
    if (!window.confirm(`Cancel this ${form.label.toLowerCase()}? Its answers are deleted from this device.`)) return;
    const release = await holdForm(form.submissionKey, { wait: true });
    try {
      if ((await readForm(form.submissionKey)) !== undefined) await forgetForm(form.submissionKey);
    } finally {
      release?.();
    }
  };

  const kept = new Date(form.keptAt ?? form.savedAt).toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const changeLabel = `Change ${form.label.toLowerCase()} kept at ${kept}`;
  return (
    <li className="grid gap-1">
      <p>
        {form.label}, kept at {kept}:{" "}
        {form.state === "waiting-sign-in"
          ? "your session had ended; it is sent when you sign in again."
          : sending
            ? "sending…"
            : "sent by itself when the signal returns."}
      </p>
      <details>
        <summary className="cursor-pointer underline">Its answers</summary>
        <dl className="mt-1 grid gap-x-4 sm:grid-cols-[max-content_1fr]">
          {answersToRead(form).map((answer) => (
            <div key={answer.label} className="contents">
              <dt className="font-semibold">{answer.label}</dt>
              <dd className="break-words">{answer.value}</dd>
            </div>
          ))}
        </dl>
      </details>
      <span className="flex flex-wrap gap-3">
        {pathname === form.page ? (
          // On its own page the form takes it back where it is: a navigation would need signal.
          <button
            type="button"
            onClick={() => takeBackHere(form)}
            className="button-secondary min-h-11 px-3 py-1"
            aria-label={changeLabel}
          >
            Change
          </button>
        ) : (
          <Link
            to={`${form.page}?${CHANGE_PARAMETER}=${encodeURIComponent(form.submissionKey)}`}
            className="button-secondary min-h-11 px-3 py-1"
            aria-label={changeLabel}
          >
            Change
          </Link>
        )}
        <button
          type="button"
          onClick={() => void cancel()}
          className="button-secondary min-h-11 px-3 py-1"
          aria-label={`Cancel ${form.label.toLowerCase()} kept at ${kept}`}
        >
          Cancel
        </button>
      </span>
    </li>
  );
}

/** A waiting form's answers in words, and the names of the files it carries. */
function answersToRead(form: WaitingForm) {
  const files = filesOf(form).map(({ file }) => file.name);
  return files.length > 0 ? [...form.readable, { label: "Files", value: files.join(", ") }] : form.readable;
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
  await forgetFormsOf(userId);
  await dropKeptPages();
  return true;
}
