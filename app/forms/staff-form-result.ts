import { data } from "react-router";

/** What a staff form's action answers when it does not redirect: a message, and per-field messages. */
export type StaffFormResult = {
  status: "error" | "success";
  message: string;
  fieldErrors?: Record<string, string[] | null | undefined>;
  /** Which form on the page answered, where a page has several. */
  intent?: string;
};

/** A staff form refused as a whole, with its HTTP status. */
export const staffFormError = (message: string, status: number) =>
  data({ status: "error", message } satisfies StaffFormResult, { status });

/** The answer to a form whose fields did not pass the schema. */
export function invalidFieldsResult(submission: { reply: () => { error?: StaffFormResult["fieldErrors"] } }) {
  return {
    status: "error",
    message: "Please correct the fields below.",
    fieldErrors: submission.reply().error ?? {},
  } satisfies StaffFormResult;
}
