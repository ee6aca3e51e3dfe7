import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { CHANGE_PARAMETER, takeBackHere } from "~/components/forms/take-back";
import { isSignedOutAnswer } from "~/forms/browser-answer";
import {
  filesOf,
  forgetForm,
  holdForm,
  isWaiting,
  postOf,
  readForm,
  type WaitingForm,
  waitsForSignIn,
  writeForm,
} from "~/forms/device-forms";
import { sendForm } from "~/forms/send-form";

export type SendAnswer = { status: string; reference?: string; pdfUrl?: string; message?: string; sent?: boolean };
type OnSent = (answer: SendAnswer & { reference: string }) => void;

/** A route form's fetcher answers in a later render: how long to wait for it once the fetcher is done. */
const FETCHER_ANSWER_MS = 5_000;

/** The XMLHttpRequest sender's messages, unused here: only the answer's kind matters to a waiting form. */
const NO_MESSAGES = { offline: "", unreachable: "", timedOut: "", signedOut: "", failed: "" };

/**
 * One waiting form: tried once per round while online by the tab that holds it, forgotten once the server has
 * stored it; its answers to read, and Change (back into its page, as a draft) or Cancel.
 */
export function WaitingFormItem({ form, round, onSent }: { form: WaitingForm; round: number; onSent: OnSent }) {
  const sending = useSendEachRound(form, round, onSent);
  const kept = new Date(form.keptAt ?? form.savedAt).toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
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
      <ChangeOrCancel form={form} kept={kept} />
    </li>
  );
}

/** Tries the form once per round, while online and not already trying; true while it is being sent. */
function useSendEachRound(form: WaitingForm, round: number, onSent: OnSent): boolean {
  const send = useSendAsItsPage(form.submissionKey);
  const [sending, setSending] = useState(false);
  // What the effect reads without running again when it changes: it runs once per round.
  const latest = useRef({ form, onSent });
  latest.current = { form, onSent };
  const busy = useRef(false);
  useEffect(() => {
    if (round === 0 || !navigator.onLine || busy.current) return;
    busy.current = true;
    const { form, onSent } = latest.current;
    void sendWhenHeld(form.submissionKey, send, onSent, setSending).finally(() => {
      busy.current = false;
    });
  }, [round, send]);
  return sending;
}

/**
 * Sends the form if this tab can hold it (else another tab sends it, or its page still holds it: the next round
 * tries again): forgotten once stored, waiting for a sign-in when the session had ended.
 */
async function sendWhenHeld(
  submissionKey: string,
  send: (held: WaitingForm) => Promise<SendAnswer | undefined>,
  onSent: OnSent,
  setSending: (sending: boolean) => void,
) {
  const release = await holdForm(submissionKey);
  if (!release) return;
  try {
    // Read again under the hold: another tab may have sent it, or the person taken it back, meanwhile.
    const held = await readForm(submissionKey);
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
    setSending(false);
  }
}

/** Sends a waiting form as its page would: an endpoint answering JSON, or the route's action through React Router. */
function useSendAsItsPage(submissionKey: string) {
  const fetcher = useFetcher<SendAnswer>({ key: `waiting-${submissionKey}` });
  const latest = useRef({ submit: fetcher.submit, data: fetcher.data });
  latest.current = { submit: fetcher.submit, data: fetcher.data };
  const fetcherAnswer = useRef<{ before: unknown; resolve: (answer: SendAnswer | undefined) => void }>(undefined);

  useEffect(() => {
    const waiter = fetcherAnswer.current;
    if (!waiter || fetcher.state !== "idle") return;
    fetcherAnswer.current = undefined;
    waiter.resolve(fetcher.data === waiter.before ? undefined : fetcher.data);
  }, [fetcher.state, fetcher.data]);

  return useCallback(async (held: WaitingForm): Promise<SendAnswer | undefined> => {
    if (held.answeredInJson) return sendForm<SendAnswer>(held.action, postOf(held), NO_MESSAGES);
    const answered = new Promise<SendAnswer | undefined>((resolve) => {
      fetcherAnswer.current = { before: latest.current.data, resolve };
    });
    // Sent from whatever staff page is open: that page's data is not reloaded after it (a session that ended
    // would take the person to sign-in before they read that the form waits for it).
    await latest.current.submit(postOf(held), {
      method: "post",
      action: held.action,
      encType: "multipart/form-data",
      defaultShouldRevalidate: false,
    });
    const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), FETCHER_ANSWER_MS));
    return Promise.race([answered, late]);
  }, []);
}

/** Change (back into its form, as a draft) and Cancel (its answers deleted from the device, once confirmed). */
function ChangeOrCancel({ form, kept }: { form: WaitingForm; kept: string }) {
  const { pathname } = useLocation();
  const changeLabel = `Change ${form.label.toLowerCase()} kept at ${kept}`;
  return (
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
        onClick={() => void cancel(form)}
        className="button-secondary min-h-11 px-3 py-1"
        aria-label={`Cancel ${form.label.toLowerCase()} kept at ${kept}`}
      >
        Cancel
      </button>
    </span>
  );
}

async function cancel(form: WaitingForm) {
  if (!window.confirm(`Cancel this ${form.label.toLowerCase()}? Its answers are deleted from this device.`)) return;
  const release = await holdForm(form.submissionKey, { wait: true });
  try {
    if ((await readForm(form.submissionKey)) !== undefined) await forgetForm(form.submissionKey);
  } finally {
    release?.();
  }
}

/** A waiting form's answers in words, and the names of the files it carries. */
function answersToRead(form: WaitingForm) {
  const files = filesOf(form).map(({ file }) => file.name);
  return files.length > 0 ? [...form.readable, { label: "Files", value: files.join(", ") }] : form.readable;
}
