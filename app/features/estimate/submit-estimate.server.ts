import type { AppLoadContext } from "react-router";
import { data } from "react-router";
import type { OutgoingDelivery } from "~/features/deliveries/submission-store.server";
import { acceptSubmission } from "~/features/deliveries/submission-store.server";
import { parseForm } from "~/features/forms/parse-form";
import {
  readSubmissionGuards,
  spamReason,
  submissionKeyOf,
  withinPublicFormLimit,
} from "~/features/forms/submission-guards.server";
import { readFormBody, TEXT_FORM_LIMITS } from "~/forms/read-form-body.server";
import { estimateNotificationEmail } from "./estimate-email.server";
import {
  type EstimateRequest,
  estimateSchema,
  RATE_LIMITED_MESSAGE,
  UNAVAILABLE_MESSAGE,
  UNREADABLE_FORM_MESSAGE,
} from "./schema";

/**
 * The estimate form's action, shared by every page that carries the form. It validates, stores the request
 * with its deliveries in one transaction, wakes the delivery worker and answers with the reference number.
 */
export async function submitEstimate(request: Request, context: AppLoadContext) {
  const read = await readFormBody(request, TEXT_FORM_LIMITS);
  if (!read.ok) return data({ status: "error" as const, message: UNREADABLE_FORM_MESSAGE }, { status: read.status });
  const formData = read.formData;
  const submission = parseForm(formData, estimateSchema);
  if (submission.status !== "success") {
    return data({ status: "invalid" as const, result: submission.reply() }, { status: 400 });
  }
  const clientIp = context.clientIp;
  try {
    if (!(await withinPublicFormLimit(context))) {
      return data(
        { status: "error" as const, message: RATE_LIMITED_MESSAGE, result: submission.reply() },
        { status: 429 },
      );
    }
    const guards = readSubmissionGuards(formData);
    const estimate = submission.value;
    const stored = await acceptSubmission(context, {
      type: "estimate",
      referencePrefix: "EST",
      submissionKey: submissionKeyOf(guards, clientIp, estimate),
      payload: estimate,
      spamReason: spamReason(guards),
      clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      deliveries: (reference) => estimateDeliveries(context, estimate, reference),
    });
    return data({
      status: "success" as const,
      reference: stored.reference,
      projectType: estimate.projectType,
      result: submission.reply(),
    });
  } catch (error) {
    context.logger.error({ err: error }, "estimate request could not be stored");
    return data(
      { status: "error" as const, message: UNAVAILABLE_MESSAGE, result: submission.reply() },
      { status: 503 },
    );
  }
}

export type EstimateActionData = Awaited<ReturnType<typeof submitEstimate>>["data"];

/** The webhook gets exactly the nine fields of the original automation payload. */
function estimateDeliveries(context: AppLoadContext, estimate: EstimateRequest, reference: string): OutgoingDelivery[] {
  const { config } = context;
  const deliveries: OutgoingDelivery[] = [];
  if (config.WEBHOOK_ESTIMATE_URL) {
    deliveries.push({
      channel: "webhook",
      target: "WEBHOOK_ESTIMATE_URL",
      destination: config.WEBHOOK_ESTIMATE_URL,
      body: {
        firstName: estimate.firstName,
        lastName: estimate.lastName,
        email: estimate.email,
        phone: estimate.phone,
        city: estimate.city,
        projectType: estimate.projectType,
        formOfContact: estimate.formOfContact,
        bestTime: estimate.bestTime,
        comments: estimate.comments ?? "",
      },
    });
  }
  if (config.SMTP_URL && config.STAFF_NOTIFY_EMAIL) {
    deliveries.push({
      channel: "email",
      target: "STAFF_NOTIFY_EMAIL",
      destination: config.STAFF_NOTIFY_EMAIL,
      body: estimateNotificationEmail(estimate, reference),
    });
  }
  return deliveries;
}
