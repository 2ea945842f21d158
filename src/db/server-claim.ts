// One `ces serve` per database. Each server leases pending work and webhook deliveries, and at
// start releases the leases it finds, taking them for a crashed predecessor's: a second server on
// the same file would take the first one's in-flight deliveries and send them again. So a server
// records itself in server_process when it starts and removes itself when it stops; the next one
// refuses to start while the recorded process is alive and has the file open.
import type { Db } from './open.ts';
import { processUsesFile } from './file-users.ts';
import { prepare } from './statements.ts';
import { AppError, fieldName } from '../kernel/errors.ts';

export interface ServerProcess {
  pid: number;
  host: string;
  started_at: string;
}

interface ClaimInput extends ServerProcess {
  dbPath: string;
}

/**
 * Records this process as the database's server. Refuses (409 database_in_use) when the recorded
 * server runs on this host, is not this process and still has the file open. A record from another
 * host cannot be checked from here (its pids are not ours to see): it is returned, for the caller
 * to warn about, and replaced. A record left by a server that died is simply replaced.
 */
export function claimDatabase(db: Db, input: ClaimInput): { previous: ServerProcess | null } {
  return db
    .transaction(() => {
      const previous = prepare<[], ServerProcess>(db, 'SELECT pid, host, started_at FROM server_process WHERE id = 1').get() ?? null;
      if (previous && previous.host === input.host && previous.pid !== input.pid && processUsesFile(previous.pid, input.dbPath)) {
        throw new AppError(
          409,
          'database_in_use',
          `A ces server (process ${previous.pid}, started ${previous.started_at}) is already serving ${input.dbPath}; ` +
            `a second server would send its webhooks again. Stop it first, or give this one another ${fieldName('db')}.`,
        );
      }
      prepare(
        db,
        `INSERT INTO server_process (id, pid, host, started_at) VALUES (1, @pid, @host, @started_at)
      ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at`,
      ).run({ pid: input.pid, host: input.host, started_at: input.started_at });
      return { previous: previous && previous.host !== input.host ? previous : null };
    })
    .immediate();
}

/** Removes this process's record when it stops (a record of another server is left alone). */
export function releaseDatabase(db: Db, server: Pick<ServerProcess, 'pid' | 'host'>): void {
  prepare(db, 'DELETE FROM server_process WHERE id = 1 AND pid = ? AND host = ?').run(server.pid, server.host);
}
