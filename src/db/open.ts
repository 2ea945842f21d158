// Opens the SQLite file for the server or the CLI: creates its folder, sets the pragmas (busy
// timeout first so that even the WAL switch waits for a concurrent opener), migrates: but never
// under another process that has the file open, which may be an older ces still running (Litestream,
// which only copies the WAL, is let be).
import Database from 'better-sqlite3';
import { accessSync, chmodSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import type { CheckpointMode } from '../kernel/config.ts';
import { AppError } from '../kernel/errors.ts';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../tools/private-files.ts';
import { findFileHolders, formatHolders } from './file-users.ts';
import { migrate, SCHEMA_VERSION } from './migrate.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** synchronous=FULL by default: a commit is on disk before we answer 202. */
  synchronous?: 'FULL' | 'NORMAL';
  readonly?: boolean;
  /**
   * Bring the schema up to this ces's version (default true). `ces backup` opens without: a backup
   * is a copy of the database as it is, taken before an upgrade as much as any other time.
   */
  migrate?: boolean;
  /** Refuse a path with no file instead of creating a database there. */
  mustExist?: boolean;
  /**
   * CES_CHECKPOINTS (config.checkpoints), default internal. External: wal_autocheckpoint=0, so that
   * no commit through this connection ever checkpoints; the outside replicator does.
   */
  checkpoints?: CheckpointMode;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (options.mustExist && path !== ':memory:' && !existsSync(path))
    throw new AppError(404, 'database_not_found', `There is no database at ${path}.`);
  let db: Db;
  try {
    if (path !== ':memory:' && !options.readonly) {
      makePrivateDir(dirname(path));
      createDatabaseFile(path);
    }
    db = new Database(path, { readonly: options.readonly ?? false });
  } catch (error) {
    // The executable's SQLite could not be made ready (src/binary/native-cache.ts): its own words
    // name the folder and the fix, whatever the path.
    if (error instanceof AppError) throw error;
    throw cannotOpen(path, error);
  }
  try {
    configure(db, path, options);
    if (path !== ':memory:' && !options.readonly) restrictDatabaseFiles(path);
  } catch (error) {
    db.close();
    // The first statement reads the file's header: a file that is not SQLite fails there.
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB') throw new AppError(422, 'not_a_ces_database', `${path} is not a database (not an SQLite file).`);
    // Opened, but its WAL or shared-memory file beside it cannot be (a file under /proc, say).
    if (code === 'SQLITE_CANTOPEN') throw cannotOpen(path, error);
    throw error;
  }
  return db;
}

/**
 * Creates a missing database file empty and 0600 before SQLite opens it: SQLite would create it
 * 0644 (less the umask), and it creates the -wal and -shm with the mode of the main file. If the
 * file cannot be created here, SQLite's own open fails next and says why (cannotOpen).
 */
function createDatabaseFile(path: string): void {
  if (existsSync(path)) return;
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
  } catch {
    // EEXIST: another process created it meanwhile; anything else: reported by the open below.
  }
}

/**
 * A database created by an older ces (or copied in by hand) may be 0644, and its -wal and -shm
 * with it: they are brought to 0600 on every writable open. A file owned by another user cannot be
 * changed by us (EPERM) and is left as it is: that open is theirs to secure.
 */
function restrictDatabaseFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const mode = statSync(file, { throwIfNoEntry: false })?.mode;
    if (mode === undefined || (mode & 0o777) === PRIVATE_FILE_MODE) continue;
    try {
      chmodSync(file, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EPERM') throw error;
    }
  }
}

const OPEN_FAILURE_REASONS: Record<string, string> = {
  EEXIST: 'a part of its folder path is a file',
  ENOTDIR: 'a part of its folder path is a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'the path is too long',
  ENOSPC: 'no space left on the device',
};

