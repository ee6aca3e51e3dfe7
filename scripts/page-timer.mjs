// A worker thread of the checklist bench (scripts/bench-checklist.ts): times GETs of the pages, one after another
// in turn, until it is told to stop, then posts each page's times. On its own thread, so that the bench's own
// event loop, busy sending four checklists of 25 MB, does not count as the server's time.
import { parentPort, workerData } from "node:worker_threads";

const { url, paths } = workerData;
const timings = Object.fromEntries(paths.map((path) => [path, []]));
let stopped = false;
parentPort.once("message", () => {
  stopped = true;
});
while (!stopped) {
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    timings[path].push(performance.now() - started);
  }
  // The stop message is read between rounds.
  await new Promise((resolve) => setImmediate(resolve));
}
parentPort.postMessage(timings);
