import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A Web Push service of our own on 127.0.0.1, standing in for the browsers' (FCM, Mozilla's, Apple's). It checks
 * each push as a real one does (RFC 8292: the VAPID JWT, signed with ES256 by the key in the header, for this
 * origin, not expired) and then, as the device would, decrypts it (RFC 8291 with RFC 8188's aes128gcm) with the
 * subscription's private key it made. Written on WebCrypto, not on web-push or http_ece, so that the sender's
 * code is checked by an implementation other than its own.
 */

/** A subscription as a browser hands it to the page: its address and its public key and auth secret. */
export type TestSubscription = { endpoint: string; p256dh: string; auth: string };

/** A push the service took in, decrypted. */
export type ReceivedPush = { endpoint: string; message: Record<string, unknown>; receivedAt: number; ttl: number };

export type PushService = {
  origin: string;
  /** Its host and port, as PUSH_SERVICE_ALLOWED_HOSTS names it for the app to push to it on loopback. */
  host: string;
  /** A new device: its key pair and auth secret made here, its address on this service. */
  newSubscription(): Promise<TestSubscription>;
  /** From now on, pushes to this address are answered 410 Gone (the person turned notifications off). */
  forget(endpoint: string): void;
  /** Every push taken in, in order. */
  received: ReceivedPush[];
  /** Pushes that failed a check, with why: a test expects none. */
  refused: string[];
  /** Pushes taken in and answered, checked or not yet. */
  accepted(): number;
  /** With `checkLater`: checks and decrypts every push taken in so far, into `received` and `refused`. */
  checkTakenIn(): Promise<void>;
  close(): Promise<void>;
};

export type PushServiceOptions = {
  /**
   * Answer each push 201 as it arrives and check it when asked (`checkTakenIn`), as a real push service accepts a
   * push and leaves the decrypting to the device: a bench measures the sender, not this stand-in's cryptography
   * on the same cores. A push that fails its check then is in `refused` all the same.
   */
  checkLater?: boolean;
};

type Device = { privateKey: CryptoKey; publicKey: Uint8Array; auth: Uint8Array };

const encoder = new TextEncoder();

const fromBase64Url = (text: string) => new Uint8Array(Buffer.from(text, "base64url"));
const toBase64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

async function hkdf(salt: Uint8Array, secret: Uint8Array, info: Uint8Array, bytes: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", concat(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: concat(salt), info: concat(info) },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, an ES256 JWT for this origin that has not expired. */
async function checkVapid(authorization: string | undefined, origin: string): Promise<string | undefined> {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? "");
  if (!match) return `no VAPID Authorization header: ${authorization}`;
  const [, token = "", publicKey = ""] = match;
  const [header = "", claims = "", signature = ""] = token.split(".");
  if (JSON.parse(Buffer.from(header, "base64url").toString()).alg !== "ES256") return "the JWT is not ES256";
  const key = await crypto.subtle.importKey(
    "raw",
    concat(fromBase64Url(publicKey)),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const signed = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    concat(fromBase64Url(signature)),
    encoder.encode(`${header}.${claims}`),
  );
  if (!signed) return "the JWT's signature does not verify with the key in the header";
  const { aud, exp, sub } = JSON.parse(Buffer.from(claims, "base64url").toString()) as Record<string, unknown>;
  if (aud !== origin) return `the JWT's aud is ${aud}, not ${origin}`;
  const now = Date.now() / 1000;
  if (typeof exp !== "number" || exp <= now || exp > now + 24 * 60 * 60) return `the JWT's exp ${exp} is not valid`;
  if (typeof sub !== "string" || !/^(mailto:|https:)/.test(sub)) return `the JWT's sub ${sub} is not a contact`;
  return undefined;
}

/** RFC 8291 over RFC 8188: the plaintext the device reads, or throws when it does not decrypt. */
async function decrypt(device: Device, body: Uint8Array): Promise<string> {
  const salt = body.subarray(0, 16);
  const recordSize = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const keyIdLength = body[20] ?? 0;
  const senderPublic = body.subarray(21, 21 + keyIdLength);
  const sender = await crypto.subtle.importKey(
    "raw",
    concat(senderPublic),
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ecdhSecret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: sender }, device.privateKey, 256),
  );
  const keyInfo = concat(encoder.encode("WebPush: info\0"), device.publicKey, senderPublic);
  const inputKey = await hkdf(device.auth, ecdhSecret, keyInfo, 32);
  const contentKey = await crypto.subtle.importKey(
    "raw",
    concat(await hkdf(salt, inputKey, encoder.encode("Content-Encoding: aes128gcm\0"), 16)),
    "AES-GCM",
    false,
    ["decrypt"],
  );
  const baseNonce = await hkdf(salt, inputKey, encoder.encode("Content-Encoding: nonce\0"), 12);
  const records = body.subarray(21 + keyIdLength);
  const plain: Uint8Array[] = [];
  for (let index = 0, offset = 0; offset < records.byteLength; index++, offset += recordSize) {
    const nonce = concat(baseNonce);
    new DataView(nonce.buffer).setUint32(8, new DataView(nonce.buffer).getUint32(8) ^ index);
    const record = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: nonce },
        contentKey,
        concat(records.subarray(offset, offset + recordSize)),
      ),
    );
    // Each record ends in a delimiter (2 for the last, 1 before) and any padding zeros.
    let end = record.byteLength - 1;
    while (end >= 0 && record[end] === 0) end--;
    if (record[end] !== 2 && record[end] !== 1) throw new Error("a record has no delimiter");
    plain.push(record.subarray(0, end));
  }
  return new TextDecoder().decode(concat(...plain));
}

