import type { ReactNode } from "react";
import { useFormAction } from "react-router";
import type { LeftOutFile } from "~/forms/action-result";
import { isSignedOutAnswer } from "~/forms/browser-answer";
import { FORM_OUTCOME_ID, OutcomeAlert } from "./alert";
import { SignInAgain } from "./sign-in-again";

/** A form's answer as far as its outcome shows it: the server's, or the browser's when there was none. */
export type AnsweredForm = { status: "success" | "error" | "invalid"; message?: string; leftOut?: LeftOutFile[] };

/**
 * The outcome of a form, in one place for every form: nothing while it is being sent; `missing` when the
 * browser's own check found an answer missing (focus stays on the first such field); otherwise the answer,
 * a success in the form's own words and anything else as its message, moved into view and focus. A staff
 * form handed to the queue because the session ended offers to sign in again.
 */
export function FormOutcome<Answer extends AnsweredForm>({
  answer,
  success,
  pending = false,
  missing,
  className,
}: {
  answer: Answer | undefined;
  success: (answer: Extract<Answer, { status: "success" }>) => ReactNode;
  pending?: boolean;
  missing?: string;
  className?: string;
}) {
  const outcome = pending
    ? undefined
    : missing
      ? { status: "error" as const, message: missing }
      : answer?.status === "success"
        ? {
            status: "success" as const,
            message: (
              <>
                {success(answer as Extract<Answer, { status: "success" }>)}
                <LeftOut files={answer.leftOut} />
              </>
            ),
          }
        : answer
          ? {
              status: "error" as const,
              message: (
                <>
                  {answer.message}
                  {isSignedOutAnswer(answer) && "kept" in answer ? <SignInAgain /> : null}
                </>
              ),
            }
          : undefined;
  return (
    <OutcomeAlert outcome={outcome} revealOn={missing ? null : answer} id={FORM_OUTCOME_ID} className={className} />
  );
}

/** A stored form's answer in words: what happened to it, the form's own words where true, and its reference. */
export function storedOutcome(answer: { message: string; reference: string }): string {
  return `${answer.message} Reference ${answer.reference}.`;
}

/** The files a stored form went without, each by name with why: the person can send them again another way. */
function LeftOut({ files }: { files: LeftOutFile[] | undefined }) {
  if (!files?.length) return null;
  const count = files.length === 1 ? "1 file" : `${files.length} files`;
  return (
    <>
      {` It was stored without ${count} that could not be used:`}
      <ul className="mt-1 list-disc pl-5">
        {files.map((file) => (
          <li key={`${file.fieldName}/${file.fileName}`}>{`${file.fileName}: ${file.reason}.`}</li>
        ))}
      </ul>
    </>
  );
}

/**
 * Where a form posts: its page, at its outcome, so a page without JavaScript comes back showing the answer
 * rather than the top of the page.
 */
export function useActionAtOutcome(): string {
  return `${useFormAction()}#${FORM_OUTCOME_ID}`;
}
