import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { useEffect, useState } from "react";
import { useActionData } from "react-router";
import { StaffForm } from "~/components/forms/staff-form";
import { TextField } from "~/components/forms/text-field";
import { useStaffForm } from "~/components/forms/use-staff-form";
import { StaffSection } from "~/components/staff/staff-section";
import { useHydrated } from "~/components/use-hydrated";
import type { BrowserAnswer } from "~/forms/browser-answer";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { parseForm } from "~/forms/parse-form";
import type { KeptAnswer } from "~/forms/queue-answer";
import { REQUIRED_MESSAGE } from "~/forms/required-message";
import { averageRating, NO_AVERAGE } from "./average";
import { type PeerReviewActionResult, peerReviewForm } from "./definition";
import { RatingColumnHeadings, RatingRow } from "./rating-row";
import { RATING_MEANINGS, RATINGS } from "./ratings";
import { peerReviewSchema, REVIEW_FOR_MAX_LENGTH } from "./schema";
import { PEER_REVIEW_STATEMENTS, statementFieldName } from "./statements";

/** The server's length caps, as the fields' maxlength. */
const LENGTH_LIMITS = lengthConstraintsOf(peerReviewSchema);

const STATEMENT_NAMES = PEER_REVIEW_STATEMENTS.map((_statement, index) => statementFieldName(index));

/** Saves the stored PDF to the device, as the original did: the browser downloads it from the file route. */
function downloadPdf(url: string) {
  const link = document.createElement("a");
  link.href = url;
  // Empty: the file name comes from the server's Content-Disposition (peer-review-{name}.pdf).
  link.download = "";
  document.body.append(link);
  link.click();
  link.remove();
}

/** The success line of a page without JavaScript, which cannot save the PDF by itself and offers it instead. */
const SUBMITTED_WITHOUT_DOWNLOAD = "Your peer review has been submitted.";

const averageIn = (form: HTMLFormElement) => {
  const data = new FormData(form);
  return averageRating(STATEMENT_NAMES.map((name) => data.get(name)));
};

/**
 * The peer review questionnaire. The server checks it, builds the PDF and stores both; the page then saves
 * the PDF to the device (without JavaScript, it offers the PDF to download). The answers are kept on the
 * device until the server has them, and stay on the screen whenever it does not. "Peer Review for" suggests
 * `names` (the staff, so one person's reviews are filed under one name) and the date starts as `today`.
 */
export function PeerReviewForm({ names, today }: { names: readonly string[]; today: string }) {
  const actionData = useActionData<PeerReviewActionResult | BrowserAnswer | KeptAnswer>();
  const hydrated = useHydrated();
  const [average, setAverage] = useState(NO_AVERAGE);
  // The next review is a new submission with an average of its own.
  const staffForm = useStaffForm(peerReviewForm, actionData, { onAfresh: () => setAverage(NO_AVERAGE) });
  useEffect(() => {
    if (actionData?.status === "success") downloadPdf(actionData.pdfUrl);
  }, [actionData]);

  const [form, fields] = useForm({
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: { date: today },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    constraint: LENGTH_LIMITS,
    onValidate: ({ formData }) => parseForm(formData, peerReviewSchema),
  });
  const anyMissing = Object.values(form.allErrors).some((errors) => errors.includes(REQUIRED_MESSAGE));

  return (
    <StaffForm
      form={staffForm}
      answer={actionData}
      missing={anyMissing ? peerReviewForm.messages.missing : undefined}
      success={(answer) => (
        <>
          {hydrated ? peerReviewForm.messages.success : SUBMITTED_WITHOUT_DOWNLOAD}{" "}
          <a href={answer.pdfUrl} download className="underline">
            {hydrated ? "Download the PDF again" : "Download the PDF"}
          </a>
          . Reference {answer.reference}.
        </>
      )}
      submitLabel="Submit"
      busyLabel="Submitting..."
      {...getFormProps(form)}
      onChange={(event) => setAverage(averageIn(event.currentTarget))}
      className="mt-6 grid gap-6"
    >
      <div className="grid gap-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 sm:p-6">
        <TextField
          field={fields.reviewFor}
          label="Peer Review for"
          requiredText={peerReviewForm.messages.requiredField}
          autoComplete="off"
          maxLength={REVIEW_FOR_MAX_LENGTH}
          suggestions={names}
          required
        />
        <TextField
          field={fields.date}
          kind="date"
          label="Date"
          requiredText={peerReviewForm.messages.requiredField}
          required
        />
      </div>
      <StaffSection headingId="rating-scale" title="Rate each statement" className="grid gap-3">
        <ul aria-label="Rating scale" className="flex flex-wrap gap-x-4 gap-y-1 text-slate-800">
          {RATINGS.map((rating) => (
            <li key={rating}>
              <strong>{rating}</strong> {RATING_MEANINGS[rating]}
            </li>
          ))}
        </ul>
        <RatingColumnHeadings />
        {PEER_REVIEW_STATEMENTS.map((statement, index) => {
          // Conform has a field for every name; the type only knows the names are q followed by a number.
          const field = fields[statementFieldName(index)] as FieldMetadata<unknown>;
          return <RatingRow key={statement} number={index + 1} statement={statement} field={field} />;
        })}
      </StaffSection>
      <p className="text-lg font-semibold text-slate-900">
        Average score: <output aria-live="polite">{average}</output>
        <span className="ml-2 text-sm font-normal text-slate-700">(NE and unanswered statements are not counted)</span>
      </p>
    </StaffForm>
  );
}
