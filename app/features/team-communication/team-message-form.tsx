import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useFetcher } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import type { FormActionResult } from "~/forms/action-result";
import { teamMessageFields } from "./fields";
import { MESSAGE_BODY_MAX_LENGTH } from "./schema";
import type { TechnicianOption } from "./technician";
import { TechnicianPicker } from "./technician-picker";

const TECHNICIANS_PATH = "/admin/quick-links/team-communication/technicians";
/** The success banner goes after this long (spec §9). */
const SUCCESS_BANNER_MS = 5_000;

type TechniciansAnswer = { technicians: TechnicianOption[]; failed: boolean };

const labelOf = (name: (typeof teamMessageFields)[number]["name"]) =>
  teamMessageFields.find((field) => field.name === name)?.label ?? name;

const BODY_TOO_LONG = `Body is too long (at most ${MESSAGE_BODY_MAX_LENGTH} characters)`;

const errorsOf = (problem: string | undefined) => (problem ? [problem] : undefined);

/**
 * The message form: technicians, subject and body, and the answer in a banner above it. A success clears the
 * form and the selection and the banner goes after 5 seconds; a failure keeps everything as it was.
 */
export function TeamMessageForm() {
  const result = useActionData<FormActionResult>();
  const sending = usePending();
  const technicians = useFetcher<TechniciansAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bodyLength, setBodyLength] = useState(0);
  const [shownResult, setShownResult] = useState<FormActionResult | undefined>(undefined);

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
  const outcome = shownResult && {
    status: shownResult.status === "success" ? ("success" as const) : ("error" as const),
    message: shownResult.status === "success" ? "Message sent successfully!" : shownResult.message,
  };

  return (
    <>
      <OutcomeAlert outcome={outcome} className="mt-6" />
      <Form ref={formRef} method="post" className="mt-6 space-y-6" noValidate>
        <TechnicianPicker
          technicians={technicians.data?.technicians}
          loadFailed={technicians.data?.failed}
          selected={selected}
          onChange={setSelected}
          error={problems.recipients}
        />
        <TextField
          name="subject"
          label={labelOf("subject")}
          required
          autoComplete="off"
          errors={errorsOf(problems.subject)}
        />
        <TextAreaField
          name="body"
          label={labelOf("body")}
          required
          rows={6}
          hint={`${bodyLength} of ${MESSAGE_BODY_MAX_LENGTH} characters`}
          onChange={(event) => setBodyLength(event.target.value.length)}
          errors={errorsOf(problems.body ?? (bodyTooLong ? BODY_TOO_LONG : undefined))}
        />
        <SubmitButton busy={sending} busyLabel="Sending...">
          Send Message
        </SubmitButton>
      </Form>
    </>
  );
}
