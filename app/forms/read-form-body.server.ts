import { createHash, randomUUID } from "node:crypto";
import { openAsBlob } from "node:fs";
import { type FileHandle, open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { FormDataParseError, parseFormData } from "@remix-run/form-data-parser";
import {
  getMultipartBoundary,
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  MultipartPart,
} from "@remix-run/multipart-parser";
import { ABANDONED_FILE_AGE_MS } from "~/outbox/staged-files.server";
import type { FileRule } from "./definition";
import { sniffFile } from "./file-sniffing.server";
import { IGNORED_PART, type PartSink, readMultipart } from "./multipart-parts.server";

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

  const written: string[] = [];
  const fileSink = (part: MultipartPart): PostedFileSink => {
    const name = part.name as string;
    return new PostedFileSink({
      rule: () => {
        const rule = rules.find((candidate) => candidate.field === name);
        if (!rule) return undefined;
        const count = (filesPerField.get(rule.field) ?? 0) + 1;
        filesPerField.set(rule.field, count);
        return { rule, overCount: count > rule.maxCount };
      },
      fileName: part.filename ?? "file-upload",
      written,
      leaveOut,
    });
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
        ? await parseMultipartForm(body, maxParts, fileSink)
        : await parseFormData(body, { maxTotalSize: limits.maxBytes, maxParts });
    if (overCap || fileProblem) await deleteWritten(written);
    if (overCap) return refused({ kind: "too-large" });
    return fileProblem ? { ...refused(fileProblem), formData } : { ok: true, formData };
  } catch (error) {
    await deleteWritten(written);
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
 * A multipart form, read as it streams in: a text part's bytes are gathered, a file part's go to `fileSink` piece
 * by piece as they arrive. The parser's own errors keep their classes; any other (the stream broke off) is the
 * form's being unreadable, as for parseFormData.
 *
 * Written here rather than taken from @remix-run/multipart-parser, whose parts come out only once whole: a
 * checklist's photo was then held whole, joined into one buffer and copied into a Blob, each one uninterrupted
 * slice of the thread that answers pages. Its MultipartPart still reads each part's headers.
 */
async function parseMultipartForm(
  request: Request,
  maxParts: number,
  fileSink: (part: MultipartPart) => PostedFileSink,
): Promise<FormData> {
  const boundary = getMultipartBoundary(request.headers.get("content-type") ?? "");
  if (!boundary || !request.body) throw new MultipartParseError("Invalid multipart request");
  const formData = new FormData();
  let parts = 0;
  const startPart = (header: Uint8Array): PartSink => {
    if (++parts > maxParts) throw new MaxPartsExceededError(maxParts);
    const part = new MultipartPart(header, []);
    const { name } = part;
    if (!name) return IGNORED_PART;
    if (!part.isFile) return new TextPartSink((text) => formData.append(name, text));
    const sink = fileSink(part);
    return { write: (bytes) => sink.write(bytes), end: async () => void (await sink.end())?.appendTo(formData, name) };
  };
  try {
    await readMultipart(request.body, boundary, startPart);
  } catch (error) {
    if (error instanceof RefusedPart || error instanceof MultipartParseError || error instanceof TypeError) throw error;
    throw new FormDataParseError("Cannot parse form data", { cause: error });
  }
  return formData;
}

class TextPartSink implements PartSink {
  readonly #chunks: Uint8Array[] = [];
  readonly #done: (text: string) => void;
  constructor(done: (text: string) => void) {
    this.#done = done;
  }
  write(bytes: Uint8Array) {
    this.#chunks.push(bytes);
  }
  end() {
    // Bytes that are not UTF-8 throw a TypeError: the form is unreadable.
    this.#done(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(this.#chunks)));
  }
}

/** A file the body reader wrote to disk as it arrived: where, and its SHA-256, taken on the way. */
export type PostedFileOnDisk = { path: string; sha256: string };

const filesOnDisk = new WeakMap<File, PostedFileOnDisk>();

/** Where the body reader wrote a posted file, and its SHA-256; undefined for a File it did not read. */
export const postedFileOnDisk = (file: File): PostedFileOnDisk | undefined => filesOnDisk.get(file);

/** Deletes the files the body reader wrote for this form: once its post is answered, nothing needs them. */
export async function discardPostedFiles(formData: FormData): Promise<void> {
  const paths = [...formData.values()].flatMap((value) => {
    const onDisk = typeof value === "string" ? undefined : filesOnDisk.get(value);
    return onDisk ? [onDisk.path] : [];
  });
  await deleteWritten(paths);
}

/**
 * Deletes the posted files a stopped server left in the temporary folder, once as old as an abandoned upload
 * (with the hourly sweep, within a day); how many. A post still being answered is never that old.
 */
export async function deleteAbandonedPostedFiles(now = Date.now()): Promise<number> {
  const folder = tmpdir();
  const names = (await readdir(folder)).filter((name) => name.startsWith(POSTED_FILE_PREFIX));
  let deleted = 0;
  for (const name of names) {
    const file = path.join(folder, name);
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs < ABANDONED_FILE_AGE_MS) continue;
    await rm(file, { force: true });
    deleted++;
  }
  return deleted;
}

const POSTED_FILE_PREFIX = "tce-posted-";

/**
 * A posted file's pieces are written to disk together once this many have come: a write per piece the connection
 * hands over (64 KB) cost the answering thread about 50 µs each, a third of a second for four checklists.
 */
const WRITE_BYTES = 512 * 1024;

const deleteWritten = (paths: readonly string[]) => Promise.all(paths.map((path) => rm(path, { force: true })));

type FileSinkOptions = {
  /**
   * The part's rule, looked up at its first byte (an empty part is no file), and whether it is one too many;
   * undefined in a field that takes no file.
   */
  rule: () => { rule: BodyFileRule; overCount: boolean } | undefined;
  fileName: string;
  /** Every path written is added here, so that a refused body can delete them. */
  written: string[];
  leaveOut: (problem: BodyProblem) => null;
};

/**
 * One file part, written to a file of its own in the system's temporary folder as its bytes arrive, hashed on the
 * way, and typed by its first bytes. A part past its rule's size, over its field's count or not of its type is
 * read to its end and left out, with the problem the whole part would have had: past its size first, then the
 * wrong type (its count before both).
 */
class PostedFileSink {
  readonly #options: FileSinkOptions;
  #rule: BodyFileRule | undefined;
  #noField = false;
  #size = 0;
  #head: Uint8Array[] = [];
  #type: string | undefined;
  #problem: BodyProblem | undefined;
  #path: string | undefined;
  #handle: FileHandle | undefined;
  #unwritten: Uint8Array[] = [];
  #unwrittenBytes = 0;
  readonly #hash = createHash("sha256");

  constructor(options: FileSinkOptions) {
    this.#options = options;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.#noField) return;
    if (!this.#rule) {
      const found = this.#options.rule();
      // Read to its end, then the form is unreadable; a body that passes its cap first is too large.
      if (!found) {
        this.#noField = true;
        return;
      }
      const { rule, overCount } = found;
      this.#rule = rule;
      if (overCount) this.#problem = { kind: "too-many-files", field: rule.field };
    }
    this.#size += bytes.byteLength;
    if (this.#problem?.kind === "too-many-files" || this.#problem?.kind === "file-too-large") return;
    if (this.#size > this.#rule.maxBytes) {
      this.#problem = { kind: "file-too-large", field: this.#rule.field };
      await this.#drop();
      return;
    }
    if (this.#problem) return;
    if (this.#type === undefined) {
      this.#head.push(bytes);
      if (this.#size < SNIFF_BYTES) return;
      await this.#typed();
      return;
    }
    await this.#save(bytes);
  }

  /** The file, or null when it was empty (no file chosen) or left out. */
  async end(): Promise<PostedFile | null> {
    if (this.#noField) throw new RefusedPart({ kind: "unreadable" });
    if (!this.#rule) return null;
    if (!this.#problem && this.#type === undefined) await this.#typed();
    if (this.#problem) {
      this.#options.leaveOut(this.#problem);
      await this.#drop();
      return null;
    }
    await this.#flush();
    await this.#handle?.close();
    this.#handle = undefined;
    return new PostedFile(this.#path as string, this.#hash.digest("hex"), this.#options.fileName, this.#type as string);
  }

  /** Types the file by its first bytes; of its type, they are the first it writes. */
  async #typed() {
    const rule = this.#rule as BodyFileRule;
    const head = Buffer.concat(this.#head);
    this.#head = [];
    this.#type = sniffFile(rule.type, head.subarray(0, SNIFF_BYTES));
    if (this.#type === undefined) {
      this.#type = "";
      this.#problem = { kind: "wrong-type", field: rule.field };
      return;
    }
    await this.#save(head);
  }

  async #save(bytes: Uint8Array) {
    if (!this.#handle) {
      this.#path = path.join(tmpdir(), `${POSTED_FILE_PREFIX}${randomUUID()}`);
      this.#options.written.push(this.#path);
      this.#handle = await open(this.#path, "wx", 0o600);
    }
    this.#hash.update(bytes);
    this.#unwritten.push(bytes);
    this.#unwrittenBytes += bytes.byteLength;
    if (this.#unwrittenBytes >= WRITE_BYTES) await this.#flush();
  }

  async #flush() {
    if (this.#unwritten.length === 0) return;
    const pieces = this.#unwritten;
    this.#unwritten = [];
    this.#unwrittenBytes = 0;
    await this.#handle?.writev(pieces);
  }

  async #drop() {
    this.#unwritten = [];
    await this.#handle?.close();
    this.#handle = undefined;
    if (this.#path) await rm(this.#path, { force: true });
  }
}

/** A posted file on disk, made into a File of the form that reads it from there. */
class PostedFile {
  constructor(
    readonly path: string,
    readonly sha256: string,
    readonly fileName: string,
    readonly type: string,
  ) {}

  async appendTo(formData: FormData, name: string) {
    // The File reads the bytes from the disk when asked; none of them is held in memory.
    const file = new File([await openAsBlob(this.path)], this.fileName, { type: this.type });
    filesOnDisk.set(file, { path: this.path, sha256: this.sha256 });
    formData.append(name, file);
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
