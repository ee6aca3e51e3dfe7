import type { EstimateRequest } from "./schema";

/*
 * What the server-rendered estimate form and the script of its pages agree on, without React: the script's
 * bundle must not pull in the components.
 */

export const ESTIMATE_FORM_ID = "estimate-form";
export const ESTIMATE_SUCCESS_DIALOG_ID = "estimate-success";

/** Where the page's script sends the form for an answer in JSON (app/routes/estimate-answer.ts). */
export const ESTIMATE_ANSWER_PATH = "/forms/estimate";

/** The confirmation's text by project type (spec §4): the company takes commercial projects only. */
export const ESTIMATE_SUCCESS_TEXTS: Record<EstimateRequest["projectType"], string> = {
  residential:
    "Thank you, we have received your request. We currently focus only on commercial projects, so we can't take on residential work right now, but we have kept your information on file and will reach out if that changes.",
  commercial: "Thank you, we have received your request and will reach out to you shortly.",
};
