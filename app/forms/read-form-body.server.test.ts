import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type BodyFileRule,
  deleteAbandonedPostedFiles,
  discardPostedFiles,
  postedFileOnDisk,
  readFormBody,
  TEXT_FORM_LIMITS,
} from "./read-form-body.server";

const KB = 1024;
const MB = 1024 * KB;
const PDF_MAGIC = new TextEncoder().encode("%PDF-");
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const encode = (text: string) => new TextEncoder().encode(text);

const pdfRule = (field: string, maxBytes: number, maxCount = 1): BodyFileRule => ({
  field,
  maxBytes,
  maxCount,
  type: "pdf",
});

const pdf = (size: number) => {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(PDF_MAGIC);
  return bytes;
};

/** A body sent chunked, with no declared length, made on demand; `pulled` counts the bytes read from it. */
function streamedBody(chunks: () => Iterator<Uint8Array>) {
  const source = chunks();
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = source.next();
        if (next.done) return controller.close();
        counter.pulled += next.value.byteLength;
        controller.enqueue(next.value);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

function post(contentType: string, stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  // Node needs `duplex` for a stream body; the DOM types in use do not know it yet.
  const init: RequestInit & { duplex: "half" } = {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body: stream,
    duplex: "half",
  };
  return new Request("http://localhost/form", init);
}

/** The bytes in 16 KB chunks, as a socket would hand them over. */
function* inChunks(bytes: Uint8Array) {
  for (let offset = 0; offset < bytes.byteLength; offset += 16 * KB) yield bytes.subarray(offset, offset + 16 * KB);
}

/** A form encoded by the platform's own multipart encoder, then sent chunked. */
async function multipartPost(form: FormData) {
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const body = streamedBody(() => inChunks(bytes));
  return { request: post(String(encoded.headers.get("content-type")), body.stream), counter: body.counter };
}

/** A multipart body whose one file part goes on for `fileBytes` bytes, generated as it is read. */
function endlessFilePost(field: string, fileBytes: number) {
  const boundary = "----read-form-body-test";
  const body = streamedBody(function* () {
    yield encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nJordan\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.pdf"\r\n` +
        "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
    );
    const chunk = new Uint8Array(64 * KB).fill(0x20);
    for (let sent = 0; sent < fileBytes; sent += chunk.byteLength) yield chunk;
    yield encode(`\r\n--${boundary}--\r\n`);
  });
  return { request: post(`multipart/form-data; boundary=${boundary}`, body.stream), counter: body.counter };
}

describe("readFormBody with an urlencoded body", () => {
  it("reads a chunked body under the cap", async () => {
    const { stream } = streamedBody(() => inChunks(encode("name=Jordan+Placeholder&comments=caf%C3%A9")));
    const read = await readFormBody(post("application/x-www-form-urlencoded", stream), TEXT_FORM_LIMITS);
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    expect(read.formData.get("name")).toBe("Jordan Placeholder");
    expect(read.formData.get("comments")).toBe("café");
  });

  it("refuses a 100 MB chunked body with 413 and stops reading just past the cap", async () => {
    const { stream, counter } = streamedBody(function* () {
      yield encode("comments=");
      const chunk = new Uint8Array(64 * KB).fill(0x78);
      for (let sent = 0; sent < 100 * MB; sent += chunk.byteLength) yield chunk;
    });
    const read = await readFormBody(post("application/x-www-form-urlencoded", stream), TEXT_FORM_LIMITS);
    expect(read).toEqual({ ok: false, status: 413, problem: { kind: "too-large" } });
    expect(counter.pulled).toBeLessThanOrEqual(TEXT_FORM_LIMITS.maxBytes + 64 * KB);
  });

  it("refuses a declared length over the cap without reading a byte", async () => {
    const { stream, counter } = streamedBody(() => inChunks(encode(`comments=${"x".repeat(70 * KB)}`)));
    const request = post("application/x-www-form-urlencoded", stream, { "content-length": String(70 * KB + 9) });
    expect(await readFormBody(request, TEXT_FORM_LIMITS)).toMatchObject({
      status: 413,
      problem: { kind: "too-large" },
    });
    expect(counter.pulled).toBe(0);
  });
});

