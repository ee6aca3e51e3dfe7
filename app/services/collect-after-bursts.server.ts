import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How long after the last piece of a burst of work the garbage is collected. */
const QUIET_MS = 5_000;

let running = 0;
let quiet: NodeJS.Timeout | undefined;
let collectGarbage: (() => void) | undefined;

/**
 * V8 collects garbage as JavaScript allocates, and a server at rest allocates almost nothing: the buffers of a
 * burst of photo work (megabytes each, outside V8's heap) would stay resident until the next busy moment. Once
 * QUIET_MS have passed since the last work ended, one full collection hands them back. The collector is reached
 * as Node's own --expose-gc gives it, set from here so that every way of starting the app has it.
 */
export async function asPartOfABurst<T>(work: () => Promise<T>): Promise<T> {
  running++;
  clearTimeout(quiet);
  try {
    return await work();
  } finally {
    running--;
    if (running === 0) quiet = setTimeout(collectAfterTheBurst, QUIET_MS).unref();
  }
}

function collectAfterTheBurst() {
  if (!collectGarbage) {
    setFlagsFromString("--expose-gc");
    collectGarbage = runInNewContext("gc") as () => void;
  }
  collectGarbage();
}
