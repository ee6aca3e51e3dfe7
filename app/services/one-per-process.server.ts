/**
 * One value for the whole process, however many copies of the calling module it loads. The built app is two
 * bundles: the Express server (build/server-entry) and React Router's (build/server, which it imports). Each
 * has its own copy of every module both use, so a module-level value exists twice: counted in one and read from
 * the other, a counter never moved. Kept on globalThis under a registered Symbol, the value is made once, by
 * whichever copy asks first, and both get it.
 */
export function onePerProcess<T>(name: string, create: () => T): T {
  const key = Symbol.for(`tri-county-electric:${name}`);
  const store = globalThis as typeof globalThis & Record<symbol, T | undefined>;
  const value = store[key] ?? create();
  store[key] = value;
  return value;
}
