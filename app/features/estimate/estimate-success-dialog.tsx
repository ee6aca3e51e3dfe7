import { useSiteChrome } from "~/components/site-chrome";
import { withPhone } from "~/content/phone";
import type { SiteContent } from "~/content/site-content";
import { ESTIMATE_SUCCESS_DIALOG_ID, nextStepAttribute, successTextAttribute } from "./page-contract";
import type { EstimateRequest } from "./schema";

const REFERENCE_CLASS = "font-mono text-lg text-slate-900";

/**
 * The confirmation after a request is stored. Without JavaScript the page comes back with it shown in place;
 * with it, the page's script fills it in and opens it as a modal dialog, which takes focus, closes on Escape
 * and gives focus back (estimate-form-script.ts). It is always in the page, closed until there is an answer.
 */
export function EstimateSuccessDialog({
  answer,
  texts,
}: {
  answer: { reference: string; projectType: EstimateRequest["projectType"] } | undefined;
  texts: SiteContent["estimate"];
}) {
  const chrome = useSiteChrome();
  const nextSteps = {
    commercial: withPhone(texts.nextSteps.commercial, chrome),
    residential: withPhone(texts.nextSteps.residential, chrome),
  };
  const textsForScript = {
    [successTextAttribute("commercial")]: texts.success.commercial,
    [successTextAttribute("residential")]: texts.success.residential,
    [nextStepAttribute("commercial")]: nextSteps.commercial,
    [nextStepAttribute("residential")]: nextSteps.residential,
  };
  return (
    <dialog
      id={ESTIMATE_SUCCESS_DIALOG_ID}
      open={answer !== undefined}
      aria-labelledby="estimate-success-title"
      aria-describedby="estimate-success-text"
      {...textsForScript}
      className="relative mx-auto my-6 w-full max-w-lg rounded-2xl bg-white p-6 text-slate-800 shadow-2xl ring-1 ring-slate-200 backdrop:bg-slate-950/60 open:block [&:modal]:fixed [&:modal]:m-auto"
    >
      <h3 id="estimate-success-title" className="text-2xl font-bold text-brand-800">
        success!
      </h3>
      <p id="estimate-success-text" className="mt-3" data-success-text>
        {answer ? texts.success[answer.projectType] : null}
      </p>
      <p className="mt-3">
        {"Your reference number is "}
        <strong className={REFERENCE_CLASS} data-reference>
          {answer?.reference}
        </strong>
        .
      </p>
      <p className="mt-3" data-next-step>
        {answer ? nextSteps[answer.projectType] : null}
      </p>
      <form method="dialog" className="mt-6 text-right">
        <button type="submit" className="button-primary">
          Close
        </button>
      </form>
    </dialog>
  );
}
