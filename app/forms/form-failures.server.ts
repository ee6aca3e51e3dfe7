import type { AppLoadContext } from "react-router";
import { OverSubmissionLimit } from "~/outbox/submission-store.server";
import { filesWouldCrossFloor } from "~/services/free-space.server";
import { WorkPoolFull } from "~/services/work-pool/work-pool.server";
import type { FormActionResult, FormReply } from "./action-result";
import type { FormDefinition } from "./definition";
import { PayloadProblem } from "./payload-problem";
import { uploadIdsFieldOf } from "./resumable-uploads";
import { UploadsOverCap } from "./resumable-uploads.server";

/** What a refused or failed post is answered: the result and its HTTP status. */
export type FormFailure = { result: Exclude<FormActionResult<never>, { status: "success" }>; status: number };

/** A step's refusal, answered as it says: a body over a cap, an answer the schema refused, a session now another's. */
export class FormRefusal extends Error {
  override name = "FormRefusal";
  constructor(readonly failure: FormFailure) {
    super(failure.result.message);
  }
}

/** A post named uploads that are not here for its sender. */
export class MissingUploads extends Error {
  override name = "MissingUploads";
  constructor(readonly ids: string[]) {
    super("uploads not found");
  }
}

/** Storing the post's files would leave the database's disk under its free-space floor (free-space.server.ts). */
export class NoRoomForFiles extends Error {
  override name = "NoRoomForFiles";
  constructor() {
    super("files refused: the disk is at its free-space floor");
  }
}

/** Refuses a post's files when storing them would leave the disk under its floor: answers without files still store. */
export async function ensureRoomForFiles(context: AppLoadContext, bytes: number): Promise<void> {
  if (await filesWouldCrossFloor(context.config, bytes)) throw new NoRoomForFiles();
}

/** What the table's answers may read: the form, its checked answers (once parsed), and the form's own wording. */
export type FailedPost = {
  definition: Pick<FormDefinition, "type" | "messages" | "files">;
  context: AppLoadContext;
  /** The answers as sent, with these problems beside their fields; undefined before the body was parsed. */
  reply: ((problems?: Record<string, string>) => FormReply) | undefined;
  invalidMessage?: (problems: Record<string, string>) => string | undefined;
};

type FailureRow<Failure extends Error> = {
  type: abstract new (...args: never[]) => Failure;
  answer: (error: Failure, post: FailedPost) => FormFailure;
};
const row = <Failure extends Error>(
  type: FailureRow<Failure>["type"],
  answer: FailureRow<Failure>["answer"],
): FailureRow<Error> => ({ type, answer: answer as FailureRow<Error>["answer"] });

/** Each error a step may throw, and what the person is answered; the first row whose type matches answers. */
const FAILURES: readonly FailureRow<Error>[] = [
  row(FormRefusal, (refusal) => refusal.failure),
  row(PayloadProblem, ({ problems, status }, { definition, reply, invalidMessage }) => ({
    result: {
      status: "invalid",
      message: invalidMessage?.(problems) ?? definition.messages.invalid,
      problems,
      result: (reply as NonNullable<typeof reply>)(problems),
    },
    status,
  })),
  // Nothing is stored without a photo it names: the browser sends the photos themselves instead.
  row(MissingUploads, (error, { definition, context }) => {
    context.logger.warn({ type: definition.type, missing: error.ids.length }, "a post named uploads not here");
    const { unreadable } = definition.messages;
    const problems = Object.fromEntries(definition.files.map((rule) => [uploadIdsFieldOf(rule.field), unreadable]));
    return { result: { status: "error", message: unreadable, retry: true, problems }, status: 409 };
  }),
  row(UploadsOverCap, (_error, { definition, reply }) => {
    const { tooLarge } = definition.messages;
    const problems = Object.fromEntries(definition.files.map((rule) => [rule.field, tooLarge]));
    return { result: { status: "error", message: tooLarge, retry: false, problems, result: reply?.() }, status: 413 };
  }),
  row(NoRoomForFiles, (error, { definition, context, reply }) => {
    context.logger.warn({ type: definition.type }, error.message);
    return {
      result: { status: "error", message: definition.messages.noRoomForFiles, retry: true, result: reply?.() },
      status: 507,
    };
  }),
  row(OverSubmissionLimit, (_error, { definition, reply }) => ({
    result: { status: "error", message: definition.messages.rateLimited, retry: true, result: reply?.() },
    status: 429,
  })),
  row(WorkPoolFull, (error, post) => {
    post.context.logger.warn({ type: post.definition.type }, error.message);
    return storeFailed(post);
  }),
  row(Error, (error, post) => {
    post.context.logger.error({ err: error, type: post.definition.type }, "submission could not be stored");
    return storeFailed(post);
  }),
];

/** The database or the work pool could not take it: try again, with every answer still on the screen. */
const storeFailed = ({ definition, reply }: FailedPost): FormFailure => ({
  result: { status: "error", message: definition.messages.failed, retry: true, result: reply?.() },
  status: 503,
});

/**
 * The answer to what a step threw. Anything not an Error (a redirect to sign in, a 403 from the staff guard) is
 * the guard's own answer and goes on as thrown.
 */
export function failureAnswer(error: unknown, post: FailedPost): FormFailure {
  if (!(error instanceof Error)) throw error;
  const match = FAILURES.find((candidate) => error instanceof candidate.type) as FailureRow<Error>;
  return match.answer(error, post);
}

/** A form's problems, one message per field, as Conform's field errors. */
export function fieldErrorsOf(problems: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(problems).map(([name, problem]) => [name, [problem]]));
}
