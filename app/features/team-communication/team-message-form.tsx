import { useEffect, useState } from "react";
import { useActionData } from "react-router";
import { FieldError } from "~/components/forms/field-error";
import { storedOutcome } from "~/components/forms/form-outcome";
import { StaffForm } from "~/components/forms/staff-form";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import { useStaffForm } from "~/components/forms/use-staff-form";
import type { FormActionResult } from "~/forms/action-result";
import type { BrowserAnswer } from "~/forms/browser-answer";
import type { KeptAnswer } from "~/forms/queue-answer";
import { teamMessageForm } from "./definition";
import { MESSAGE_BODY_MAX_LENGTH, SEND_PROBLEM, teamMessageFields } from "./schema";
import type { TechnicianOption } from "./technician";
import { TechnicianPicker } from "./technician-picker";

/** The success banner goes after this long (docs/spec.md §9). */
const SUCCESS_BANNER_MS = 5_000;

const labelOf = (name: (typeof teamMessageFields)[number]["name"]) =>
  teamMessageFields.find((field) => field.name === name)?.label ?? name;

const BODY_TOO_LONG = `Body is too long (at most ${MESSAGE_BODY_MAX_LENGTH} characters)`;

const errorsOf = (problem: string | undefined) => (problem ? [problem] : undefined);

type TeamMessageAnswer = FormActionResult | BrowserAnswer | KeptAnswer;

/**
 * The message form: technicians (rendered with the page, so it works without JavaScript), subject and body,
 * and the answer in a banner above it. A success clears the form and the selection and the banner goes after
 * 5 seconds; a failure keeps everything as it was, on the screen and in the device's draft.
 */
export function TeamMessageForm({
  technicians,
  loadFailed,
}: {
  technicians: readonly TechnicianOption[];
  loadFailed: boolean;
}) {
  const result = useActionData<TeamMessageAnswer>();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bodyLength, setBodyLength] = useState(0);
  const [shownResult, setShownResult] = useState<TeamMessageAnswer | undefined>(result);
  // A new message (sent, or handed to the queue) starts with no technician chosen and an empty body.
  const staffForm = useStaffForm(teamMessageForm, result, {
    onAfresh: () => {
      setSelected(new Set());
      setBodyLength(0);
    },
  });

  useEffect(() => {
    setShownResult(result);
    // Only the spec's words go (§9): what was not sent stays in view until the next message.
    if (result?.status !== "success" || !result.sent) return;
    const timer = setTimeout(() => setShownResult(undefined), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const problems = shownResult?.status === "invalid" ? shownResult.problems : {};
  const bodyTooLong = bodyLength > MESSAGE_BODY_MAX_LENGTH;

  return (
    <StaffForm
      form={staffForm}
      answer={shownResult}
      success={storedOutcome}
      submitLabel="Send Message"
      busyLabel="Sending..."
      besideSubmit={<FieldError id="team-message-send-problem" message={problems[SEND_PROBLEM]} />}
      id="team-message"
      className="mt-6 space-y-6"
      noValidate
      onReset={() => {
        setSelected(new Set());
        setBodyLength(0);
      }}
    >
      <TechnicianPicker
        technicians={technicians}
        loadFailed={loadFailed}
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
    </StaffForm>
  );
}
