import { createHash } from "node:crypto";
import { type AppLoadContext, data } from "react-router";
import type * as z from "zod/mini";
import { FileStaging } from "~/outbox/staged-files.server";
import {
  acceptSubmission,
  OverSubmissionLimit,
  type StoredSubmission,
  type SubmittedFile,
  storedUnderKey,
} from "~/outbox/submission-store.server";
import { type SignedInStaff, signedInStaff } from "~/server/auth/require-staff.server";
import type { Transaction } from "~/server/db/database.server";
import { documentsBuilt } from "~/server/metrics/metrics.server";
import { WorkPoolFull } from "~/server/work-pool/work-pool.server";
import type { FormActionResult, FormReply } from "./action-result";
import type { FormDefinition } from "./definition";
import { outgoingDeliveries } from "./deliveries.server";
import { displayFileName, storedFileNames } from "./file-names";
import { parseForm } from "./parse-form";
import { PayloadProblem } from "./payload-problem";
import { cleanPostedPhotos, isPhotoRule, type PreparedUploads, withinSubmissionPixels } from "./photos.server";
import { judgeSubmission, publicFormLimit, readSubmissionGuards, submissionKeyOf } from "./public-guards.server";
import { type BodyProblem, readFormBody, takeFileBytes } from "./read-form-body.server";
import { REQUIRED_MESSAGE } from "./required-message";
import { uploadIdsFieldOf } from "./resumable-uploads";
import {
  deleteUploads,
  resumableUploadsDirectory,
  type TakenUploads,
  takeCleanedUploads,
  UploadsOverCap,
} from "./resumable-uploads.server";
import { SIGNED_IN_AS_FIELD } from "./signed-in-as";

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

/**
 * Every form's action, in one order: read the body within the form's caps, apply its audience's guards, parse
 * with its schema, clean its photos, make its document, store the submission with its files and deliveries in
 * one transaction, and answer with one typed result. A submission that is acknowledged is committed with its
 * deliveries.
 */
