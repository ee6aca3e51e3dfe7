import { Writable } from "node:stream";
import { createLogger } from "~/services/logger.server";

/** A logger like the app's, writing into a list of lines. */
export function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger("info", destination), lines };
}