async function readBody(request: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A push as it arrived, before its checks. */
type TakenIn = { endpoint: string; device: Device; headers: IncomingMessage["headers"]; body: Uint8Array; at: number };

export async function startPushService(options: PushServiceOptions = {}): Promise<PushService> {
  const devices = new Map<string, Device>();
  const gone = new Set<string>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let unchecked: TakenIn[] = [];
  let accepted = 0;
  let origin = "";
  let counter = 0;

  /** The push's checks, as a push service and then its device make them: undefined when it passes. */
  async function check({
    endpoint,
    device,
    headers,
    body,
    at,
  }: TakenIn): Promise<{ status: number; problem?: string }> {
    const problem =
      (await checkVapid(headers.authorization, origin)) ??
      (headers["content-encoding"] === "aes128gcm" ? undefined : "the body is not aes128gcm") ??
      (headers.ttl === undefined ? "no TTL header" : undefined);
    if (problem) {
      refused.push(problem);
      return { status: 403, problem };
    }
    try {
      const message = JSON.parse(await decrypt(device, body)) as Record<string, unknown>;
      received.push({ endpoint, message, receivedAt: at, ttl: Number(headers.ttl) });
      return { status: 201 };
    } catch (error) {
      refused.push(`the body does not decrypt: ${error instanceof Error ? error.message : String(error)}`);
      return { status: 400 };
    }
  }

  const server = createServer(async (request, response) => {
    const endpoint = `${origin}${request.url}`;
    const body = await readBody(request);
    const at = Date.now();
    const device = devices.get(endpoint);
    if (!device || gone.has(endpoint)) return response.writeHead(device ? 410 : 404).end();
    const takenIn = { endpoint, device, headers: request.headers, body, at };
    accepted += 1;
    if (options.checkLater) {
      unchecked.push(takenIn);
      return response.writeHead(201).end();
    }
    const { status, problem } = await check(takenIn);
    response.writeHead(status).end(problem);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    host: new URL(origin).host,
    received,
    refused,
    accepted: () => accepted,
    async checkTakenIn() {
      const taken = unchecked;
      unchecked = [];
      for (const push of taken) await check(push);
    },
    async newSubscription() {
      const keys = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
        "deriveBits",
      ])) as CryptoKeyPair;
      const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
      const auth = crypto.getRandomValues(new Uint8Array(16));
      counter += 1;
      const endpoint = `${origin}/push/device-${counter}`;
      devices.set(endpoint, { privateKey: keys.privateKey, publicKey, auth });
      return { endpoint, p256dh: toBase64Url(publicKey), auth: toBase64Url(auth) };
    },
    forget(endpoint) {
      gone.add(endpoint);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
