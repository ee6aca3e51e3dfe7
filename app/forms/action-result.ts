import type { SubmissionResult } from "@conform-to/react";

/** Conform's reply: the values as sent and each field's errors, so the form shows them, or resets. */
export type FormReply = SubmissionResult<string[]>;

/** What every form's action answers; `Success` is what this form's page needs besides the reference. */
export type FormActionResult<Success extends object = { result: FormReply }> =
  | {
      status: "invalid";
      message: string;
      problems: Record<string, string>;
      result: FormReply;
      /** Answers allowed but worth a second look (soft-checks.ts), by field: sent as they are on the next post. */
      warnings?: Record<string, string>;
    }
  | {
      status: "error";
      message: string;
      retry: boolean;
      result?: FormReply;
      /** The field that caused it, where one did (a file too large or not of its type), with its message. */
      problems?: Record<string, string>;
      /** A staff form filled in by someone other than the session's person: it waits for them to sign in. */
      failure?: "signedOut";
    }
  | ({
      status: "success";
      reference: string;
      /** What happened, in words: the form's own where true, else what did (FormDefinition's `outcome`). */
      message: string;
      /** False when stored but not sent where the form's own words would say (a service not set up). */
      sent: boolean;
      /** Files stored without: a photo that could not be cleaned, with why (the person is told which). */
      leftOut?: LeftOutFile[];
    } & Success);

/** A file the submission was stored without, and why, in words. */
export type LeftOutFile = { fieldName: string; fileName: string; reason: string };
