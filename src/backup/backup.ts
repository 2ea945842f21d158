// ces backup / ces restore. A backup is SQLite's online backup API (better-sqlite3 db.backup) run
// as ONE step: the copy happens inside one read transaction of the source, so it is a consistent
// snapshot while the server goes on writing (WAL readers do not block the writer). A multi-step
// backup would restart each time another connection writes, and might never finish under load.
// Both write to a temp file beside the destination, check it with PRAGMA integrity_check and only
// then rename it into place, so a crash never leaves a half-written file under the final name.
// That temp file is created first, 0600, exclusively, under a random name (src/tools/private-files.ts):
// SQLite writes the copy into it and keeps its mode, so backups and restored databases are 0600.
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { monotonicMs, nowIso, type Clock } from '../kernel/clock.ts';
import type { CheckpointMode } from '../kernel/config.ts';
import type { Ctx } from '../kernel/context.ts';
import { readCesSchemaVersion } from './backup.repo.ts';
import { sealAndCheckCopy, type CopyCheck } from './copy-check.ts';
import { findFileHolders, formatHolders, realPath } from '../db/file-users.ts';
import { recordFileChecked } from '../db/integrity.ts';
import { SCHEMA_VERSION } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { AppError } from '../kernel/errors.ts';
import { createPrivateFileExclusive, makePrivateDir, tempPathBeside } from '../tools/private-files.ts';
import type { Random } from '../kernel/random.ts';

/** Pages per backup step: all of them at once (see the header). */
const WHOLE_DATABASE = 0x7fffffff;

interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
  integrity: 'ok';
  /** The copy's schema version: the source's, as it was (a backup never upgrades). */
  schema_version: number;
  at: string;
  elapsed_ms: number;
  audit_id: number;
}

/**
 * Makes a fresh copy self-contained and checks it (src/backup/copy-check.ts): the copy inherits WAL
 * mode from its source; switching it to a rollback journal folds everything into the one file (no
 * -wal/-shm beside it), which is what a backup file that gets moved around should be. The server's
 * open puts the restored database back into WAL mode. `progress` hears each step, and every minute
 * of a long check.
 */
async function sealCopy(path: string, foreignKeys: boolean, progress: Progress | undefined, copyStarted: number): Promise<CopyCheck> {
  const copied = monotonicMs();
  progress?.(
    `copied in ${elapsed(copied - copyStarted)}; checking the copy: integrity_check reads every page and matches each index against its table` +
      (foreignKeys ? ', then foreign_key_check' : ''),
  );
  const check = await sealAndCheckCopy(path, {
    foreignKeys,
    ...(progress ? { stillChecking: (ms: number) => progress(`still checking the copy (${elapsed(ms)})`) } : {}),
  });
  if (check.problems.length === 0) progress?.(`checked in ${elapsed(monotonicMs() - copied)}`);
  return check;
}

/** Where a long backup or restore says how far it is: the CLI's stderr. */
export type Progress = (line: string) => void;

