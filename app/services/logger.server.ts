import pino, { type DestinationStream, type Logger } from "pino";

/**
 * The one logger of the app. Database errors lose the values of their failed query on the way out (a form's
 * answers, a resume's bytes), whichever logger or child writes them; cookies and authorisation headers too.
 */
export function createLogger(level: string, destination: DestinationStream = asyncStdout()): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
      hooks: {
        // Before pino reads the arguments, since it takes an error's message as the line's message too.
        logMethod(args, log) {
          log.apply(this, args.map(withoutQueryValues) as Parameters<typeof log>);
        },
      },
    },
    destination,
  );
}

/** How long a log line may wait in the buffer for others to join it in one write. */
const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * Standard output written from a buffer, off the request's path, in writes of several lines: a write per line
 * was the largest single cost of serving a static file. Lines wait at most LOG_FLUSH_INTERVAL_MS, and
 * `logger.flush()` at shutdown writes out what is left.
 */
function asyncStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
  setInterval(() => destination.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
}

/** A log argument with every error in it, or among its fields, replaced by its redacted copy. */
function withoutQueryValues(argument: unknown): unknown {
  if (argument instanceof Error) return redactedError(argument);
  if (typeof argument !== "object" || argument === null || Array.isArray(argument)) return argument;
  let changed = false;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(argument)) {
    result[key] = value instanceof Error ? redactedError(value) : value;
    changed ||= result[key] !== value;
  }
  return changed ? result : argument;
}

/** PostgreSQL's message for a NOT NULL or CHECK violation quotes the whole row. */
const ROW_DETAIL = /^Failing row contains/;

/**
 * A copy of the error without the values its query was run with: drizzle-orm's "Failed query" errors carry
 * them as `params` and in the message, and PostgreSQL's row details quote them. The SQL, with its $1
 * placeholders, and PostgreSQL's own message stay: they say what failed. Other errors come back as they are.
 */
export function redactedError(error: Error): Error {
  const params: unknown = Reflect.get(error, "params");
  const detail: unknown = Reflect.get(error, "detail");
  const cause: unknown = error.cause;
  const redactedCause = cause instanceof Error ? redactedError(cause) : cause;
  const hasParams = Array.isArray(params);
  const hasRowDetail = typeof detail === "string" && ROW_DETAIL.test(detail);
  if (!hasParams && !hasRowDetail && redactedCause === cause) return error;

  const copy: Error = Object.create(Object.getPrototypeOf(error));
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  if (hasParams) {
    const shown = `\nparams: ${String(params)}`;
    const hidden = `\nparams: [${params.length} values not logged]`;
    copy.message = error.message.replace(shown, hidden);
    copy.stack = error.stack?.replace(shown, hidden);
    Reflect.set(copy, "params", hidden.slice("\nparams: ".length));
  }
  if (hasRowDetail) Reflect.set(copy, "detail", "Failing row contains (values not logged)");
  if (redactedCause !== cause) copy.cause = redactedCause;
  return copy;
}
