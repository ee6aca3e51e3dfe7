import { setImmediate as nextTurn } from "node:timers/promises";
import { FormDataParseError, parseFormData } from "@remix-run/form-data-parser";
import {
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  type MultipartPart,
  parseMultipartRequest,
} from "@remix-run/multipart-parser";
import type { FileRule } from "./definition";
import { sniffFile } from "./file-sniffing.server";

/** `maxBytes` caps the whole body as sent, multipart boundaries and headers included. */
/** What the body reader needs of a file field's rule. */
export type BodyFileRule = Pick<FileRule, "field" | "maxBytes" | "maxCount" | "type">;

export type BodyLimits = { maxBytes: number; files?: readonly BodyFileRule[]; maxParts?: number };

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

/** How many of a file's first bytes its type is judged by. */
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

  const keptFile = (part: MultipartPart) => {
    if (part.size === 0) return null;
    const rule = rules.find((candidate) => candidate.field === part.name);
    if (!rule) throw new RefusedPart({ kind: "unreadable" });
    const count = (filesPerField.get(rule.field) ?? 0) + 1;
    filesPerField.set(rule.field, count);
    if (count > rule.maxCount) return leaveOut({ kind: "too-many-files", field: rule.field });
    if (part.size > rule.maxBytes) return leaveOut({ kind: "file-too-large", field: rule.field });
    // A new array of the part's length, joined from its chunks: its own ArrayBuffer, which can move to a worker.
    const bytes = part.bytes as Uint8Array<ArrayBuffer>;
    const type = sniffFile(rule.type, bytes.subarray(0, SNIFF_BYTES));
    if (type === undefined) return leaveOut({ kind: "wrong-type", field: rule.field });
    const file = new File([bytes], part.filename ?? "file-upload", { type });
    bytesRead.set(file, bytes);
    return file;
  };
  // A URL-encoded body the parser reads as it is: it caps that encoding itself (maxTotalSize), and the media
  // type is already written as it looks for it. Anything else is given the cap, and the type in lower case.
  const asItIs =
    mediaType === "application/x-www-form-urlencoded" &&
    request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded");
  try {
    const body = asItIs
      ? request
      : withBody(request, mediaType, request.body && capped(request.body, limits.maxBytes, () => (overCap = true)));
    const formData =
      mediaType === "multipart/form-data"
        ? await parseMultipartForm(
            body,
            // Each rule's own, smaller cap is checked once its part is in; the whole body's cap bounds any part.
            { maxFileSize: limits.maxBytes, maxTotalSize: limits.maxBytes, maxParts },
            keptFile,
          )
        : await parseFormData(body, { maxTotalSize: limits.maxBytes, maxParts });
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

/**
 * A multipart form, its files as `keptFile` makes them (or leaves them out, with null). The parser's own
 * errors keep their classes; any other (the stream broke off) is the form's being unreadable, as for
 * parseFormData.
 */
async function parseMultipartForm(
  request: Request,
  options: { maxFileSize: number; maxTotalSize: number; maxParts: number },
  keptFile: (part: MultipartPart) => File | null,
): Promise<FormData> {
  const formData = new FormData();
  try {
    for await (const part of parseMultipartRequest(request, options)) {
      if (!part.name) continue;
      const value = part.isFile ? keptFile(part) : part.text;
      if (value !== null) formData.append(part.name, value);
    }
  } catch (error) {
    if (error instanceof RefusedPart || error instanceof MultipartParseError) throw error;
    throw new FormDataParseError("Cannot parse form data", { cause: error });
  }
  return formData;
}

/**
 * The bytes of each file as the parser read them, so that they are not read back out of the File: Node reads a
 * Blob held in memory in one run of microtasks, about 30 ms a photo, in which no page is answered.
 */
const bytesRead = new WeakMap<File, Uint8Array>();

/**
 * A file's bytes, taken from the body reader once; a file it did not read, or one already taken (its bytes may
 * have moved to a worker since), is read from the File.
 */
export async function takeFileBytes(file: File): Promise<Uint8Array> {
  const bytes = bytesRead.get(file);
  bytesRead.delete(file);
  return bytes ?? new Uint8Array(await file.arrayBuffer());
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
 * A body already received is read from memory, each chunk in a microtask after the last: the parse of 25 MB
 * of photos ran as one task of about 300 ms, and four of them held every page for over a second. The capped
 * body stream gives the event loop a turn after each quarter megabyte.
 */
const BYTES_PER_TURN = 256 * 1024;

/**
 * The body up to `maxBytes`, then an early end. It reads the source only when the parser asks, so nothing
 * past the cap is ever pulled in; the parser then sees a truncated body, and `onOverCap` says why.
 */
function capped(source: ReadableStream<Uint8Array>, maxBytes: number, onOverCap: () => void) {
  const reader = source.getReader();
  let total = 0;
  let sinceTurn = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (sinceTurn >= BYTES_PER_TURN) {
          sinceTurn = 0;
          await nextTurn();
        }
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        const room = maxBytes - total;
        total += value.byteLength;
        sinceTurn += value.byteLength;
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
