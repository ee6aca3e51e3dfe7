import { type AppLoadContext, data } from "react-router";
import type * as z from "zod/mini";
import {
  acceptSubmission,
  type StoredSubmission,
  type SubmittedFile,
  storedDeliveries,
  storedUnderKey,
} from "~/outbox/submission-store.server";
import { type SignedInStaff, signedInStaff } from "~/services/auth/require-staff.server";
import type { Transaction } from "~/services/db/database.server";
import { documentsBuilt } from "~/services/metrics/metrics.server";
import type { FormActionResult, FormReply } from "./action-result";
import type { FormDefinition } from "./definition";
import { devicePushes, outgoingDeliveries } from "./deliveries.server";
import { storedFileNames } from "./file-names";
import { ensureRoomForFiles, type FailedPost, FormRefusal, failureAnswer, fieldErrorsOf } from "./form-failures.server";
import { parseForm } from "./parse-form";
import type { PreparedUploads } from "./photos.server";
import {
  fieldOverCount,
  fileFingerprints,
  type PostedFiles,
  postedFiles,
  withPreparedFiles,
} from "./posted-files.server";
import { judgeSubmission, publicFormLimit, readSubmissionGuards, submissionKeyOf } from "./public-guards.server";
import { type BodyProblem, discardPostedFiles, readFormBody } from "./read-form-body.server";
import { REQUIRED_MESSAGE } from "./required-message";
import { SIGNED_IN_AS_FIELD } from "./signed-in-as";
import { SOFT_CHECKS_MESSAGE, unseenWarnings } from "./soft-checks";

/** The few steps that differ from form to form; everything else is the pipeline's. */
export type FormSteps<Value, Payload, Success extends object> = {
  /**
   * What is stored and delivered, from the checked value (default: the value without its files). It may look
   * things up on the server, and throw a PayloadProblem for an answer that turns out not to be acceptable.
   */
  payload?: (value: Value, context: AppLoadContext, staff: SignedInStaff | undefined) => Payload | Promise<Payload>;
  /**
   * A last check of the payload in the transaction that stores it, before anything is stored: for a limit counted
   * from what is stored, which posts sent at the same moment must not all pass (see NewSubmission's `admit`). It
   * throws a PayloadProblem to refuse, answered as one from `payload`, and nothing is stored.
   */
  admit?: (payload: Payload, transaction: Transaction, staff: SignedInStaff | undefined) => Promise<void>;
  /**
   * A document made on the server from the answers and the prepared uploads (a PDF with the photos' thumbnails),
   * stored as a file of the submission. A photo field's files come cleaned, with their thumbnails; one that could
   * not be cleaned is left out, with why, in `problems`.
   */
  document?: (payload: Payload, context: AppLoadContext, uploads: PreparedUploads) => Promise<SubmittedFile[]>;
  /** The success answer's fields besides the reference (default: the form's reset). */
  success?: (answer: {
    payload: Payload;
    /** The stored submission: its id and its files' ids, for a page that offers its document to download. */
    stored: StoredSubmission;
    /** Who sent a staff form. */
    staff: SignedInStaff | undefined;
    reply: (options?: { resetForm?: boolean }) => FormReply;
  }) => Success;
  /** The invalid answer's message, from each field's first problem; undefined leaves the form's own line. */
  invalidMessage?: (problems: Record<string, string>) => string | undefined;
};

/** What the steps before the payload read of a form. */
type PostedForm = Pick<FormDefinition, "type" | "audience" | "schema" | "files" | "maxBodyBytes" | "messages">;

/**
 * Every form's action, in one order of named steps: read the post (its sender, its body within the form's caps),
 * check the answers with the form's schema, work out the payload, read the files, then answer a resend from what
 * was stored, or prepare the files (photos cleaned, the document made) and store the submission with its files and
 * deliveries in one transaction; and answer with one typed result, in words true to the deliveries it stored (the
 * form's `outcome`). Whatever a step throws is answered from the
 * table in form-failures.server.ts. A submission that is acknowledged is committed with its deliveries.
 */