/** A duration for the operator: seconds under two minutes, else minutes. */
function elapsed(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

/** A file's size for the operator. */
function size(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  return bytes >= 1e6 ? `${Math.round(bytes / 1e6)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/**
 * Copies the open database to `dest` (refusing to overwrite unless `force`); logged in audit_log.
 * The database is copied at the schema version it has: the CLI opens it without migrating, so a
 * backup taken before an upgrade, as README advises, is the database as the older ces left it.
 */
export async function backupDatabase(
  ctx: Ctx,
  dest: string,
  options: { force?: boolean; pid: number; actor: Actor; progress?: Progress },
): Promise<BackupResult> {
  const version = readCesSchemaVersion(ctx.db);
  if (version < 1) throw new AppError(422, 'not_a_ces_database', `${ctx.config.dbPath} is not a ces database.`);
  if (version > SCHEMA_VERSION)
    throw new AppError(
      422,
      'not_a_ces_database',
      `${ctx.config.dbPath} has schema version ${version}, newer than this ces (${SCHEMA_VERSION}); back it up with the ces that wrote it.`,
    );
  const target = realPath(dest);
  if (target === realPath(ctx.config.dbPath)) throw new AppError(422, 'invalid_option', 'The backup destination is the database itself.');
  if (existsSync(target) && !options.force)
    throw new AppError(409, 'destination_exists', `${dest} exists; pass \`force\` to overwrite it.`);
  if (!existsSync(dirname(target))) throw new AppError(422, 'invalid_option', `The folder of ${dest} does not exist.`);
  const holders = findFileHolders(target, options.pid);
  if (holders.length > 0)
    throw new AppError(409, 'database_in_use', `${dest} is open in ${formatHolders(holders)}; choose another destination.`);
  const temp = tempPathBeside(target, ctx.random);
  const started = ctx.clock.now();
  createPrivateFileExclusive(temp);
  try {
    const copyStarted = monotonicMs();
    options.progress?.(`copying ${ctx.config.dbPath} (${size(statSync(ctx.config.dbPath).size)}) to a temporary file beside ${target}`);
    const { totalPages } = await ctx.db.backup(temp, { progress: () => WHOLE_DATABASE });
    const { problems } = await sealCopy(temp, false, options.progress, copyStarted);
    if (problems.length > 0) throw new AppError(500, 'backup_corrupt', `The backup failed its integrity check: ${problems.join('; ')}`);
    removeJournals(target);
    renameSync(temp, target);
    const at = nowIso(ctx.clock);
    const bytes = statSync(target).size;
    // The copy is taken outside any transaction (one read of the source); its record is its own write.
    const auditId = ctx.db
      .transaction(() =>
        recordAudit(ctx, {
          actor: options.actor,
          action: 'backup.created',
          campaignId: null,
          details: { file: target, bytes, pages: totalPages },
        }),
      )
      .immediate();
    return {
      file: target,
      bytes,
      pages: totalPages,
      integrity: 'ok',
      schema_version: version,
      at,
      elapsed_ms: ctx.clock.now() - started,
      audit_id: auditId,
    };
  } finally {
    rmSync(temp, { force: true });
    rmSync(`${temp}-wal`, { force: true });
    rmSync(`${temp}-shm`, { force: true });
  }
}

interface RestoreResult {
  source: string;
  database: string;
  /** Where the database that was replaced now lives (with its -wal), or null if there was none. */
  replaced: string | null;
  integrity: 'ok';
  schema_version: number;
  at: string;
  audit_id: number;
}

/**
 * Replaces the database at `dbPath` with the backup `source`. Refuses a source that fails its
 * integrity check or is not a ces database this version can open, a target that exists unless
 * `force`, and a target that another process (a running server) has open. The replaced database
 * and its -wal/-shm are moved aside, never deleted, so a mistaken restore can be undone.
 */
