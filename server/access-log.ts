import type { Express as ExpressApp, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { queryNamesOnly } from "../app/services/query-names.server";

declare global {
  namespace Express {
    interface Request {
      /** The app's logger, its lines saying which request they are about (giveRequestsALogger). */
      log: Logger;
    }
  }
}

const MIGHT_NAME_CALENDAR = /calendar|[%\t\n\r]/i;

/**
 * Whether a path reaches the calendar feed, whose token in the path is its only credential (0706): read as the
 * app reads it on the way there, with percent-escapes decoded, repeated slashes collapsed (a redirect takes
 * `//calendar/...` there), dot segments resolved and any case (routes match case-insensitively).
 */
function reachesCalendarFeed(path: string): boolean {
  // Every line is read this way: a path with neither the word nor an escape or a character the URL parser drops
  // cannot read as the feed's, and is passed without decoding it.
  if (!MIGHT_NAME_CALENDAR.test(path)) return false;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A path that cannot be decoded is answered 400 and reaches nothing; its escapes are read as they are.
  }
  const collapsed = decoded.replace(/[/\\]+/g, "/");
  // An escaped line break between two slashes (`/%0A/`) reads as `//` and no host, which the URL parser refuses:
  // such a path reaches no route. The line is written as its connection closes, where a throw ends the process.
  if (!URL.canParse(collapsed, "http://path.invalid")) return false;
  return new URL(collapsed, "http://path.invalid").pathname.toLowerCase().startsWith("/calendar/");
}

/** The URL with its query's values and a calendar address's token left out (`/admin/inbox?q&status`). */
function loggedUrl(requestedUrl: string): string {
  const queryStart = requestedUrl.indexOf("?");
  const path = queryStart === -1 ? requestedUrl : requestedUrl.slice(0, queryStart);
  const query = queryStart === -1 ? "" : queryNamesOnly(requestedUrl.slice(queryStart));
  return `${reachesCalendarFeed(path) ? "/calendar/<address>" : path}${query}`;
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

/** Requests about an anonymous form: their lines say nothing of where they came from. */
const clientKeptOut = new WeakSet<Request>();

function summaryOf(req: Request): RequestSummary {
  return requestSummary(req.method, req.originalUrl, clientKeptOut.has(req) ? undefined : req.ip);
}

/**
 * Keeps the client's address out of every line about this request from now on, its access-log line included:
 * for an anonymous form, whose page and post would otherwise tie it to an address, and through the address to
 * the person who signed in from there.
 */
export function keepClientOutOfLog(req: Request): void {
  clientKeptOut.add(req);
  // A logger made before carries the address: the next line gets one without it.
  Reflect.deleteProperty(req, "log");
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
