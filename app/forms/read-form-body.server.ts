import {
  type FileUpload,
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import type { FileRule } from "./definition";

/** `maxBytes` caps the whole body as sent, multipart boundaries and headers included. */
export type BodyLimits = { maxBytes: number; files?: readonly FileRule[]; maxParts?: number };

export type BodyProblem =
  | { kind: "too-large" }
  | { kind: "file-too-large"; field: string }
  | { kind: "too-many-files"; field: string }
  | { kind: "wrong-type"; field: string }
  | { kind: "not-a-form" }
  | { kind: "unreadable" };

/**
 * A refused body comes with what could be read of it when the refusal was one file's (too large, too many, not
 * of its type): the rest of the form, without that file, so that the page can give back every other answer.
 */
export type ReadBody =
  | { ok: true; formData: FormData }
  | { ok: false; status: 400 | 413; problem: BodyProblem; formData?: FormData };

/** A form with no file field, such as every staff form, the estimate and the assessment. */
export const TEXT_FORM_LIMITS = { maxBytes: 64 * 1024 } as const satisfies BodyLimits;

/** How many of a file's first bytes `sniff` is given. */
const SNIFF_BYTES = 4096;
const DEFAULT_MAX_PARTS = 200;

const STATUS: Record<BodyProblem["kind"], 400 | 413> = {
  "too-large": 413,
  "file-too-large": 413,
  "too-many-files": 413,
  // The body is a form; one of its answers is not acceptable, as a required field left empty would be.
  "wrong-type": 400,
  // Told apart from a malformed form so that a form can answer it with 415 if it wants.
  "not-a-form": 400,
  unreadable: 400,
};

const refused = (problem: BodyProblem): ReadBody => ({ ok: false, status: STATUS[problem.kind], problem });

/** Thrown from the upload handler to end the parse with this answer. */
class RefusedPart extends Error {
  constructor(readonly problem: BodyProblem) {
    super(problem.kind);
  }
}

/**
 * Reads a posted form (urlencoded or multipart) while it streams in, and stops at the first byte past
 * `maxBytes`, whether or not the length was declared: a declared length over the cap is refused before any
 * byte is read. A file is kept only in a field that `files` lists, within its size and count, and with the
 * type its bytes show, whatever its name and declared type say; a file in any other field makes the form
 * unreadable. An empty file input (no file chosen) sends an empty part, which is not a file and is left out.
 *
 * The request's own stream is never cancelled: on a Node request that would destroy the connection before
 * the answer goes out. Once reading stops the stream stays paused; the server closes the connection after
 * answering (server/request-guards.ts), so the unread rest never piles up.
 */
export async function readFormBody(request: Request, limits: BodyLimits): Promise<ReadBody> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded" && mediaType !== "multipart/form-data") {
    return refused({ kind: "not-a-form" });
  }
  const declaredLength = Number(request.headers.get("content-length") ?? 0);
  if (declaredLength > limits.maxBytes) return refused({ kind: "too-large" });

  const rules = limits.files ?? [];
  const maxParts = limits.maxParts ?? DEFAULT_MAX_PARTS;
  let overCap = false;
  const filesPerField = new Map<string, number>();
  // A file refused by its rule is left out and the parse goes on, so the form's other answers are read too.
  let fileProblem: BodyProblem | undefined;
  const leaveOut = (problem: BodyProblem) => {
    fileProblem ??= problem;
    return null;
  };

  // A URL-encoded body the parser reads as it is: it caps that encoding itself (maxTotalSize), and the media
  // type is already written as it looks for it. Anything else is given the cap, and the type in lower case.
  const asItIs =
    mediaType === "application/x-www-form-urlencoded" &&
    request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded");
  try {
    const formData = await parseFormData(
      asItIs
        ? request
        : withBody(request, mediaType, request.body && capped(request.body, limits.maxBytes, () => (overCap = true))),
      {
        // Each rule's own, smaller cap is checked once its part is in; the whole body's cap bounds any part.
        maxFileSize: limits.maxBytes,
        maxTotalSize: limits.maxBytes,
        maxParts,
        // Every file part is counted per field below, against its rule.
        maxFiles: maxParts,
      },
      async (upload: FileUpload) => {
        if (upload.size === 0) return null;
        const rule = rules.find((candidate) => candidate.field === upload.fieldName);
        if (!rule) throw new RefusedPart({ kind: "unreadable" });
        const count = (filesPerField.get(rule.field) ?? 0) + 1;
        filesPerField.set(rule.field, count);
        if (count > rule.maxCount) return leaveOut({ kind: "too-many-files", field: rule.field });
        if (upload.size > rule.maxBytes) return leaveOut({ kind: "file-too-large", field: rule.field });
        const type = rule.sniff(new Uint8Array(await upload.slice(0, SNIFF_BYTES).arrayBuffer()));
        if (type === undefined) return leaveOut({ kind: "wrong-type", field: rule.field });
        // A File made of a File shares its bytes: a photo of 25 MB is not held once more.
        return new File([upload], upload.name, { type });
      },
    );
    if (overCap) return refused({ kind: "too-large" });
    return fileProblem ? { ...refused(fileProblem), formData } : { ok: true, formData };
  } catch (error) {
    if (error instanceof RefusedPart) return refused(error.problem);
    // A part past the whole body's cap is the body past it.
    if (overCap || error instanceof MaxTotalSizeExceededError || error instanceof MaxFileSizeExceededError) {
      return refused({ kind: "too-large" });
    }
    if (error instanceof FormDataParseError || error instanceof MultipartParseError || error instanceof TypeError) {
      // Malformed multipart, the parser's part and header limits, and (TypeError) bytes that are not UTF-8
      // in a part's name or value.
      return refused({ kind: "unreadable" });
    }
    throw error;
  }
}

/** The request as the parser reads it: its media type in lower case, and the capped body. */
function withBody(request: Request, mediaType: string, body: ReadableStream<Uint8Array> | null): Request {
  const headers = new Headers(request.headers);
  const [, ...parameters] = (headers.get("content-type") ?? "").split(";");
  headers.set("content-type", [mediaType, ...parameters].join(";"));
  // Node needs `duplex` for a stream body; the DOM types in use do not know it yet.
  const init: RequestInit & { duplex: "half" } = { method: request.method, headers, body, duplex: "half" };
  return new Request(request.url, init);
}

/**
 * The body up to `maxBytes`, then an early end. It reads the source only when the parser asks, so nothing
 * past the cap is ever pulled in; the parser then sees a truncated body, and `onOverCap` says why.
 */
function capped(source: ReadableStream<Uint8Array>, maxBytes: number, onOverCap: () => void) {
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        const room = maxBytes - total;
        total += value.byteLength;
        if (value.byteLength <= room) {
          controller.enqueue(value);
          return;
        }
        onOverCap();
        // The bytes up to the cap still go to the parser: a file past its own cap there gets the clearer answer.
        if (room > 0) controller.enqueue(value.subarray(0, room));
        controller.close();
        reader.releaseLock();
      },
    },
    { highWaterMark: 0 },
  );
}
