import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createArrivals } from "./arrivals";

export type ReceivedRequest = {
  method: string;
  /** The request target, query string included. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body as it came over the wire, decoded as UTF-8. */
  body: string;
  /** The raw body's bytes, for binary bodies such as a multipart post with a PDF. */
  rawBody: Buffer;
  /** Date.now() once the whole body was read. */
  receivedAt: number;
  /** The TCP connection it came on, numbered from 1 as they open: a client keeping its connections alive reuses one. */
  connection: number;
  /** The status the receiver answered with; unset while unanswered, or when the client gave up first. */
  answeredStatus?: number;
};

/** What the receiver does with one request. */
export type ReceiverResponse =
  /** `delayMs` holds the answer back that long, as a slow receiver would. */
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { redirect: string; status?: 301 | 302 | 303 | 307 | 308 }
  /** Never answers by itself: until `releaseHanging()`, the client giving up, or `stop()`/`close()`. */
  | { hang: true };

export type WebhookReceiver = {
  /** http://127.0.0.1:PORT/ — stays the same across stop() and start(). */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in order of arrival. */
  readonly requests: ReceivedRequest[];
  /** Queues responses: each request takes the next one; with the queue empty the default answers. */
  respondWith: (...responses: ReceiverResponse[]) => void;
  /** The answer once the queue is empty; 200 unless changed. */
  setDefaultResponse: (response: ReceiverResponse) => void;
  /** How many requests are being held open right now. */
  hangingCount: () => number;
  /** Answers every request held open (or cuts them off when `response` is "destroy"). */
  releaseHanging: (response?: ReceiverResponse | "destroy") => void;
  /** Webhook-ids that were being received twice at the same moment (two sends of one delivery overlapping). */
  readonly overlappingIds: ReadonlySet<string>;
  /** Resolves once at least `count` requests came in; rejects after `timeoutMs`. */
  waitForRequests: (count: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  /** Stops listening and cuts every open connection: clients now get ECONNREFUSED. */
  stop: () => Promise<void>;
  /** Listens again on the same port. */
  start: () => Promise<void>;
  close: () => Promise<void>;
};

/** A real HTTP server on 127.0.0.1 that records requests and answers as told, to test webhook senders. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals = createArrivals<ReceivedRequest>("requests");
  const requests = arrivals.items;
  const queue: ReceiverResponse[] = [];
  let defaultResponse: ReceiverResponse = { status: 200, body: "ok" };
  const hanging = new Set<ServerResponse>();
  const inFlightIds = new Map<string, number>();
  const overlappingIds = new Set<string>();
  const answered = new WeakMap<ServerResponse, ReceivedRequest>();
  let server: Server | undefined;
  let port = 0;
  const connectionOf = new WeakMap<Socket, number>();
  let connections = 0;

  function answer(res: ServerResponse, response: ReceiverResponse) {
    if ("hang" in response) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    const request = answered.get(res);
    if ("redirect" in response) {
      if (request) request.answeredStatus = response.status ?? 302;
      res.writeHead(response.status ?? 302, { location: response.redirect, "content-length": "0" });
      res.end();
      return;
    }
    if (response.delayMs) {
      const delayed = { ...response, delayMs: 0 };
      const timer = setTimeout(() => answer(res, delayed), response.delayMs);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    const body = response.body ?? "";
    if (request) request.answeredStatus = response.status;
    res.writeHead(response.status, {
      "content-type": "text/plain",
      "content-length": String(Buffer.byteLength(body)),
      ...response.headers,
    });
    res.end(body);
  }

  function listen(onPort: number): Promise<void> {
    const created = createServer((req, res) => {
      const webhookId = req.headers["webhook-id"];
      if (typeof webhookId === "string") {
        const count = (inFlightIds.get(webhookId) ?? 0) + 1;
        inFlightIds.set(webhookId, count);
        if (count > 1) overlappingIds.add(webhookId);
        res.on("close", () => {
          const left = (inFlightIds.get(webhookId) ?? 1) - 1;
          if (left > 0) inFlightIds.set(webhookId, left);
          else inFlightIds.delete(webhookId);
        });
      }
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const rawBody = Buffer.concat(chunks);
        const request: ReceivedRequest = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body: rawBody.toString("utf8"),
          rawBody,
          receivedAt: Date.now(),
          connection: connectionOf.get(req.socket) ?? 0,
        };
        answered.set(res, request);
        arrivals.add(request);
        answer(res, queue.shift() ?? defaultResponse);
      });
    });
    created.on("connection", (socket: Socket) => connectionOf.set(socket, ++connections));
    // Kept alive as most receivers keep them, so a test sees connections reused as a real receiver would (at
    // 1 s, under fetch's 2 s margin, every send opened a new one). close() cuts idle ones; none keep a test up.
    created.keepAliveTimeout = 5_000;
    return new Promise((resolve, reject) => {
      created.once("error", reject);
      created.listen(onPort, "127.0.0.1", () => {
        created.off("error", reject);
        server = created;
        port = (created.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  async function stop() {
    const current = server;
    if (!current) return;
    server = undefined;
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    current.closeAllConnections();
    hanging.clear();
    await closed;
  }

  await listen(0);

  return {
    get url() {
      return `http://127.0.0.1:${port}/`;
    },
    get port() {
      return port;
    },
    requests,
    overlappingIds,
    respondWith: (...responses) => {
      queue.push(...responses);
    },
    setDefaultResponse: (response) => {
      defaultResponse = response;
    },
    hangingCount: () => hanging.size,
    releaseHanging: (response = { status: 200, body: "ok" }) => {
      for (const res of [...hanging]) {
        hanging.delete(res);
        if (response === "destroy") res.destroy();
        else answer(res, response);
      }
    },
    waitForRequests: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    stop,
    start: async () => {
      if (server) return;
      await listen(port);
    },
    close: stop,
  };
}