export async function restoreDatabase(input: {
  source: string;
  dbPath: string;
  force?: boolean;
  pid: number;
  clock: Clock;
  actor: Actor;
  random: Random;
  /** CES_CHECKPOINTS, for the open that records the restore (src/db/open.ts). */
  checkpoints?: CheckpointMode;
  progress?: Progress;
}): Promise<RestoreResult> {
  const source = realPath(input.source);
  const target = realPath(input.dbPath);
  if (source === target) throw new AppError(422, 'invalid_option', 'The backup to restore is the database itself.');
  if (!existsSync(source)) throw new AppError(404, 'not_found', `${input.source} does not exist.`);
  const corrupt = (problems: string[]) =>
    new AppError(422, 'backup_corrupt', `${input.source} failed PRAGMA integrity_check: ${problems.join('; ')}`);
  let version: number;
  try {
    version = readSchemaVersion(source);
  } catch (error) {
    throw corrupt([(error as Error).message]);
  }
  if (version < 1 || version > SCHEMA_VERSION)
    throw new AppError(
      422,
      'not_a_ces_database',
      `${input.source} is not a ces database this version can open (schema version ${version}, supported 1..${SCHEMA_VERSION}).`,
    );
  if (existsSync(target) && !input.force)
    throw new AppError(
      409,
      'destination_exists',
      `${input.dbPath} exists; pass \`force\` to replace it (it is kept beside as a .pre-restore copy).`,
    );
  const holders = findFileHolders(target, input.pid);
  if (holders.length > 0) {
    // Beside Litestream the order matters: a file replaced under it, or with its own state of the
    // old file left beside, is not what its replica continues (docs/operations.md).
    const beside = holders.some((h) => h.litestream)
      ? ' Beside Litestream: stop the server and Litestream, restore (`litestream restore`, or this one), check the restored file, then start them again.'
      : '';
    throw new AppError(
      409,
      'database_in_use',
      `${input.dbPath} is open in ${formatHolders(holders)}; stop ${holders.length === 1 ? 'it' : 'them'} before restoring.${beside}`,
      undefined,
      undefined,
      beside === '' ? undefined : { action: 'check', dbPath: input.dbPath },
    );
  }

  makePrivateDir(dirname(target));
  // Copy through SQLite rather than the file system: a source left in WAL mode may hold committed
  // pages in its -wal that a plain file copy would miss.
  const temp = tempPathBeside(target, input.random);
  let replaced: string | null = null;
  createPrivateFileExclusive(temp);
  const sourceDb = new Database(source, { readonly: true, fileMustExist: true });
  let referencesSound = false;
  try {
    const copyStarted = monotonicMs();
    input.progress?.(`copying ${input.source} (${size(statSync(source).size)}) to a temporary file beside ${input.dbPath}`);
    try {
      await sourceDb.backup(temp, { progress: () => WHOLE_DATABASE });
    } catch (error) {
      throw corrupt([(error as Error).message]);
    }
    sourceDb.close();
    // The source is checked through its copy: the backup API copies its pages as they are, so the
    // copy passes integrity_check exactly when the source does. Checking the source as well would
    // read the whole file a second time for the same answer.
    const check = await sealCopy(temp, true, input.progress, copyStarted);
    if (check.problems.length > 0) throw corrupt(check.problems);
    referencesSound = check.foreignKeyViolations === 0;
    if (existsSync(target)) {
      replaced = `${target}.pre-restore-${nowIso(input.clock).replace(/[:.]/g, '-')}`;
      // The -wal goes with its database: left at the target path it would be replayed into the
      // restored file on the next open and corrupt it.
      renameSync(target, replaced);
      for (const suffix of ['-wal', '-shm']) if (existsSync(target + suffix)) renameSync(target + suffix, replaced + suffix);
    }
    removeJournals(target);
    renameSync(temp, target);
  } finally {
    if (sourceDb.open) sourceDb.close();
    rmSync(temp, { force: true });
  }
  // Record the restore in the restored database itself, through the normal open (pragmas, migrations):
  // the record of a restore is where the restored history goes on.
  const db = openDatabase(target, { checkpoints: input.checkpoints });
  try {
    const audited = { db, clock: input.clock };
    // The copy passed integrity_check above; with its references sound too, it has had the server's
    // full check, and `ces serve` need not read the whole file again before serving it.
    const { at, auditId } = db
      .transaction(() => {
        const at = nowIso(input.clock);
        if (referencesSound) recordFileChecked(db, target, at);
        const auditId = recordAudit(audited, {
          actor: input.actor,
          action: 'database.restored',
          campaignId: null,
          details: { source, database: target, replaced },
        });
        return { at, auditId };
      })
      .immediate();
    return { source, database: target, replaced, integrity: 'ok', schema_version: readCesSchemaVersion(db), at, audit_id: auditId };
  } finally {
    db.close();
  }
}

/** Stale journals beside a path would be replayed into the new file put there: remove them first. */
function removeJournals(path: string): void {
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

function readSchemaVersion(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return readCesSchemaVersion(db);
  } finally {
    db.close();
  }
}
