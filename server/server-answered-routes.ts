import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import type { AppLoadContext, ServerBuild } from "react-router";
import { isJsonAnswer, isServerAnswered } from "../app/server-answered-route";

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
type AnsweredRoute = { module: RouteModule; maxBodyBytes: number };

/**
 * Answers the routes whose handle asks for it (app/server-answered-route.ts) by calling their loader or action
 * directly: no route matching over the whole tree, no request or answer streamed through web streams. Under a
 * flood of estimate posts React Router's request handling was a fifth of the app's CPU. GET and HEAD go to the
 * loader and every other method to the action, as React Router would send them; a route without the one asked
 * for goes on to React Router, which refuses the method.
 */
export function serverAnsweredRoutes(
  build: ServerBuild,
  loadContextOf: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext,
): RequestHandler {
  const routes = new Map<string, AnsweredRoute>();
  for (const route of Object.values(build.routes)) {
    const handle: unknown = route?.module.handle;
    if (!route || !isServerAnswered(handle)) continue;
    if (route.parentId !== "root" || !route.path || /[:*?]/.test(route.path)) {
      throw new Error(`route ${route.id}: a server-answered route needs a fixed path of its own`);
    }
    routes.set(`/${route.path}`, { module: route.module, maxBodyBytes: handle.maxBodyBytes });
  }
  return async (req, res, next) => {
    const route = routes.get(req.path);
    if (!route) return next();
    const { module } = route;
    const handler = req.method === "GET" || req.method === "HEAD" ? module.loader : module.action;
    if (!handler) return next();
    let answer: unknown;
    try {
      const request = await fetchRequestOf(req, route.maxBodyBytes);
      answer = await handler({
        request,
        url: new URL(request.url),
        pattern: req.path,
        params: {},
        context: loadContextOf(req, res),
      });
    } catch (thrown) {
      // Nobody is left to answer; the access log has the request.
      if (thrown instanceof ClientGone) return;
      // A Response thrown (a redirect) is an answer too.
      if (!(thrown instanceof Response)) return next(thrown);
      answer = thrown;
    }
    if (isJsonAnswer(answer)) {
      res.status(answer.status);
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(answer.body));
      return;
    }
    if (!(answer instanceof Response)) return next(new Error(`${req.path} answered without a JsonAnswer or Response`));
    res.status(answer.status);
    for (const [name, value] of answer.headers) res.append(name, value);
    res.end(answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined);
  };
}

/**
 * The request as a loader or action takes it. A body is read whole, but never more than one byte past the
 * route's cap: the action's own reader then finds it over the cap and says so, and the rest is left to
 * lingerWhenBodyUnread.
 */
async function fetchRequestOf(req: ExpressRequest, maxBodyBytes: number): Promise<Request> {
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
  }
  const url = `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
  if (req.method === "GET" || req.method === "HEAD") return new Request(url, { method: req.method, headers });
  return new Request(url, { method: req.method, headers, body: await readBody(req, maxBodyBytes + 1) });
}

class ClientGone extends Error {
  constructor() {
    super("the client went away before its body came in");
  }
}

function readBody(req: ExpressRequest, maxBytes: number): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error) => {
      req.off("data", onData).off("end", onEnd).off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < maxBytes) return;
      req.pause();
      finish();
    };
    const onEnd = () => finish();
    const onClose = () => finish(req.complete ? undefined : new ClientGone());
    req.on("data", onData).on("end", onEnd).on("close", onClose);
  });
}