describe("readFormBody with a multipart body", () => {
  const limits = { maxBytes: 5 * MB + 64 * KB, files: [pdfRule("resume", 5 * MB)] };

  it("reads the fields and a PDF, typed by its bytes, whatever the browser declared", async () => {
    const form = new FormData();
    form.append("name", "Jordan");
    form.append("resume", new Blob([pdf(100 * KB)], { type: "application/octet-stream" }), "cv.bin");
    const { request } = await multipartPost(form);
    const read = await readFormBody(request, limits);
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    expect(read.formData.get("name")).toBe("Jordan");
    const resume = read.formData.get("resume");
    expect(resume).toBeInstanceOf(File);
    expect(resume).toMatchObject({ name: "cv.bin", type: "application/pdf", size: 100 * KB });
    await discardPostedFiles(read.formData);
  });

  it("writes a file to disk as it arrives, hashed on the way, and deletes it once the post is done", async () => {
    const sent = pdf(300 * KB).map((byte, index) => (index < PDF_MAGIC.length ? byte : index % 251));
    const form = new FormData();
    form.append("resume", new Blob([sent], { type: "application/pdf" }), "cv.pdf");
    const { request } = await multipartPost(form);
    const read = await readFormBody(request, limits);
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    const resume = read.formData.get("resume") as File;
    // Compared as Buffers: an element-by-element comparison of 300 KB takes seconds.
    expect(Buffer.from(await resume.arrayBuffer()).equals(sent)).toBe(true);
    const onDisk = postedFileOnDisk(resume);
    expect(onDisk?.sha256).toBe(createHash("sha256").update(sent).digest("hex"));
    expect((await readFile(onDisk?.path ?? "")).equals(sent)).toBe(true);
    await discardPostedFiles(read.formData);
    expect(existsSync(onDisk?.path ?? "")).toBe(false);
  });

  it("deletes the posted files a stopped server left, once a day old", async () => {
    const left = path.join(tmpdir(), "tce-posted-left-by-a-stopped-server");
    const recent = path.join(tmpdir(), "tce-posted-being-read-now");
    await writeFile(left, "x");
    await writeFile(recent, "x");
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000);
    await utimes(left, dayAgo, dayAgo);
    await deleteAbandonedPostedFiles();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    await rm(recent);
  });

  it("never holds a posted file whole: reading a 50 MB photo raises this process's peak memory by far less", async () => {
    // Linux's peak resident memory (VmHWM), set back to the resident memory now (clear_refs 5) before the read.
    const memoryMb = async (figure: "VmHWM" | "VmRSS") =>
      Number(new RegExp(`^${figure}:\\s+(\\d+) kB`, "m").exec(await readFile("/proc/self/status", "utf8"))?.[1]) / 1024;
    const boundary = "----fifty-megabytes";
    const { stream } = streamedBody(function* () {
      yield encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\n` +
          "Content-Type: image/jpeg\r\n\r\n",
      );
      yield new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
      // One chunk over and over, so that no garbage of the test's own counts in the peak.
      const chunk = new Uint8Array(64 * KB).fill(0x20);
      for (let sent = 0; sent < 50 * MB; sent += chunk.byteLength) yield chunk;
      yield encode(`\r\n--${boundary}--\r\n`);
    });
    const rule: BodyFileRule = { field: "photo", maxBytes: 60 * MB, maxCount: 1, type: "photo" };
    await writeFile("/proc/self/clear_refs", "5");
    const before = await memoryMb("VmRSS");
    const read = await readFormBody(post(`multipart/form-data; boundary=${boundary}`, stream), {
      maxBytes: 61 * MB,
      files: [rule],
    });
    const riseMb = (await memoryMb("VmHWM")) - before;
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    expect(read.formData.get("photo")).toMatchObject({ size: 50 * MB + 4, type: "image/jpeg" });
    await discardPostedFiles(read.formData);
    // Held whole, joined and copied into a Blob, it raised the peak by over 100 MB.
    expect(riseMb).toBeLessThan(20);
  });

  it("gives the event loop turns while it reads a body already received, so other requests are answered", async () => {
    const form = new FormData();
    form.append("resume", new Blob([pdf(4 * MB)], { type: "application/pdf" }), "cv.pdf");
    const { request } = await multipartPost(form);
    let reading = true;
    let turns = 0;
    const turn = () => {
      if (!reading) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const read = await readFormBody(request, limits);
    reading = false;
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    await discardPostedFiles(read.formData);
    // A turn after each quarter megabyte: 16 in 4 MB. Read in one run of microtasks, there were none.
    expect(turns).toBeGreaterThanOrEqual(12);
  });

  it("treats an empty file input as no file", async () => {
    const form = new FormData();
    form.append("name", "Jordan");
    form.append("resume", new Blob([], { type: "application/octet-stream" }), "");
    const { request } = await multipartPost(form);
    const read = await readFormBody(request, limits);
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    expect(read.formData.has("resume")).toBe(false);
    expect(read.formData.get("name")).toBe("Jordan");
  });

  it("refuses a 100 MB chunked body with 413 and stops reading just past the cap", async () => {
    const { request, counter } = endlessFilePost("notes", 100 * MB);
    const read = await readFormBody(request, TEXT_FORM_LIMITS);
    expect(read).toEqual({ ok: false, status: 413, problem: { kind: "too-large" } });
    expect(counter.pulled).toBeLessThanOrEqual(TEXT_FORM_LIMITS.maxBytes + 64 * KB);
  });

  it("refuses an endless file with 413 as soon as the body's cap is passed", async () => {
    const { request, counter } = endlessFilePost("resume", 100 * MB);
    const read = await readFormBody(request, limits);
    expect(read).toEqual({ ok: false, status: 413, problem: { kind: "too-large" } });
    expect(counter.pulled).toBeLessThanOrEqual(limits.maxBytes + 64 * KB);
  });

  it("refuses a file past its own cap naming its field, and keeps the form's other answers", async () => {
    const form = new FormData();
    form.append("firstName", "Jordan");
    form.append("resume", new Blob([pdf(2 * MB)]), "cv.pdf");
    form.append("certifications", "OSHA 10");
    const { request } = await multipartPost(form);
    const read = await readFormBody(request, { maxBytes: 8 * MB, files: [pdfRule("resume", 1 * MB)] });
    expect(read).toMatchObject({ ok: false, status: 413, problem: { kind: "file-too-large", field: "resume" } });
    const kept = read.ok ? undefined : read.formData;
    expect(kept?.get("firstName")).toBe("Jordan");
    expect(kept?.get("certifications")).toBe("OSHA 10");
    expect(kept?.has("resume")).toBe(false);
  });

  it("holds each file field to its own cap", async () => {
    const form = new FormData();
    form.append("resume", new Blob([pdf(2 * MB)]), "cv.pdf");
    form.append("letter", new Blob([pdf(2 * MB)]), "letter.pdf");
    const { request } = await multipartPost(form);
    const read = await readFormBody(request, {
      maxBytes: 8 * MB,
      files: [pdfRule("resume", 5 * MB), pdfRule("letter", 1 * MB)],
    });
    expect(read).toMatchObject({ ok: false, status: 413, problem: { kind: "file-too-large", field: "letter" } });
    // The resume, written before the letter was refused, is deleted with the refusal.
    const resume = read.ok ? undefined : read.formData?.get("resume");
    expect(existsSync(resume instanceof File ? (postedFileOnDisk(resume)?.path ?? "") : "")).toBe(false);
  });

  it("refuses more files in a field than its rule allows", async () => {
    const form = new FormData();
    for (const name of ["a.pdf", "b.pdf", "c.pdf"]) form.append("photos", new Blob([pdf(KB)]), name);
    const { request } = await multipartPost(form);
    const read = await readFormBody(request, { maxBytes: MB, files: [pdfRule("photos", 100 * KB, 2)] });
    expect(read).toMatchObject({ ok: false, status: 413, problem: { kind: "too-many-files", field: "photos" } });
  });

  it("refuses a PNG named .pdf and declared application/pdf, by its bytes", async () => {
    const form = new FormData();
    form.append("resume", new Blob([PNG_BYTES], { type: "application/pdf" }), "photo.pdf");
    const { request } = await multipartPost(form);
    expect(await readFormBody(request, limits)).toMatchObject({
      ok: false,
      status: 400,
      problem: { kind: "wrong-type", field: "resume" },
    });
  });

  it("refuses a file in a field the form does not have", async () => {
    const form = new FormData();
    form.append("name", "Jordan");
    form.append("avatar", new Blob([pdf(KB)]), "a.pdf");
    const { request } = await multipartPost(form);
    expect(await readFormBody(request, limits)).toEqual({ ok: false, status: 400, problem: { kind: "unreadable" } });
  });

  it("refuses a file on a form that takes none", async () => {
    const form = new FormData();
    form.append("comments", new Blob([pdf(KB)]), "a.pdf");
    const { request } = await multipartPost(form);
    expect(await readFormBody(request, TEXT_FORM_LIMITS)).toMatchObject({ status: 400 });
  });
});

describe("readFormBody with a body that is not a form", () => {
  it("answers 400 to JSON, saying it is not a form", async () => {
    const { stream } = streamedBody(() => inChunks(encode('{"name":"Jordan"}')));
    expect(await readFormBody(post("application/json", stream), TEXT_FORM_LIMITS)).toEqual({
      ok: false,
      status: 400,
      problem: { kind: "not-a-form" },
    });
  });

  it("answers 400 to a multipart body cut short, without its boundary, or with bytes that are not UTF-8", async () => {
    const boundary = "xyz";
    const bodies = [
      encode(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nJordan`),
      new Uint8Array([
        ...encode(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`),
        0xff,
        0xfe,
        ...encode(`\r\n--${boundary}--\r\n`),
      ]),
    ];
    for (const bytes of bodies) {
      const { stream } = streamedBody(() => inChunks(bytes));
      const read = await readFormBody(post(`multipart/form-data; boundary=${boundary}`, stream), TEXT_FORM_LIMITS);
      expect(read).toEqual({ ok: false, status: 400, problem: { kind: "unreadable" } });
    }
    const { stream } = streamedBody(() => inChunks(encode("name=Jordan")));
    expect(await readFormBody(post("multipart/form-data", stream), TEXT_FORM_LIMITS)).toMatchObject({ status: 400 });
  });
});
