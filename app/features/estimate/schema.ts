import type { SubmissionResult } from "@conform-to/react";
import * as z from "zod/mini";
import { company } from "~/content/company";
import { optionalTextField, REQUIRED_MESSAGE, textField } from "~/features/forms/text-field";

export const PROJECT_TYPES = ["residential", "commercial"] as const;

/** The public free-estimate request: one schema for the browser and the server. */
export const estimateSchema = z.object({
  firstName: textField("First name", 80),
  lastName: textField("Last name", 80),
  email: textField("Email", 254),
  phone: textField("Phone", 40),
  city: textField("City", 80),
  projectType: z.enum(PROJECT_TYPES, {
    error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Choose residential or commercial"),
  }),
  formOfContact: textField("Preferred form of contact", 60),
  bestTime: textField("Best time to reach you", 60),
  comments: optionalTextField("Comments", 2000),
});

export type EstimateRequest = z.infer<typeof estimateSchema>;

export const EMPTY_FIELDS_MESSAGE = "Please enter all fields";

export const UNREACHABLE_MESSAGE = `We couldn't reach our server, so your request was not sent. Your answers are still here: please try again, or call us at ${company.phone.display}.`;
export const UNAVAILABLE_MESSAGE = `We could not send your request just now. Please try again, or call us at ${company.phone.display}.`;
export const UNREADABLE_FORM_MESSAGE = "We could not read what was sent. Please fill in the form and send it again.";
export const RATE_LIMITED_MESSAGE = `Too many requests from your connection. Please wait a few minutes and try again, or call us at ${company.phone.display}.`;

/** What the form gets back from its action; `result` lets Conform show the server's field errors. */
export type EstimateActionResult =
  | { status: "invalid"; result: SubmissionResult<string[]> }
  | { status: "error"; message: string; result?: SubmissionResult<string[]> }
  | {
      status: "success";
      reference: string;
      projectType: EstimateRequest["projectType"];
      result: SubmissionResult<string[]>;
    };
