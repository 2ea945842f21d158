// Memo of the few rows every request reads and almost nothing writes: API keys, campaigns, webhook
// configurations. Intake read these three, a statement each, on every request; the memo turns
// them into one `PRAGMA data_version` per event-loop turn (docs/architecture.md#the-request-path).
//
// Staleness is ruled out two ways. Another connection's commit (the `ces` CLI revoking a key or
// pausing a webhook) changes data_version, which is compared at most once per turn and again at the
// start of every write transaction that asks (`revalidateRows`), so a batch never writes on the
// strength of a row another process has changed. This connection's own writes do not change
// data_version, so the repos that write these tables call `invalidateRows` themselves.
//
// "Once per turn" alone left a window: a read early in a turn (the tick's timer) checks, another
// process commits (`ces key rotate --grace 0` returns), and a request it then sends is handled in
// the poll phase of that same turn, on the row from before the commit. So the first HTTP request
// of each turn has the memo checked again (`revalidateRowsForRequest`): that check comes after the
// request arrived, hence after any commit that came before it was sent, and serves the requests
// that arrived with it. At most one more PRAGMA per turn.
import type { Db } from './open.ts';
import { perConnection } from './per-connection.ts';
import { prepare } from './statements.ts';

/** Past this many rows in one table's memo it is emptied: the memo is for hot rows, not a copy. */
const MAX_ROWS = 10_000;

interface State {
  version: number | null;
  checked: boolean;
  /** An HTTP request of this turn has had the memo checked again. */
  requestSeen: boolean;
  tables: Map<string, Map<string, unknown>>;
}

/** The memo of each connection (src/db/per-connection.ts): another connection has its own. */
const state = perConnection('memoized rows', (): State => ({ version: null, checked: false, requestSeen: false, tables: new Map() }));

function ensureFresh(db: Db, s: State): void {
  if (s.checked) return;
  const version = prepare<[], number>(db, 'PRAGMA data_version').pluck().get() as number;
  if (version !== s.version) {
    s.tables.clear();
    s.version = version;
  }
  s.checked = true;
  // Checked again in the next turn: a commit by another process can only be noticed between turns.
  setImmediate(() => {
    s.checked = false;
  }).unref();
}

/** The row `load` returns for `key`, from the memo when nothing can have changed it. Misses are not kept. */
export function cachedRow<V>(db: Db, table: string, key: string, load: () => V | undefined): V | undefined {
  const s = state(db);
  ensureFresh(db, s);
  let rows = s.tables.get(table);
  if (rows?.has(key)) return rows.get(key) as V;
  const value = load();
  if (value === undefined) return undefined;
  if (!rows) {
    rows = new Map();
    s.tables.set(table, rows);
  }
  if (rows.size >= MAX_ROWS) rows.clear();
  rows.set(key, value);
  return value;
}

/** Forget every memoized row of this connection (after it wrote one of the memoized tables). */
export function invalidateRows(db: Db): void {
  const s = state.peek(db);
  if (s) s.tables.clear();
}

/** Compare data_version again on the next read (at the start of a write transaction). */
export function revalidateRows(db: Db): void {
  const s = state.peek(db);
  if (s) s.checked = false;
}

/**
 * An HTTP request arrived: the first of this event-loop turn has data_version compared again before
 * the next read, whatever an earlier read of the turn (a timer's) found.
 */
export function revalidateRowsForRequest(db: Db): void {
  const s = state(db);
  if (s.requestSeen) return;
  s.requestSeen = true;
  s.checked = false;
  setImmediate(() => {
    s.requestSeen = false;
  }).unref();
}
