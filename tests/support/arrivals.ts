/** What a test receiver collects, in order of arrival, with a way to wait until enough has come in. */
export function createArrivals<T>(noun: string) {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    add(item: T) {
      items.push(item);
      for (const wake of waiters) wake();
    },
    /** Resolves with every item once at least `count` arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs = 15_000): Promise<T[]> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (items.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(items);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} ${noun} within ${timeoutMs} ms, got ${items.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
