import type { Express as ExpressApp, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";

declare global {
  namespace Express {
    interface Request {
      /** The app's logger, its lines saying which request they are about (giveRequestsALogger). */
      log: Logger;
    }
  }
}

/** A calendar address's token, its only credential (0706), in the path. */
const CALENDAR_ADDRESS = /^\/calendar\/[^?]*/i;

/**
 * The URL with its query's values and a calendar address's token left out (`/admin/inbox?q&status`): a search, a filter or a GET form's answers
 * are what people typed, and the log is not the place for them. The parameter names say what was asked.
 */
function loggedUrl(requestedUrl: string): string {
  const originalUrl = requestedUrl.replace(CALENDAR_ADDRESS, "/calendar/<address>");
  const queryStart = originalUrl.indexOf("?");
  if (queryStart === -1) return originalUrl;
  const names = originalUrl
    .slice(queryStart + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => pair.split("=")[0]);
  return `${originalUrl.slice(0, queryStart)}?${names.join("&")}`;
}

/** What the log says of a request: its method, its URL without the query's values and the client's address. */
export type RequestSummary = { method: string | undefined; url: string; remoteAddress: string | undefined };

export function requestSummary(
  method: string | undefined,
  originalUrl: string,
  remoteAddress: string | undefined,
): RequestSummary {
  return { method, url: loggedUrl(originalUrl), remoteAddress };
}

function summaryOf(req: Request): RequestSummary {
  return requestSummary(req.method, req.originalUrl, req.ip);
}

/**
 * The access log's one line for an answer, in pino-http's shape: what was asked, the status and how long it
 * took; at error level for a server error, and "request aborted" when the client left before it was answered.
 */
export function logAnswer(
  logger: Logger,
  request: RequestSummary,
  res: Pick<Response, "statusCode" | "writableEnded">,
  startedAt: number,
): void {
  const line = {
    req: request,
    res: { statusCode: res.statusCode },
    responseTime: Date.now() - startedAt,
  };
  const message = res.writableEnded ? "request completed" : "request aborted";
  if (res.statusCode >= 500) logger.error(line, message);
  else logger.info(line, message);
}

/**
 * One line per request, written when its connection is done with it. Cheaper than pino-http, which made two
 * child loggers and hooked three response events per request: under a flood of form posts that was 7% of the
 * app's CPU.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = Date.now();
    res.once("close", () => logAnswer(logger, summaryOf(req), res, startedAt));
    next();
  };
}

/**
 * `req.log` for the handlers that log about a request (a refused origin, a failed action): a child of the app's
 * logger with the request's summary, made the first time a handler asks for it, since most requests never do.
 */
export function giveRequestsALogger(app: ExpressApp, logger: Logger): void {
  Object.defineProperty(app.request, "log", {
    configurable: true,
    get(this: Request) {
      const child = logger.child({ req: summaryOf(this) });
      Object.defineProperty(this, "log", { value: child, configurable: true });
      return child;
    },
  });
}
