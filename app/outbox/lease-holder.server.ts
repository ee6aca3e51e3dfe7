import type pg from "pg";
import type { Logger } from "pino";
import { drizzleOver, type Transaction } from "~/services/db/database.server";

/**
 * The advisory-lock space of delivery leases: the first key of `pg_advisory_lock_shared(space, delivery id)`.
 * Any fixed number works; this one is "dl" in ASCII, and no other lock in the app uses two-key locks.
 */
export const LEASE_LOCK_SPACE = 0x646c;

/**
 * One database session, held for the worker's life, that holds a shared advisory lock on every delivery the
 * worker is sending. PostgreSQL drops a session's locks the moment its connection goes, so a delivery left
 * `sending` with no lock on it belongs to an instance that died: it can be taken back at once, without
 * waiting for its lease to run out.
 */
export type LeaseHolder = {
  /** Runs `work` on the holding session: a claim run there takes its locks in the same statement. */
  run: <T>(work: (session: Transaction) => Promise<T>) => Promise<T>;
  release: (deliveryId: number) => Promise<void>;
  close: () => Promise<void>;
};

export function createLeaseHolder(pool: pg.Pool, logger: Logger, heldIds: () => Iterable<number>): LeaseHolder {
  type Held = { client: pg.PoolClient; session: Transaction; released: boolean };
  let current: Promise<Held> | undefined;

  let queue: Promise<unknown> = Promise.resolve();

  function releaseOnce(held: Held, error?: Error) {
    if (held.released) return;
    held.released = true;
    held.client.release(error ?? true);
  }

  /** After a failed statement: a session that no longer answers is dropped, and the next use opens another. */
  async function dropIfLost(held: Held) {
    const alive = await held.client.query("SELECT 1").then(
      () => true,
      () => false,
    );
    if (alive) return;
    if (current && (await current.catch(() => undefined)) === held) current = undefined;
    releaseOnce(held, new Error("the delivery lease session was lost"));
  }

  async function onSession<T>(work: (held: Held) => Promise<T>): Promise<T> {
    const held = await connect();
    try {
      return await work(held);
    } catch (error) {
      await dropIfLost(held);
      throw error;
    }
  }

  function connect() {
    if (current) return current;
    const connecting: Promise<Held> = (async () => {
      const client = await pool.connect();
      const held: Held = { client, session: drizzleOver(client), released: false };
      client.on("error", (error) => {
        if (held.released) return;
        logger.warn({ err: error }, "the delivery lease session was lost; reconnecting");
        if (current === connecting) current = undefined;
        releaseOnce(held, error);
      });
      // A new session after a lost one: take the locks of the sends still in flight here again.
      for (const id of heldIds()) {
        await client.query("SELECT pg_advisory_lock_shared($1, $2)", [LEASE_LOCK_SPACE, id]);
      }
      return held;
    })().catch((error: unknown) => {
      if (current === connecting) current = undefined;
      throw error;
    });
    current = connecting;
    return connecting;
  }

  /**
   * The deliveries whose locks are to go, let go together by the next statement on the session: one round trip
   * for all the sends that ended meanwhile, not one each, on the session that claims too.
   */
  const toRelease = new Set<number>();
  let releasing: Promise<void> | undefined;

  function releaseBatch(): Promise<void> {
    releasing ??= serialised(async () => {
      releasing = undefined;
      const ids = [...toRelease];
      toRelease.clear();
      // No session: the locks went with the last one.
      if (!current || ids.length === 0) return;
      await onSession((held) =>
        held.client.query("SELECT pg_advisory_unlock_shared($1, id::int) FROM unnest($2::bigint[]) AS id", [
          LEASE_LOCK_SPACE,
          ids,
        ]),
      );
    });
    return releasing;
  }

  /** One statement at a time on the session, in order. */
  function serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    run: (work) => serialised(() => onSession((held) => work(held.session))),
    release: (deliveryId) => {
      toRelease.add(deliveryId);
      return releaseBatch();
    },
    close: () =>
      serialised(async () => {
        const held = current;
        current = undefined;
        const session = await held?.catch(() => undefined);
        if (session) releaseOnce(session);
      }),
  };
}