export async function submitForm<Schema extends z.ZodMiniType, Payload, Success extends object = { result: FormReply }>(
  request: Request,
  context: AppLoadContext,
  definition: FormDefinition<Schema, Payload>,
  steps: FormSteps<z.output<Schema>, Payload, Success> = {},
) {
  const post: FailedPost = { definition, context, reply: undefined, invalidMessage: steps.invalidMessage };
  // Logged with its address, an anonymous form's post would name its sender through their sign-in's line.
  if (definition.anonymous) context.keepClientOutOfLog();
  let posted: FormData | undefined;
  try {
    const { staff, formData } = await readPost(request, context, definition);
    posted = formData;
    const submission = checkAnswers(formData, definition, steps);
    warnUnlessSeen(formData, definition, submission);
    post.reply = (problems) => submission.reply(problems && { fieldErrors: fieldErrorsOf(problems) });
    const { value } = submission;
    const payload = steps.payload
      ? await steps.payload(value, context, staff)
      : (withoutFiles(value, definition) as Payload);
    const files = readFiles(formData, definition, staff, post.reply);
    // The answers are the checked value, not the payload, which may be looked up on the server and differ between two sends.
    // Each carried file's SHA-256, taken as it arrived: a checklist's photos are tens of megabytes.
    const fingerprints = fileFingerprints(files);
    const submissionKey = submissionKeyOf(
      readSubmissionGuards(formData),
      context.clientIp,
      {
        answers: [withoutFiles(value, definition), ...fingerprints],
        stored: [payload, ...fingerprints],
      },
      context.config.SESSION_SECRET,
    );
    const resent = await storedBefore(context, definition, steps, submissionKey);
    const { stored, leftOut } = resent
      ? { stored: resent, leftOut: [] }
      : await prepareAndStore({ request, context, definition, steps, staff, formData, payload, files, submissionKey });
    const success = steps.success
      ? steps.success({ payload, stored, staff, reply: (options) => submission.reply(options) })
      : ({ result: submission.reply({ resetForm: true }) } as unknown as Success);
    const { message, sent } = await outcomeOf(context, definition, payload, stored);
    const answer: FormActionResult<Success> = {
      status: "success",
      reference: stored.reference,
      message,
      sent,
      ...(leftOut.length > 0 ? { leftOut } : {}),
      ...success,
    };
    return data(answer);
  } catch (error) {
    const { result, status } = failureAnswer(error, post);
    return data(result as FormActionResult<Success>, { status });
  } finally {
    // The files the body reader wrote as they arrived: stored or refused, the post is done with them.
    if (posted) await discardPostedFiles(posted);
  }
}

/**
 * The answer's words: a form with an `outcome` is worded from the deliveries stored, read back only for it (the
 * estimate, posted at volume, says no more than that it was stored and needs no query for that).
 */
async function outcomeOf<Payload>(
  context: AppLoadContext,
  definition: Pick<FormDefinition<z.ZodMiniType, Payload>, "outcome" | "messages">,
  payload: Payload,
  stored: StoredSubmission,
) {
  if (!definition.outcome) return { sent: true, message: definition.messages.success };
  return definition.outcome({ payload, deliveries: await storedDeliveries(context.db, stored.id) });
}

/**
 * Who sends it and what: a staff form's body (up to 80 MB of photos) is read only once its sender is known to be
 * signed in, and only if the session is still the person's who filled it in.
 */
async function readPost(request: Request, context: AppLoadContext, definition: PostedForm) {
  const staff = definition.audience === "staff" ? signedInStaff(context) : undefined;
  const read = await readFormBody(request, { maxBytes: definition.maxBodyBytes, files: definition.files });
  if (!read.ok) {
    const message = bodyProblemMessage(read.problem, definition);
    const problems = "field" in read.problem ? { [read.problem.field]: message } : undefined;
    // The other answers go back with the message, so a page without JavaScript shows them again.
    const result = read.formData
      ? parseForm(read.formData, definition.schema).reply({ fieldErrors: fieldErrorsOf(problems ?? {}) })
      : undefined;
    throw new FormRefusal({
      result: { status: "error", message, retry: false, problems, result },
      status: read.status,
    });
  }
  if (staff && !sentBy(read.formData, staff)) {
    // The session is now someone else's (another person signed in on this device): nothing is stored as theirs.
    const { signedOut } = definition.messages;
    throw new FormRefusal({
      result: { status: "error", message: signedOut, retry: true, failure: "signedOut" },
      status: 409,
    });
  }
  return { staff, formData: read.formData };
}

/** The answers, checked with the form's schema; each field's first problem beside it when they do not pass. */
function checkAnswers<Schema extends z.ZodMiniType, Payload, Success extends object>(
  formData: FormData,
  definition: FormDefinition<Schema, Payload>,
  steps: FormSteps<z.output<Schema>, Payload, Success>,
) {
  const submission = parseForm(formData, definition.schema);
  if (submission.status === "success") return submission;
  const { messages } = definition;
  const problems = firstProblems(submission.error ?? {}, messages.requiredField);
  const missing = Object.values(submission.error ?? {}).some((errors) => errors?.includes(REQUIRED_MESSAGE));
  const message = steps.invalidMessage?.(problems) ?? (missing ? messages.missing : messages.invalid);
  // Its warnings are shown with its problems, so the post that puts the problems right sends.
  const warnings = unseenWarnings(definition.fields, formData);
  throw new FormRefusal({
    result: { status: "invalid", message, problems, result: submission.reply(), ...withWarnings(warnings) },
    status: 400,
  });
}

/** Answers that pass but are worth a second look go back once, beside their fields, and nothing is stored yet. */
function warnUnlessSeen(
  formData: FormData,
  definition: Pick<FormDefinition, "fields">,
  submission: { reply: () => FormReply },
) {
  const warnings = unseenWarnings(definition.fields, formData);
  if (Object.keys(warnings).length === 0) return;
  throw new FormRefusal({
    result: { status: "invalid", message: SOFT_CHECKS_MESSAGE, problems: {}, result: submission.reply(), warnings },
    status: 400,
  });
}

const withWarnings = (warnings: Record<string, string>) => (Object.keys(warnings).length > 0 ? { warnings } : {});

