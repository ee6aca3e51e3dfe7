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

type Held = { client: pg.PoolClient; session: Transaction; released: boolean };

/** What the holder's steps share: where sessions come from, the one it holds, and the locks waiting to go. */
type HolderState = {
  pool: pg.Pool;
  logger: Logger;
  /** The deliveries whose locks a new session takes again: the sends still in flight. */
  heldIds: () => Iterable<number>;
  current?: Promise<Held>;
  /** The last statement queued on the session (serialised). */
  queue: Promise<unknown>;
  /**
   * The deliveries whose locks are to go, let go together by the next statement on the session: one round trip
   * for all the sends that ended meanwhile, not one each, on the session that claims too.
   */
  toRelease: Set<number>;
  releasing?: Promise<void>;
};

export function createLeaseHolder(pool: pg.Pool, logger: Logger, heldIds: () => Iterable<number>): LeaseHolder {
  const holder: HolderState = { pool, logger, heldIds, queue: Promise.resolve(), toRelease: new Set() };
  return {
    run: (work) => serialised(holder, () => onSession(holder, (held) => work(held.session))),
    release: (deliveryId) => {
      holder.toRelease.add(deliveryId);
      return releaseBatch(holder);
    },
    close: () => serialised(holder, () => close(holder)),
  };
}

/** One statement at a time on the session, in order. */
function serialised<T>(holder: HolderState, work: () => Promise<T>): Promise<T> {
  const next = holder.queue.then(work, work);
  holder.queue = next.catch(() => undefined);
  return next;
}

async function onSession<T>(holder: HolderState, work: (held: Held) => Promise<T>): Promise<T> {
  const held = await connect(holder);
  try {
    return await work(held);
  } catch (error) {
    await dropIfLost(holder, held);
    throw error;
  }
}

/** The session held now, or a new one; one connecting at a time. */
function connect(holder: HolderState): Promise<Held> {
  if (holder.current) return holder.current;
  const forget = () => {
    if (holder.current === connecting) holder.current = undefined;
  };
  const connecting: Promise<Held> = openSession(holder, forget).catch((error: unknown) => {
    forget();
    throw error;
  });
  holder.current = connecting;
  return connecting;
}

/** Opens a session, to be forgotten when its connection is lost, and takes again the locks of the sends in flight. */
async function openSession(holder: HolderState, forget: () => void): Promise<Held> {
  const client = await holder.pool.connect();
  const held: Held = { client, session: drizzleOver(client), released: false };
  client.on("error", (error) => {
    if (held.released) return;
    holder.logger.warn({ err: error }, "the delivery lease session was lost; reconnecting");
    forget();
    releaseOnce(held, error);
  });
  // A new session after a lost one: take the locks of the sends still in flight here again.
  for (const id of holder.heldIds()) {
    await client.query("SELECT pg_advisory_lock_shared($1, $2)", [LEASE_LOCK_SPACE, id]);
  }
  return held;
}

function releaseOnce(held: Held, error?: Error) {
  if (held.released) return;
  held.released = true;
  held.client.release(error ?? true);
}

/** After a failed statement: a session that no longer answers is dropped, and the next use opens another. */
async function dropIfLost(holder: HolderState, held: Held) {
  const alive = await held.client.query("SELECT 1").then(
    () => true,
    () => false,
  );
  if (alive) return;
  if (holder.current && (await holder.current.catch(() => undefined)) === held) holder.current = undefined;
  releaseOnce(held, new Error("the delivery lease session was lost"));
}

/** Lets go of the locks waiting to go, with one statement queued after the ones before it. */
function releaseBatch(holder: HolderState): Promise<void> {
  holder.releasing ??= serialised(holder, async () => {
    holder.releasing = undefined;
    const ids = [...holder.toRelease];
    holder.toRelease.clear();
    // No session: the locks went with the last one.
    if (!holder.current || ids.length === 0) return;
    await onSession(holder, (held) =>
      held.client.query("SELECT pg_advisory_unlock_shared($1, id::int) FROM unnest($2::bigint[]) AS id", [
        LEASE_LOCK_SPACE,
        ids,
      ]),
    );
  });
  return holder.releasing;
}

async function close(holder: HolderState): Promise<void> {
  const held = holder.current;
  holder.current = undefined;
  const session = await held?.catch(() => undefined);
  if (session) releaseOnce(session);
}
