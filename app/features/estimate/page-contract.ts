import type { EstimateRequest } from "./schema";

/*
 * What the server-rendered estimate form and the script of its pages agree on, without React: the script's
 * bundle must not pull in the components.
 */

export const ESTIMATE_FORM_ID = "estimate-form";
export const ESTIMATE_SUCCESS_DIALOG_ID = "estimate-success";

/** Where the page's script sends the form for an answer in JSON (app/routes/estimate-answer.ts). */
export const ESTIMATE_ANSWER_PATH = "/forms/estimate";

/**
 * The confirmation's texts by project type, which the site's content holds (the commercial-only claim): the
 * dialog carries them as data attributes, `data-success-<type>` and `data-next-step-<type>`, for the script.
 */
export const successTextAttribute = (projectType: EstimateRequest["projectType"]) => `data-success-${projectType}`;
export const nextStepAttribute = (projectType: EstimateRequest["projectType"]) => `data-next-step-${projectType}`;