/** The post's files and named uploads, within each field's count. */
function readFiles(
  formData: FormData,
  definition: PostedForm,
  staff: SignedInStaff | undefined,
  reply: NonNullable<FailedPost["reply"]>,
): PostedFiles {
  const files = postedFiles(formData, definition, staff);
  const overCount = fieldOverCount(files, definition.files);
  if (overCount) {
    const problems = { [overCount.field]: overCount.messages.tooMany };
    const { tooMany } = overCount.messages;
    throw new FormRefusal({
      result: { status: "error", message: tooMany, retry: false, problems, result: reply(problems) },
      status: 400,
    });
  }
  return files;
}

/** A resend of a stored submission gets what was stored: its photos are not cleaned, nor its PDF built, again. */
async function storedBefore(
  context: AppLoadContext,
  definition: PostedForm,
  steps: { document?: unknown },
  submissionKey: string,
) {
  if (definition.files.length === 0 && !steps.document) return undefined;
  const stored = await storedUnderKey(context.db, definition.type, submissionKey);
  if (stored)
    context.logger.info({ type: definition.type, reference: stored.reference }, "resend of a stored submission");
  return stored;
}

/** The files prepared and the document made, then the submission stored with them and its deliveries. */
async function prepareAndStore<Schema extends z.ZodMiniType, Payload, Success extends object>(post: {
  request: Request;
  context: AppLoadContext;
  definition: FormDefinition<Schema, Payload>;
  steps: FormSteps<z.output<Schema>, Payload, Success>;
  staff: SignedInStaff | undefined;
  formData: FormData;
  payload: Payload;
  files: PostedFiles;
  submissionKey: string;
}): Promise<{ stored: StoredSubmission; leftOut: PreparedUploads["problems"] }> {
  const { request, context, definition, steps, staff, payload } = post;
  return withPreparedFiles(context, definition, staff, post.files, async (prepared, staging) => {
    const documents = steps.document ? await steps.document(payload, context, prepared) : [];
    await ensureRoomForFiles(
      context,
      documents.reduce((sum, file) => sum + file.content.byteLength, 0),
    );
    // Counted so that a resend can be seen not to build the document again.
    if (steps.document) documentsBuilt.inc({ type: definition.type });
    const files = await staging.staged([...prepared.files, ...documents]);
    const now = new Date();
    const submittedAt = now.toISOString();
    const isPublic = definition.audience === "public";
    const { admit } = steps;
    const stored = await acceptSubmission(context, {
      definition,
      submissionKey: post.submissionKey,
      payload,
      files,
      fileNames: (reference) => storedFileNames(reference, files),
      ...(isPublic ? judgeSubmission(readSubmissionGuards(post.formData), context.config) : {}),
      limitPerAddress: isPublic ? publicFormLimit(context.config) : undefined,
      admit: admit && ((transaction) => admit(payload, transaction, staff)),
      // An anonymous form's submission records nothing of who sent it, nor from where.
      ...(definition.anonymous
        ? {}
        : {
            submittedById: staff?.id,
            clientIp: context.clientIp,
            userAgent: request.headers.get("user-agent") ?? undefined,
          }),
      deliveries: (reference) =>
        outgoingDeliveries(
          definition,
          payload as Record<string, unknown>,
          { reference, submittedAt, files: storedFileNames(reference, files) },
          context.config,
        ),
      devicePushes: devicePushes(definition, payload as Record<string, unknown>, context.config, now),
    });
    return { stored, leftOut: prepared.problems };
  });
}

/** Whether the staff form was filled in by the session's person, where its page named them (signed-in-as.ts). */
function sentBy(formData: FormData, staff: SignedInStaff): boolean {
  const signedInAs = formData.get(SIGNED_IN_AS_FIELD);
  return typeof signedInAs !== "string" || signedInAs === "" || signedInAs === String(staff.id);
}

/** A refused body in words: one file's problem is its field's message, anything else the form's. */
function bodyProblemMessage(problem: BodyProblem, { messages, files }: PostedForm): string {
  const rule = "field" in problem ? files.find((candidate) => candidate.field === problem.field) : undefined;
  switch (problem.kind) {
    case "too-large":
      return messages.tooLarge;
    case "file-too-large":
      return rule?.messages.tooLarge ?? messages.tooLarge;
    case "too-many-files":
      return rule?.messages.tooMany ?? messages.tooLarge;
    case "wrong-type":
      return rule?.messages.wrongType ?? messages.unreadable;
    default:
      return messages.unreadable;
  }
}

/** Each field's first problem, in words: an empty required field reads as the form's own line for it. */
function firstProblems(errors: Record<string, string[] | null>, requiredField: string): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [name, messages] of Object.entries(errors)) {
    const first = messages?.[0];
    if (first) problems[name] = first === REQUIRED_MESSAGE ? requiredField : first;
  }
  return problems;
}

function withoutFiles(value: unknown, definition: Pick<FormDefinition, "fields">): Record<string, unknown> {
  const fileFields = new Set(definition.fields.filter((field) => field.kind === "file").map((field) => field.name));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([name]) => !fileFields.has(name)));
}
