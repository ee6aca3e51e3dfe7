import { useCallback, useEffect, useState } from "react";

export type GuardValues = { submissionKey: string; startedAt: number };

/**
 * A form's double-submit key and the time it was opened, made in the browser (without JavaScript the
 * server derives a key itself). `renew` starts a new submission: a send after it is a new one.
 */
export function useSubmissionGuards() {
  const [guards, setGuards] = useState<GuardValues>();
  useEffect(() => setGuards({ submissionKey: crypto.randomUUID(), startedAt: Date.now() }), []);
  const renew = useCallback(
    () => setGuards((current) => current && { ...current, submissionKey: crypto.randomUUID() }),
    [],
  );
  return { guards, renew };
}

/** The hidden honeypot field a person never fills, and the guard values as hidden inputs. */
export function SubmissionGuardFields({ idPrefix, guards }: { idPrefix: string; guards?: GuardValues }) {
  return (
    <>
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={`${idPrefix}-website`}>Leave this field empty</label>
        <input id={`${idPrefix}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {guards && <input type="hidden" name="submissionKey" value={guards.submissionKey} />}
      {guards && <input type="hidden" name="startedAt" value={guards.startedAt} />}
    </>
  );
}
