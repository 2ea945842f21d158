// What this ces runs on: its release, Node, the SQLite library compiled into better-sqlite3, the
// operating system and CPU, and whether it is the single executable. Gathered in one place so that
// `ces version`, GET /healthz and GET /metrics never disagree about the facts a bug report needs.
import { openDatabase } from '../db/open.ts';
import { runningAs } from '../tools/runtime.ts';
import { VERSION } from '../kernel/version.ts';

export interface RuntimeVersions {
  ces: string;
  node: string;
  sqlite: string;
  platform: string;
  arch: string;
  /** True only for the single executable: the bundle and the sources run on an installed Node. */
  binary: boolean;
}

export function runtimeVersions(): RuntimeVersions {
  return {
    ces: VERSION,
    node: process.versions.node,
    sqlite: sqliteVersion(),
    platform: process.platform,
    arch: process.arch,
    binary: runningAs() === 'binary',
  };
}

/**
 * The SQLite library as better-sqlite3 runs it, not the one a system package may have installed.
 * Asked of a database in memory, unmigrated, so that asking never creates or touches a file.
 */
function sqliteVersion(): string {
  const db = openDatabase(':memory:', { migrate: false });
  try {
    return db.prepare('select sqlite_version()').pluck().get() as string;
  } finally {
    db.close();
  }
}
