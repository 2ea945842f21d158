// Every file ces writes holds personal data or can (the database and its -wal/-shm, backups,
// exports, their temp files), so each is created readable by its owner only (0600) and each folder
// ces creates is 0700 (docs/deploy.md#1-the-service-user-and-its-files). The modes are given at
// creation, never through process.umask, which would change every file the server's process
// creates. A temp file beside its destination gets a random name and is created with O_EXCL: nobody
// can predict it, and a file or symlink already at that name is refused instead of written through.
import { closeSync, linkSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AppError } from '../kernel/errors.ts';
import type { Random } from '../kernel/random.ts';

export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** Creates the folder and any missing parents as 0700; folders that exist keep their mode. */
export function makePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** A fresh name beside `target` (same folder, so a rename into place is atomic), 128 random bits. */
export function tempPathBeside(target: string, random: Random): string {
  return join(dirname(target), `.${basename(target)}.${random.bytes(16).toString('hex')}.tmp`);
}

const WRITE_FAILURE_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its folder path is a file',
  ENOSPC: 'no space left on the device',
  EEXIST: 'a file is already there',
};

/** A failure to create `path` that is the operator's folder, not a bug of ours: a 422 that says why. */
function cannotCreate(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? WRITE_FAILURE_REASONS[code] : undefined;
  return reason ? new AppError(422, 'cannot_write_file', `cannot create ${path}: ${reason}`) : error;
}

/** Opens a new file at `path` for writing, 0600, failing if anything is there (O_EXCL: flag 'wx'). */
export function openPrivateFileExclusive(path: string): number {
  try {
    return openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    throw cannotCreate(path, error);
  }
}

/**
 * Puts a complete temp file (tempPathBeside) at `target` unless anything is there: a hard link,
 * which, unlike a rename, never replaces a file, then the temp name goes. The file appears whole or
 * not at all, and an existing one is never overwritten.
 */
function publishFileExclusive(temp: string, target: string): void {
  try {
    linkSync(temp, target);
  } catch (error) {
    throw cannotCreate(target, error);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** An empty new 0600 file (O_EXCL): SQLite then writes a backup into it, and keeps its mode. */
export function createPrivateFileExclusive(path: string): void {
  closeSync(openPrivateFileExclusive(path));
}

/**
 * Writes `chunks` into a new file at `target` (`--out FILE` of `ces draw numbers` and `ces
 * participant export`): under a temp name beside it (0600, O_EXCL), then linked into place whole
 * (publishFileExclusive), so the file appears complete or not at all and an existing file is
 * refused (422 cannot_write_file), never overwritten. Returns the bytes written.
 */
export function writePrivateFileExclusive(target: string, chunks: Iterable<Buffer>, random: Random): number {
  const temp = tempPathBeside(target, random);
  const fd = openPrivateFileExclusive(temp);
  let bytes = 0;
  try {
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
      bytes += chunk.length;
    }
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  publishFileExclusive(temp, target);
  return bytes;
}
