import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/** The query parameter of a form's page that takes a waiting form back into it, to be changed. */
export const CHANGE_PARAMETER = "change";

const TAKE_BACK = "device-form-take-back";
type TakeBack = { formType: string; submissionKey: string };

/** Takes a waiting form back into its form on this page, without a navigation (which needs signal). */
export function takeBackHere(form: TakeBack) {
  window.dispatchEvent(new CustomEvent<TakeBack>(TAKE_BACK, { detail: form }));
}

/**
 * The waiting form a page of `formType` is asked to take back: named in its address (`?change=<key>`), or handed
 * to it in place (takeBackHere). A new object each time, so that the same form taken back twice opens twice.
 */
export function useFormToTakeBack(formType: string) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [change, setChange] = useState<{ key: string | null }>(() => ({ key: searchParams.get(CHANGE_PARAMETER) }));
  const changeInAddress = searchParams.get(CHANGE_PARAMETER);
  useEffect(() => {
    if (changeInAddress) setChange({ key: changeInAddress });
  }, [changeInAddress]);

  useEffect(() => {
    const onTakeBack = (event: Event) => {
      const { detail } = event as CustomEvent<TakeBack>;
      if (detail.formType === formType) setChange({ key: detail.submissionKey });
    };
    window.addEventListener(TAKE_BACK, onTakeBack);
    return () => window.removeEventListener(TAKE_BACK, onTakeBack);
  }, [formType]);

  return { change, setSearchParams };
}

/** Taken back once: the address no longer names it, so a reload opens it as this tab's draft. */
export function forgetTakenBack(setSearchParams: ReturnType<typeof useSearchParams>[1]) {
  if (!new URLSearchParams(window.location.search).has(CHANGE_PARAMETER)) return;
  setSearchParams(
    (params) => {
      params.delete(CHANGE_PARAMETER);
      return params;
    },
    { replace: true, preventScrollReset: true },
  );
}
