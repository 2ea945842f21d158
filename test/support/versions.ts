// What `ces version`, GET /healthz and GET /metrics must report in this test run, found without
// the code under test (src/metrics/versions.ts): the SQLite library is asked of better-sqlite3
// directly.
import Database from 'better-sqlite3';
import { VERSION } from '../../src/kernel/version.ts';

export function expectedVersions() {
  const db = new Database(':memory:');
  try {
    const sqlite = db.prepare('select sqlite_version()').pluck().get() as string;
    // The suite runs the sources through tsx, never the single executable.
    return { ces: VERSION, node: process.versions.node, sqlite, platform: process.platform, arch: process.arch, binary: false };
  } finally {
    db.close();
  }
}
