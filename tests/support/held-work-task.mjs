// A work-pool task that holds its worker thread until the test releases it: `release(gate)` below, from the
// test's thread. Loaded by the pool's worker by file name (piscina's run({ filename })), so it is plain ESM.
export default function holdWorker({ gate }) {
  Atomics.wait(new Int32Array(gate), 0, 0);
}
