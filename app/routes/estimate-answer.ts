import { redirect } from "react-router";
import { contactPath } from "~/content/navigation";
import { estimateForm } from "~/features/estimate/definition";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import type { Route } from "./+types/estimate-answer";
import { jsonFormAnswer } from "./json-form-answer";
import { serverAnsweredHandle } from "./server-answered-route";

export const handle = serverAnsweredHandle(estimateForm);

/** Nothing to show here: a visit (a crawler, a link copied by hand) goes to the form itself. */
export const loader = () => redirect(contactPath);

/** The estimate form's answer for the script of the pages that carry it; without JavaScript it posts to its page. */
export const action = (args: Route.ActionArgs) => jsonFormAnswer(submitEstimate, args, { answeredByServer: true });