export async function submitForm<Schema extends z.ZodMiniType, Payload, Success extends object = { result: FormReply }>(
  request: Request,
  context: AppLoadContext,
  definition: FormDefinition<Schema, Payload>,
  steps: FormSteps<z.output<Schema>, Payload, Success> = {},
) {
  const { messages } = definition;
  const photoRules = (definition.files ?? []).filter(isPhotoRule);
  const photoFields = new Set(photoRules.map((rule) => rule.field));
  const answer = (result: FormActionResult<Success>, status = 200) => data(result, { status });
  const { admit } = steps;

  // A staff form's body (up to 80 MB of photos) is read only once its sender is known to be signed in.
  let staff: SignedInStaff | undefined;
  try {
    staff = definition.audience === "staff" ? signedInStaff(context) : undefined;
  } catch (error) {
    // A redirect to sign in, or a 403, is the guard's answer (a Response, or data()): it goes on as thrown. An
    // Error is the database gone away, which the form answers as a failed store, with its values kept.
    if (!(error instanceof Error)) throw error;
    context.logger.error({ err: error, type: definition.type }, "the staff session could not be checked");
    return answer({ status: "error", message: messages.failed, retry: true }, 503);
  }
  const read = await readFormBody(request, { maxBytes: definition.maxBodyBytes, files: definition.files });
  if (!read.ok) {
    const message = bodyProblemMessage(read.problem, messages);
    const problems = "field" in read.problem ? { [read.problem.field]: message } : undefined;
    // The other answers go back with the message, so a page without JavaScript shows them again.
    const result = read.formData
      ? parseForm(read.formData, definition.schema).reply({ fieldErrors: fieldErrorsOf(problems ?? {}) })
      : undefined;
    return answer({ status: "error", message, retry: false, problems, result }, read.status);
  }
  const { formData } = read;
  if (staff && !sentBy(formData, staff)) {
    // The session is now someone else's (another person signed in on this device): nothing is stored as theirs.
    return answer({ status: "error", message: messages.signedOut, retry: true, failure: "signedOut" }, 409);
  }
  const submission = parseForm(formData, definition.schema);
  try {
    if (submission.status !== "success") {
      const problems = firstProblems(submission.error ?? {}, messages.requiredField);
      const missing = Object.values(submission.error ?? {}).some((errors) => errors?.includes(REQUIRED_MESSAGE));
      const message = steps.invalidMessage?.(problems) ?? (missing ? messages.missing : messages.invalid);
      return answer({ status: "invalid", message, problems, result: submission.reply() }, 400);
    }
    const value = submission.value;
    // A PayloadProblem, from here or from `admit` as the submission is stored, is answered below.
    const payload = steps.payload
      ? await steps.payload(value, context, staff)
      : (withoutFiles(value, definition) as Payload);
    const uploads = await uploadedFiles(formData, definition);
    const uploadsUp = staff ? uploadsNamed(formData, definition) : [];
    const overCount = (definition.files ?? []).find(
      (rule) =>
        uploadsUp.filter((up) => up.fieldName === rule.field).length +
          uploads.filter((upload) => upload.fieldName === rule.field).length >
        rule.maxCount,
    );
    if (overCount) {
      const problems = { [overCount.field]: messages.tooManyFiles };
      const result = submission.reply({ fieldErrors: fieldErrorsOf(problems) });
      return answer({ status: "error", message: messages.tooManyFiles, retry: false, problems, result }, 400);
    }
    const guards = readSubmissionGuards(formData);
    // An upload is named by its id, unguessable and never reused: the same ids are the same photos. The answers
    // are the checked value, not the payload, which may be looked up on the server and differ between two sends.
    const fileFingerprints = [uploads.map(sha256), uploadsUp.map((up) => up.id)];
    const submissionKey = submissionKeyOf(guards, context.clientIp, {
      answers: [withoutFiles(value, definition), ...fileFingerprints],
      stored: [payload, ...fileFingerprints],
    });
    // A resend of a stored submission gets what was stored: its photos are not cleaned, nor its PDF built, again.
    const storedBefore =
      photoRules.length > 0 || steps.document
        ? await storedUnderKey(context.db, definition.type, submissionKey)
        : undefined;
    if (storedBefore)
      context.logger.info(
        { type: definition.type, reference: storedBefore.reference },
        "resend of a stored submission",
      );
    const stored = storedBefore ?? (await prepareAndStore());
    const success = steps.success
      ? steps.success({ payload, stored, staff, reply: (options) => submission.reply(options) })
      : ({ result: submission.reply({ resetForm: true }) } as unknown as Success);
    return answer({ status: "success", reference: stored.reference, ...success });

    async function prepareAndStore() {
      const uploadsDirectory = resumableUploadsDirectory(context.config.DATA_DIR);
      // The files are stored as each is ready, in their order, a photo while the next ones are cleaned; the
      // submission's transaction then only adopts them.
      const staging = new FileStaging(context.db);
      try {
        return await stageAndStore(uploadsDirectory, staging);
      } finally {
        await staging
          .discardUnadopted()
          .catch((error: unknown) => context.logger.warn({ err: error }, "staged files could not be deleted"));
      }
    }

    async function stageAndStore(uploadsDirectory: string, staging: FileStaging) {
      // The photos that went up while the form was filled were cleaned as each one completed.
      const takenUp = await takeUploadsUp(uploadsDirectory);
      if (takenUp.missing.length > 0) throw new MissingUploads(takenUp.missing);
      for (const file of takenUp.files) staging.stage(file);
      const preparedNow = await preparePosted(takenUp, staging);
      const prepared = withinSubmissionPixels(context.config, {
        files: [...takenUp.files, ...preparedNow.files],
        problems: [...takenUp.problems, ...preparedNow.problems],
      });
      const documents = steps.document ? await steps.document(payload, context, prepared) : [];
      // Counted so that a resend can be seen not to build the document again.
      if (steps.document) documentsBuilt.inc({ type: definition.type });
      const files = await staging.staged([...prepared.files, ...documents]);
      const judged = definition.audience === "public" ? judgeSubmission(guards, context.config) : ({} as const);
      const submittedAt = new Date().toISOString();
      const stored = await acceptSubmission(context, {
        definition,
        submissionKey,
        payload,
        files,
        fileNames: (reference) => storedFileNames(reference, files),
        ...judged,
        limitPerAddress: definition.audience === "public" ? publicFormLimit(context.config) : undefined,
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
      });
      await deleteUploads(uploadsDirectory, takenUp.ids).catch((error: unknown) =>
        context.logger.warn({ err: error }, "stored uploads could not be deleted"),
      );
      return stored;
    }

    /** The posted files: a photo field's cleaned in the work pool within the pixels the uploads left, others as sent. */
    async function preparePosted(takenUp: TakenUploads, staging: FileStaging): Promise<PreparedUploads> {
      const prepared: PreparedUploads = {
        files: uploads.filter((upload) => !photoFields.has(upload.fieldName)),
        problems: [],
      };
      for (const file of prepared.files) staging.stage(file);
      let pixelsUsed = takenUp.files.reduce((sum, file) => sum + (file.photo?.pixels ?? 0), 0);
      for (const rule of photoRules) {
        const photos = uploads.filter((upload) => upload.fieldName === rule.field);
        const cleaned = await cleanPostedPhotos(context.config, rule, photos, pixelsUsed, (file) =>
          staging.stage(file),
        );
        pixelsUsed += cleaned.files.reduce((sum, file) => sum + (file.photo?.pixels ?? 0), 0);
        prepared.files.push(...cleaned.files);
        prepared.problems.push(...cleaned.problems);
      }
      return prepared;
    }

    async function takeUploadsUp(directory: string): Promise<TakenUploads> {
      const taken: TakenUploads = { files: [], problems: [], ids: [], missing: [] };
      if (!staff) return taken;
      // The whole checklist, photos up and photos posted, stays within the form's cap, as one post did.
      let budgetBytes = definition.maxBodyBytes - uploads.reduce((sum, upload) => sum + upload.content.byteLength, 0);
      for (const rule of definition.files ?? []) {
        const ids = uploadsUp.filter((up) => up.fieldName === rule.field).map((up) => up.id);
        const claim = { ownerId: staff.id, formType: definition.type, fieldName: rule.field };
        const {
          files,
          problems,
          ids: takenIds,
          missing,
        } = await takeCleanedUploads(directory, ids, claim, budgetBytes);
        budgetBytes -= files.reduce((sum, file) => sum + file.content.byteLength, 0);
        taken.files.push(...files);
        taken.problems.push(...problems);
        taken.ids.push(...takenIds);
        taken.missing.push(...missing);
      }
      return taken;
    }
  } catch (error) {
    if (error instanceof PayloadProblem) {
      const { problems } = error;
      const message = steps.invalidMessage?.(problems) ?? messages.invalid;
      return answer(
        { status: "invalid", message, problems, result: submission.reply({ fieldErrors: fieldErrorsOf(problems) }) },
        error.status,
      );
    }
    if (error instanceof MissingUploads) {
      // Nothing is stored without a photo it names: the browser sends the photos themselves instead.
      context.logger.warn({ type: definition.type, missing: error.ids.length }, "a post named uploads not here");
      const problems = Object.fromEntries(
        (definition.files ?? []).map((rule) => [uploadIdsFieldOf(rule.field), messages.unreadable]),
      );
      return answer({ status: "error", message: messages.unreadable, retry: true, problems }, 409);
    }
    if (error instanceof UploadsOverCap) {
      const problems = Object.fromEntries((definition.files ?? []).map((rule) => [rule.field, messages.tooLarge]));
      return answer(
        { status: "error", message: messages.tooLarge, retry: false, problems, result: submission.reply() },
        413,
      );
    }
    if (error instanceof OverSubmissionLimit) {
      return answer({ status: "error", message: messages.rateLimited, retry: true, result: submission.reply() }, 429);
    }
    if (error instanceof WorkPoolFull) context.logger.warn({ type: definition.type }, error.message);
    else context.logger.error({ err: error, type: definition.type }, "submission could not be stored");
    return answer({ status: "error", message: messages.failed, retry: true, result: submission.reply() }, 503);
  }
}

