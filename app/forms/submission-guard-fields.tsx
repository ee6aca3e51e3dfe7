import { useCallback, useEffect, useRef, useState } from "react";
import { FILL_TOKEN_PATH } from "./fill-token-path";

export type GuardValues = { submissionKey?: string; fillToken?: string };

/**
 * A form's double-submit key, made in the browser (without JavaScript the server derives one), and its
 * fill-time token, fetched from the server the first time the form is touched: a prerendered page cannot
 * carry a fresh one, and the browser's own clock is never asked. `renew` starts a new submission.
 */
export function useSubmissionGuards() {
  const [guards, setGuards] = useState<GuardValues>({});
  const asked = useRef(false);
  useEffect(() => setGuards((current) => ({ ...current, submissionKey: crypto.randomUUID() })), []);
  const renew = useCallback(() => setGuards((current) => ({ ...current, submissionKey: crypto.randomUUID() })), []);
  const onFormTouched = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    fetch(FILL_TOKEN_PATH, { cache: "no-store" })
      .then((response) => (response.ok ? (response.json() as Promise<{ token?: string }>) : undefined))
      .then((body) => {
        if (body?.token) setGuards((current) => ({ ...current, fillToken: body.token }));
      })
      // Offline when touched: the next touch asks again; a form sent without a token is simply not timed.
      .catch(() => {
        asked.current = false;
      });
  }, []);
  return { guards, renew, onFormTouched };
}

/** The hidden honeypot field a person never fills, and the guard values as hidden inputs. */
export function SubmissionGuardFields({ idPrefix, guards }: { idPrefix: string; guards: GuardValues }) {
  return (
    <>
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={`${idPrefix}-website`}>Leave this field empty</label>
        <input id={`${idPrefix}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {guards.submissionKey && <input type="hidden" name="submissionKey" value={guards.submissionKey} />}
      {guards.fillToken && <input type="hidden" name="fillToken" value={guards.fillToken} />}
    </>
  );
}
