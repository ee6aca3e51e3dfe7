import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { data } from "react-router";
import type { MultipartBody } from "~/features/deliveries/multipart-body.server";
import {
  acceptSubmission,
  type OutgoingDelivery,
  type SubmittedFile,
} from "~/features/deliveries/submission-store.server";
import { parseForm } from "~/features/forms/parse-form";
import {
  readSubmissionGuards,
  spamReason,
  submissionKeyOf,
  withinPublicFormLimit,
} from "~/features/forms/submission-guards.server";
import { applicationNotificationEmail, applicationReceiptEmail } from "./application-email.server";
import { APPLICATION_FIELD_ORDER } from "./fields";
import { readApplicationForm } from "./read-application-form.server";
import {
  type Application,
  applicationSchema,
  RATE_LIMITED_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  withoutUnusedFollowUps,
} from "./schema";

/**
 * The application form's action. It reads the multipart post within its caps, validates, stores the
 * application, its resume and its deliveries in one transaction, wakes the delivery worker and answers
 * with the reference number.
 */
export async function submitApplication(request: Request, context: AppLoadContext) {
  const read = await readApplicationForm(request);
  if (!read.ok) {
    return data({ status: "error" as const, message: read.message }, { status: read.status });
  }
  const submission = parseForm(read.formData, applicationSchema);
  if (submission.status !== "success") {
    return data({ status: "invalid" as const, result: submission.reply() }, { status: 400 });
  }
  const application = withoutUnusedFollowUps(submission.value);
  const { resume, ...answers } = application;
  try {
    if (!(await withinPublicFormLimit(context))) {
      return data(
        { status: "error" as const, message: RATE_LIMITED_MESSAGE, result: submission.reply() },
        { status: 429 },
      );
    }
    const files = resume ? [await resumeFile(resume)] : [];
    const guards = readSubmissionGuards(read.formData);
    const stored = await acceptSubmission(context, {
      type: "application",
      referencePrefix: "APP",
      submissionKey: submissionKeyOf(guards, context.clientIp, [answers, files.map(sha256)]),
      payload: answers,
      files,
      spamReason: spamReason(guards),
      clientIp: context.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      deliveries: (reference) => applicationDeliveries(context, application, reference),
    });
    return data({
      status: "success" as const,
      reference: stored.reference,
      result: submission.reply({ resetForm: true }),
    });
  } catch (error) {
    context.logger.error({ err: error }, "job application could not be stored");
    return data(
      { status: "error" as const, message: SUBMIT_FAILED_MESSAGE, result: submission.reply() },
      { status: 503 },
    );
  }
}

async function resumeFile(resume: File): Promise<SubmittedFile> {
  return {
    fieldName: "resume",
    fileName: resume.name || "resume.pdf",
    contentType: "application/pdf",
    content: new Uint8Array(await resume.arrayBuffer()),
  };
}

function sha256(file: SubmittedFile): string {
  return createHash("sha256").update(file.content).digest("hex");
}

/**
 * The original posted every field as multipart/form-data to a primary and a secondary webhook, the resume
 * only when one was chosen. Here each is its own delivery, retried on its own.
 */
export function applicationMultipartBody(application: Application): MultipartBody {
  return {
    parts: APPLICATION_FIELD_ORDER.flatMap((name): MultipartBody["parts"] => {
      if (name === "resume") return application.resume ? [{ name, storedFiles: true }] : [];
      return [{ name, value: String(application[name] ?? "") }];
    }),
  };
}

function applicationDeliveries(
  context: AppLoadContext,
  application: Application,
  reference: string,
): OutgoingDelivery[] {
  const { config } = context;
  const deliveries: OutgoingDelivery[] = [];
  const body = applicationMultipartBody(application);
  for (const target of ["WEBHOOK_APPLICATION_URL", "WEBHOOK_APPLICATION_SECONDARY_URL"] as const) {
    const url = config[target];
    if (url) deliveries.push({ channel: "webhook", target, destination: url, body, bodyFormat: "multipart" });
  }
  const resumeName = application.resume?.name;
  if (config.SMTP_URL && config.MAIL_FROM) {
    deliveries.push({
      channel: "email",
      target: "APPLICANT_RECEIPT",
      destination: application.email,
      body: applicationReceiptEmail(application, reference, resumeName),
    });
  }
  if (config.SMTP_URL && config.STAFF_NOTIFY_EMAIL) {
    deliveries.push({
      channel: "email",
      target: "STAFF_NOTIFY_EMAIL",
      destination: config.STAFF_NOTIFY_EMAIL,
      body: applicationNotificationEmail(application, reference, resumeName),
    });
  }
  return deliveries;
}