/** Whether the staff form was filled in by the session's person, where its page named them (signed-in-as.ts). */
function sentBy(formData: FormData, staff: SignedInStaff): boolean {
  const signedInAs = formData.get(SIGNED_IN_AS_FIELD);
  return typeof signedInAs !== "string" || signedInAs === "" || signedInAs === String(staff.id);
}

/** A post named uploads that are not here for its sender. */
class MissingUploads extends Error {
  constructor(readonly ids: string[]) {
    super("uploads not found");
  }
}

function bodyProblemMessage(problem: BodyProblem, messages: FormDefinition["messages"]): string {
  switch (problem.kind) {
    case "too-large":
      return messages.tooLarge;
    case "file-too-large":
      return messages.fileTooLarge;
    case "too-many-files":
      return messages.tooManyFiles;
    case "wrong-type":
      return messages.fileWrongType;
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

/** The files the body reader accepted, under their field names, typed by the content it found. */
async function uploadedFiles(formData: FormData, definition: Pick<FormDefinition, "files">): Promise<SubmittedFile[]> {
  const uploads = (definition.files ?? []).flatMap((rule) =>
    formData
      .getAll(rule.field)
      .filter((entry): entry is File => typeof entry !== "string" && entry.size > 0)
      .map((file) => ({ field: rule.field, file })),
  );
  return Promise.all(
    uploads.map(async ({ field, file }) => ({
      fieldName: field,
      fileName: displayFileName(file.name),
      contentType: file.type,
      content: await takeFileBytes(file),
      uploaded: true,
    })),
  );
}

/** The uploads a post names in place of files, in each photo field's hidden field (resumable-uploads.ts). */
function uploadsNamed(formData: FormData, definition: Pick<FormDefinition, "files">) {
  return (definition.files ?? []).filter(isPhotoRule).flatMap((rule) =>
    formData
      .getAll(uploadIdsFieldOf(rule.field))
      .filter((id): id is string => typeof id === "string" && id !== "")
      .map((id) => ({ fieldName: rule.field, id })),
  );
}

const sha256 = (file: SubmittedFile) => createHash("sha256").update(file.content).digest("hex");

/** A form's problems, one message per field, as Conform's field errors. */
function fieldErrorsOf(problems: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(problems).map(([name, problem]) => [name, [problem]]));
}
