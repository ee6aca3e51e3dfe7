import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useFetcher, useNavigation } from "react-router";
import type { FormActionResult } from "~/forms/action-result";
import { teamMessageFields } from "./fields";
import { MESSAGE_BODY_MAX_LENGTH } from "./schema";
import type { TechnicianOption } from "./technician";
import { TechnicianPicker } from "./technician-picker";

export const TECHNICIANS_PATH = "/admin/quick-links/team-communication/technicians";
/** The success banner goes after this long (spec §9). */
export const SUCCESS_BANNER_MS = 5_000;

export type TeamMessageActionResult = FormActionResult;
type TechniciansAnswer = { technicians: TechnicianOption[]; failed: boolean };

const label = (name: (typeof teamMessageFields)[number]["name"]) =>
  teamMessageFields.find((field) => field.name === name)?.label ?? name;

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50";

/**
 * The message form: technicians, subject and body, and the answer in a banner above it. A success clears the
 * form and the selection and the banner goes after 5 seconds; a failure keeps everything as it was.
 */
export function TeamMessageForm() {
  const result = useActionData<TeamMessageActionResult>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction?.endsWith("/team-communication");
  const technicians = useFetcher<TechniciansAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bodyLength, setBodyLength] = useState(0);
  const [shownResult, setShownResult] = useState<TeamMessageActionResult | undefined>(undefined);

  const { load } = technicians;
  useEffect(() => {
    void load(TECHNICIANS_PATH);
  }, [load]);

  useEffect(() => {
    setShownResult(result);
    if (result?.status !== "success") return;
    formRef.current?.reset();
    setSelected(new Set());
    setBodyLength(0);
    const timer = setTimeout(() => setShownResult(undefined), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const problems = shownResult?.status === "invalid" ? shownResult.problems : {};
  const bodyTooLong = bodyLength > MESSAGE_BODY_MAX_LENGTH;

  return (
    <>
      <div aria-live="assertive" className="mt-6">
        {shownResult ? (
          shownResult.status === "success" ? (
            <p
              role="status"
              className="rounded-lg border border-brand-700 bg-brand-50 px-4 py-3 font-medium text-brand-900"
            >
              Message sent successfully!
            </p>
          ) : (
            <p role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 font-medium text-red-900">
              {shownResult.message}
            </p>
          )
        ) : null}
      </div>
      <Form ref={formRef} method="post" className="mt-6 space-y-6" noValidate>
        <TechnicianPicker
          technicians={technicians.data?.technicians}
          loadFailed={technicians.data?.failed}
          selected={selected}
          onChange={setSelected}
          error={problems.recipients}
        />
        <div>
          <label htmlFor="team-message-subject" className="block font-medium text-slate-900">
            {label("subject")}
          </label>
          <input
            id="team-message-subject"
            name="subject"
            required
            autoComplete="off"
            aria-invalid={problems.subject ? true : undefined}
            aria-describedby={problems.subject ? "team-message-subject-error" : undefined}
            className={inputClass}
          />
          {problems.subject ? (
            <p id="team-message-subject-error" className="mt-1 text-sm font-medium text-red-800">
              {problems.subject}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor="team-message-body" className="block font-medium text-slate-900">
            {label("body")}
          </label>
          <textarea
            id="team-message-body"
            name="body"
            required
            rows={6}
            onChange={(event) => setBodyLength(event.target.value.length)}
            aria-invalid={problems.body || bodyTooLong ? true : undefined}
            aria-describedby={`team-message-body-count${problems.body ? " team-message-body-error" : ""}`}
            className={inputClass}
          />
          <p
            id="team-message-body-count"
            className={`mt-1 text-sm ${bodyTooLong ? "font-medium text-red-800" : "text-slate-700"}`}
          >
            {bodyLength} of {MESSAGE_BODY_MAX_LENGTH} characters
            {bodyTooLong ? ": too long to send, please shorten it" : ""}
          </p>
          {problems.body ? (
            <p id="team-message-body-error" className="mt-1 text-sm font-medium text-red-800">
              {problems.body}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          disabled={sending || bodyTooLong}
          className="button-primary disabled:cursor-not-allowed disabled:bg-slate-500"
        >
          {sending ? "Sending..." : "Send Message"}
        </button>
      </Form>
    </>
  );
}
