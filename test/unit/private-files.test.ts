// src/tools/private-files.ts: temp names beside a destination are unpredictable, and a new private file
// is created exclusively, so a file or symlink planted at its name is refused, never written through.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { AppError } from '../../src/kernel/errors.ts';
import { openPrivateFileExclusive, tempPathBeside } from '../../src/tools/private-files.ts';
import { cryptoRandom } from '../../src/kernel/random.ts';

describe('private files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-private-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a new file is 0600 whatever the umask leaves', () => {
    const path = join(dir, 'new');
    closeSync(openPrivateFileExclusive(path));
    assert.equal((statSync(path).mode & 0o777).toString(8), '600');
  });

  test('temp names are random and a file or symlink already at one is refused, never written through', () => {
    const target = join(dir, 'export.csv');
    const names = new Set(Array.from({ length: 50 }, () => tempPathBeside(target, cryptoRandom)));
    assert.equal(names.size, 50);
    for (const name of names) assert.match(name, new RegExp(`^${dir}/\\.export\\.csv\\.[0-9a-f]{32}\\.tmp$`));
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched');
    const planted = join(dir, '.export.csv.planted.tmp');
    symlinkSync(victim, planted);
    assert.throws(
      () => openPrivateFileExclusive(planted),
      (error: unknown) => error instanceof AppError && error.status === 422 && error.code === 'cannot_write_file',
    );
    assert.equal(readFileSync(victim, 'utf8'), 'untouched');
  });
});
