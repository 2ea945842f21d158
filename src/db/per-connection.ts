// State kept per database connection, outside the context (src/kernel/context.ts): what a
// connection has compiled or memoized, which the code around it reads without passing it along.
// Every such piece is a named slot made here, and ConnectionSlotName below is the whole list, so a
// reader finds all of it in one place (docs/architecture.md#state-outside-the-context).
//
// The invariant: a slot's state belongs to exactly one connection object and lives exactly as long
// as it. Each slot is a WeakMap keyed by the connection, so nothing is shared between two
// connections (a second connection to the same file, a worker's, a test's, starts empty) and
// nothing keeps a connection alive. Closing a connection does not clear its state: nothing reads a
// closed connection's slots (its statements would throw), and they go when the object is
// collected. forgetConnection drops them at once.
//
// A lookup is one WeakMap get and allocates nothing; `init` runs once per connection and slot.
import type Database from 'better-sqlite3';

type Connection = Database.Database;

/** Every slot of per-connection state, with the module that owns it. */
export type ConnectionSlotName =
  /** src/db/statements.ts: each SQL text compiled once per connection. */
  | 'prepared statements'
  /** src/db/row-cache.ts: API keys, campaigns and webhook configurations, checked against data_version. */
  | 'memoized rows'
  /** src/pipeline/jobs.ts: a function wrapped in a savepoint, made once per connection and function. */
  | 'savepoint functions'
  /** src/dashboard/hourly.ts: entries per hour and status, recounted after a minute. */
  | 'hourly counts'
  /** src/dashboard/hourly.ts: whole-history counts, recounted after a minute. */
  | 'slow figures';

interface ConnectionSlot<T> {
  /** This connection's state, made on first use. */
  (db: Connection): T;
  /** This connection's state if it has been made, without making it. */
  peek(db: Connection): T | undefined;
}

const slots = new Map<ConnectionSlotName, WeakMap<Connection, unknown>>();

/** The slot `name`, whose state for a connection is `init()` the first time it is asked for. */
export function perConnection<T>(name: ConnectionSlotName, init: () => T): ConnectionSlot<T> {
  if (slots.has(name)) throw new Error(`The per-connection slot "${name}" has an owner already.`);
  const states = new WeakMap<Connection, T>();
  slots.set(name, states);
  const slot = (db: Connection): T => {
    let state = states.get(db);
    if (state === undefined) {
      state = init();
      states.set(db, state);
    }
    return state;
  };
  return Object.assign(slot, { peek: (db: Connection): T | undefined => states.get(db) });
}

/** Drops every slot's state of `db` now rather than when the connection object is collected. */
export function forgetConnection(db: Connection): void {
  for (const states of slots.values()) states.delete(db);
}
