import { useCallback, useEffect, useRef, useState } from "react";
import { requestFillToken } from "./request-fill-token";

export type GuardValues = { submissionKey?: string; fillToken?: string };

/**
 * A form's double-submit key, made in the browser (without JavaScript the server derives one), and its
 * fill-time token, fetched from the server the first time the form is touched. `renew` starts a new submission.
 */
export function useSubmissionGuards() {
  const [guards, setGuards] = useState<GuardValues>({});
  const asked = useRef(false);
  useEffect(() => setGuards((current) => ({ ...current, submissionKey: crypto.randomUUID() })), []);
  const renew = useCallback(() => setGuards((current) => ({ ...current, submissionKey: crypto.randomUUID() })), []);
  const onFormTouched = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    void requestFillToken().then((fillToken) => {
      if (fillToken) setGuards((current) => ({ ...current, fillToken }));
      else asked.current = false;
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
