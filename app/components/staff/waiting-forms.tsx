import { useEffect, useState } from "react";
import { Alert } from "~/components/forms/alert";
import { SEND_WAITING_FORMS } from "~/forms/background-sync";
import { onDeviceFormsChange, setSignedInUser, type WaitingForm, waitingFormsOf } from "~/forms/device-forms";
import { type SendAnswer, WaitingFormItem } from "./waiting-form-item";

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
  const { waiting, round } = useSendRounds(userId);
  const [sent, setSent] = useState<Sent[]>([]);

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
                onSent={(answer) => setSent((list) => [...list, sentOf(form, answer)])}
              />
            ))}
          </ul>
        </div>
      ) : (
        <h2 id="waiting-forms-heading" className="sr-only">
          Sent from this device
        </h2>
      )}
      {sent.length > 0 ? <SentForms sent={sent} /> : null}
    </section>
  );
}

/** The person's waiting forms, read again at every change, and the rounds of sending them. */
function useSendRounds(userId: number) {
  const [waiting, setWaiting] = useState<WaitingForm[]>([]);
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

  return { waiting, round };
}

const sentOf = (form: WaitingForm, answer: SendAnswer & { reference: string }): Sent => ({
  submissionKey: form.submissionKey,
  label: form.label,
  reference: answer.reference,
  documentUrl: answer.pdfUrl,
  notSent: answer.sent === false ? answer.message : undefined,
});

/** What the queue has sent since the page opened, each with its reference and its PDF to download. */
function SentForms({ sent }: { sent: readonly Sent[] }) {
  return (
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
  );
}
