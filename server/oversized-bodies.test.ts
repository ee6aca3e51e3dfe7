import { readFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { servicePages } from "../app/content/services";

const MB = 1024 * 1024;
const BODY_BYTES = 100 * MB;
const MEMORY_CEILING_BYTES = 300 * MB;
const FORM_ACTIONS = [
  "/learnmore",
  ...servicePages.map((page) => page.path),
  "/forms/estimate",
  "/apply",
  "/assessment",
  "/admin",
];

type Answer = { status: number; body: string; bytesSent: number };
type EndlessBody = { contentType: string; head: string; filler: string };

const BOUNDARY = "----oversized-body-test";
const BODIES: Record<string, EndlessBody> = {
  multipart: {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    head:
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nJordan\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="huge.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
    filler: " ",
  },
  urlencoded: { contentType: "application/x-www-form-urlencoded", head: "name=Jordan&comments=", filler: "x" },
};

/**
 * Posts a body of `BODY_BYTES`, chunked with no declared length, made 64 KB at a time as the socket takes it:
 * the test never holds it. It keeps sending after the answer, as a browser still uploading would, and stops
 * when the body is all sent or the server closes the connection.
 */
function postEndless(url: string, body: EndlessBody): Promise<Answer> {
  const chunk = Buffer.alloc(64 * 1024, body.filler);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered: Promise<Omit<Answer, "bytesSent">> | undefined;
    const request = httpRequest(url, {
      method: "POST",
      headers: { "content-type": body.contentType, origin: new URL(url).origin },
    });
    const finish = () => {
      if (!answered) return reject(new Error(`${url}: the connection ended with no answer`));
      answered.then((answer) => resolve({ ...answer, bytesSent }), reject);
    };
    request.on("response", (response) => {
      answered = textOf(response).then((text) => ({
        status: response.statusCode ?? 0,
        body: text,
      }));
    });
    // Once the server has answered and closed the connection, writing fails: that is where sending stops.
    request.on("error", finish);
    request.on("close", finish);
    const writeMore = () => {
      while (bytesSent < BODY_BYTES && !request.destroyed) {
        bytesSent += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", writeMore);
          return;
        }
      }
      if (!request.destroyed) request.end();
    };
    request.write(body.head);
    writeMore();
  });
}

function textOf(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    response.on("data", (data: Buffer) => chunks.push(data));
    // The connection may close right after the answer; what arrived is the answer.
    response.on("close", () => resolve(Buffer.concat(chunks).toString()));
  });
}

/** Peak and current resident memory of a process, from Linux's own accounting. */
async function memoryOf(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) * 1024;
  return { peak: kilobytes("VmHWM"), now: kilobytes("VmRSS") };
}

describe("a 100 MB chunked post", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer();
  });
  afterAll(() => app?.stop());

  for (const [encoding, body] of Object.entries(BODIES)) {
    it(`${encoding}: gets 413 from every public form's action and from /admin, and the server stays under 300 MB`, async () => {
      const pid = app.process.pid;
      if (pid === undefined) throw new Error("the app has no process id");
      const answers: Record<string, number> = {};
      for (const path of FORM_ACTIONS) {
        const answer = await postEndless(`${app.url}${path}`, body);
        answers[path] = answer.status;
        expect(answer.bytesSent, path).toBeLessThan(BODY_BYTES);
        expect(answer.body, path).not.toMatch(/at \S+ \(|node_modules/);
      }
      // Each answer reaches the client, though it was still sending when the server refused the rest.
      expect(answers).toEqual(Object.fromEntries(FORM_ACTIONS.map((path) => [path, 413])));
      const memory = await memoryOf(pid);
      expect(memory.peak).toBeLessThan(MEMORY_CEILING_BYTES);
      expect(memory.now).toBeLessThan(MEMORY_CEILING_BYTES);
      // The server is still well and answering.
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    });
  }
});
