// The long reads this process holds on a database file: a connection of its own that keeps a read
// snapshot open for as long as its work takes (the dashboard's export download, a draw freeze's
// scan thread). While one is open SQLite can neither copy the later pages back over the older
// ones nor empty the WAL, so an anonymisation's erasure waits for it (src/participants/erasure.ts)
// and names it; other processes are named from /proc (file-users.ts).
import { realPath } from './file-users.ts';

/** What each file's long reads are, by real path: a label per read, in the order they began. */
const reads = new Map<string, Map<number, string>>();
let nextId = 0;

/** Records a long read on `path` (e.g. "entries export of campaign …"); call the result when it ends. */
export function holdLongRead(path: string, label: string): () => void {
  const key = realPath(path);
  const id = nextId++;
  const held = reads.get(key) ?? new Map<number, string>();
  held.set(id, label);
  reads.set(key, held);
  return () => {
    held.delete(id);
    if (held.size === 0 && reads.get(key) === held) reads.delete(key);
  };
}

/** The long reads this process holds on `path` now, as recorded. */
export function longReadsOn(path: string): string[] {
  return [...(reads.get(realPath(path))?.values() ?? [])];
}
