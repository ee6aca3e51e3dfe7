import { MaxHeaderSizeExceededError, MultipartParseError } from "@remix-run/multipart-parser";

/** Where one part's bytes go as they arrive. */
export type PartSink = { write(bytes: Uint8Array): void | Promise<void>; end(): void | Promise<void> };

export const IGNORED_PART: PartSink = { write: () => {}, end: () => {} };

/** A part's headers may be this long at most, as @remix-run/multipart-parser allows. */
const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");

/** Where the reader is in the body, and the bytes it holds that no part has had yet. */
type Reading = {
  /** `\r\n--boundary`: what ends a part. */
  delimiter: Buffer;
  startPart: (header: Uint8Array) => PartSink;
  state: "start" | "after-boundary" | "headers" | "body" | "done";
  sink: PartSink;
  buffer: Buffer;
};

/**
 * Splits a multipart body into its parts, handing each part's bytes to its sink as they arrive: never more than a
 * chunk of the stream and the few bytes that might begin the next boundary are held.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  startPart: (header: Uint8Array) => PartSink,
): Promise<void> {
  const reading: Reading = {
    delimiter: Buffer.from(`\r\n--${boundary}`),
    startPart,
    state: "start",
    sink: IGNORED_PART,
    buffer: Buffer.alloc(0),
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    if (reading.state === "done") continue;
    await takeChunk(reading, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    await readParts(reading);
    // A copy of what is kept, so the chunk it came from is not held on to.
    reading.buffer = Buffer.from(reading.buffer);
  }
  if (reading.state !== "done") throw new MultipartParseError("Multipart stream not finished");
}

/** Adds a chunk of the stream to what is held, handing on what is held already when it is the part's. */
async function takeChunk(reading: Reading, bytes: Buffer): Promise<void> {
  const { delimiter, buffer } = reading;
  if (reading.state !== "body" || buffer.byteLength === 0 || bytes.byteLength < delimiter.byteLength) {
    reading.buffer = buffer.byteLength === 0 ? bytes : Buffer.concat([buffer, bytes]);
    return;
  }
  // The few bytes kept from the last chunk, with the start of this one: a boundary across the two, or they
  // are the part's, and this chunk is searched as it is, never copied.
  const joint = Buffer.concat([buffer, bytes.subarray(0, delimiter.byteLength)]);
  const end = joint.indexOf(delimiter);
  if (end !== -1 && end < buffer.byteLength) {
    if (end > 0) await reading.sink.write(joint.subarray(0, end));
    await reading.sink.end();
    reading.buffer = bytes.subarray(end + delimiter.byteLength - buffer.byteLength);
    reading.state = "after-boundary";
  } else {
    await reading.sink.write(buffer);
    reading.buffer = bytes;
  }
}

/** Reads on through what is held, boundary, headers and body in turn, until it needs more of the stream. */
async function readParts(reading: Reading): Promise<void> {
  const { delimiter } = reading;
  for (;;) {
    if (reading.state === "start") {
      // The body opens with the boundary itself, with no CRLF before it.
      const opening = delimiter.subarray(2);
      if (reading.buffer.byteLength < opening.byteLength) return;
      if (!reading.buffer.subarray(0, opening.byteLength).equals(opening)) {
        throw new MultipartParseError("Invalid multipart stream: missing initial boundary");
      }
      reading.buffer = reading.buffer.subarray(opening.byteLength);
      reading.state = "after-boundary";
    }
    if (reading.state === "after-boundary") {
      if (reading.buffer.byteLength < 2) return;
      if (reading.buffer[0] === 0x2d && reading.buffer[1] === 0x2d) {
        reading.state = "done";
        return;
      }
      reading.buffer = reading.buffer.subarray(2);
      reading.state = "headers";
    }
    if (reading.state === "headers" && !readHeaders(reading)) return;
    if (reading.state === "body" && !(await readBody(reading))) return;
  }
}

/** A part's headers, once all of them are held: its sink is started; false while they are still coming. */
function readHeaders(reading: Reading): boolean {
  const end = reading.buffer.indexOf(HEADER_END);
  if ((end === -1 ? reading.buffer.byteLength : end) > MAX_HEADER_BYTES) {
    throw new MaxHeaderSizeExceededError(MAX_HEADER_BYTES);
  }
  if (end === -1) return false;
  reading.sink = reading.startPart(reading.buffer.subarray(0, end));
  reading.buffer = reading.buffer.subarray(end + HEADER_END.byteLength);
  reading.state = "body";
  return true;
}

/** A part's bytes, handed to its sink up to its boundary; false while the boundary is not yet held. */
async function readBody(reading: Reading): Promise<boolean> {
  const { delimiter, sink } = reading;
  const end = reading.buffer.indexOf(delimiter);
  if (end === -1) {
    // What might be the start of the boundary stays for the next chunk; the rest is the part's.
    const safe = reading.buffer.byteLength - (delimiter.byteLength - 1);
    if (safe > 0) {
      await sink.write(reading.buffer.subarray(0, safe));
      reading.buffer = reading.buffer.subarray(safe);
    }
    return false;
  }
  if (end > 0) await sink.write(reading.buffer.subarray(0, end));
  await sink.end();
  reading.buffer = reading.buffer.subarray(end + delimiter.byteLength);
  reading.state = "after-boundary";
  return true;
}
