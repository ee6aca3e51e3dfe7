import { request } from "node:http";
import { validEstimate } from "./estimate-fixture";

export type EstimatePostResult = {
  status: number;
  /** The reference number the visitor was given: present exactly when the request was stored. */
  reference?: string;
  body: string;
};

/**
 * Posts the public estimate form as a browser without JavaScript does, to `pageUrl` (an app or a load
 * balancer in front of it). `localAddress` picks the source address (127.0.0.2, ...), so that one test can
 * be many visitors. A connection cut off (the app killed mid-request) resolves with status 0.
 */
export function postEstimate(
  pageUrl: string,
  options: { comments?: string; localAddress?: string; origin?: string } = {},
): Promise<EstimatePostResult> {
  const url = new URL(pageUrl);
  const form = new URLSearchParams({
    ...validEstimate,
    comments: options.comments ?? validEstimate.comments,
  }).toString();
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress: options.localAddress,
        agent: false,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(form),
          origin: options.origin ?? url.origin,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", () => resolve({ status: 0, body: "" }));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const reference = /Your reference number is <strong[^>]*>(EST-[0-9A-Z]{6})</.exec(body)?.[1];
          resolve({ status: res.statusCode ?? 0, reference: res.statusCode === 200 ? reference : undefined, body });
        });
      },
    );
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end(form);
  });
}