/** Why the path cannot be opened, in the operator's terms: a wrong --db is not a bug of ours. */
function cannotOpen(path: string, error: unknown): AppError {
  const code = (error as { code?: unknown }).code;
  let reason = typeof code === 'string' ? OPEN_FAILURE_REASONS[code] : undefined;
  if (!reason && code === 'SQLITE_CANTOPEN') reason = whySqliteCannotOpen(path);
  return new AppError(500, 'cannot_open_database', `cannot open the database at ${path}: ${reason ?? (error as Error).message}`);
}

/** SQLite says only "unable to open database file"; the file system tells the likely reasons apart. */
function whySqliteCannotOpen(path: string): string {
  // Linux limits: 255 bytes a name, 4095 a path.
  if (Buffer.byteLength(path) > 4095 || path.split(sep).some((part) => Buffer.byteLength(part) > 255)) return 'the path is too long';
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return 'it is a folder';
    accessSync(existsSync(path) ? path : dirname(path), constants.R_OK | constants.W_OK);
  } catch {
    return 'permission denied';
  }
  return 'SQLite cannot open it';
}

function configure(db: Db, path: string, options: OpenOptions): void {
  db.pragma('busy_timeout = 10000');
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  // Row content that is deleted or replaced is zeroed inside its page, so personal data that an
  // update or an anonymization replaced does not linger in the file's free space (LGPD). FAST
  // skips zeroing whole freed pages (no extra writes); the anonymization turns that on too.
  if (!options.readonly) db.pragma('secure_delete = FAST');
  // Statement journals and savepoint sub-journals in memory instead of temp files: intake's group
  // commit falls back to one savepoint per write when a write fails (src/intake/group-commit.ts).
  db.pragma('temp_store = MEMORY');
  // A commit checkpoints once the WAL holds 4000 pages (16 MiB) instead of 1000: index pages that
  // intake rewrites in every batch are copied back a quarter as often. In `ces serve` a thread of
  // its own copies pages back all along (src/db/checkpointer.ts), so the commit that reaches this
  // limit has little left to copy before it starts the WAL over.
  // With CES_CHECKPOINTS=external never: a second checkpointer beside Litestream can start the WAL
  // over while Litestream has let go of its read lock to checkpoint, and the replica then silently
  // misses frames (issue 33; BENCHMARKS.md, section Disaster recovery under Litestream). Litestream
  // checkpoints; a commit never does.
  if (!options.readonly) db.pragma(`wal_autocheckpoint = ${options.checkpoints === 'external' ? 0 : 4000}`);
  if (options.readonly || options.migrate === false) return;
  refuseUpgradeUnderAnotherProcess(db, path);
  migrate(db);
}

/**
 * A database of an older schema is upgraded by the first newer ces to open it. A process that
 * still has it open may be an older ces (its server, most likely) whose statements name the old
 * tables: upgraded underneath, every intake it then ran would fail. So the upgrade waits until
 * that process is stopped, and the refusal names it from /proc. Litestream is the exception: it
 * copies WAL frames whatever they hold, so an upgrade goes ahead beside it and is replicated like
 * any write (`litestream replicate -exec "ces serve"` starts the new ces with Litestream holding
 * the file). A new file (version 0) is created by whoever comes first, as before.
 */
function refuseUpgradeUnderAnotherProcess(db: Db, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === 0 || version >= SCHEMA_VERSION || path === ':memory:') return;
  const holders = findFileHolders(path, process.pid).filter((h) => !h.litestream);
  if (holders.length === 0) return;
  const them = holders.length === 1 ? 'it' : 'them';
  throw new AppError(
    409,
    'database_in_use',
    `The database has schema version ${version} and this ces needs ${SCHEMA_VERSION}; ${formatHolders(holders)} ` +
      `${holders.length === 1 ? 'has' : 'have'} it open, and upgrading it underneath would break a process that reads the old schema ` +
      `(an older ces). Stop ${them}, then run this command again.`,
  );
}
