// Reading the SQLite version compiled into a binary (test/support/litestream.ts), on synthetic
// binaries: Litestream embeds its own SQLite, and SQLite 3.7.0 to 3.51.2 has the WAL-reset bug
// (fixed in 3.51.3), so docs/deploy.md asks for a Litestream whose SQLite is 3.51.3 or newer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readEmbeddedSqlite } from '../support/litestream.ts';

const dir = mkdtempSync(join(tmpdir(), 'ces-sqlite-version-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// A made-up source id of the right shape (check-in date and 64 hex digits).
const SOURCE_ID = `2026-03-13 00:00:00 ${'ab'.repeat(32)}`;

function fakeBinary(name: string, ...chunks: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(['\x7fELF\x02\x01', ...chunks].join(''), 'latin1'));
  return path;
}

test('the version after a non-text byte and the source id are read; Go symbols such as func3.1.1 are not versions', () => {
  const path = fakeBinary('a', 'tls.(*SessionState).Bytes.func3.1.1\0', '\x01\x013.51.3\0\0\0', `\0${SOURCE_ID}\0`);
  assert.deepEqual(readEmbeddedSqlite(path), { version: '3.51.3', sourceId: SOURCE_ID, hasWalResetFix: true });
});

test('the fix is there from 3.51.3 on: 3.51.2 and 3.42.0 are without it, 3.53.0 with it', () => {
  const cases: Array<[string, boolean]> = [
    ['3.42.0', false],
    ['3.51.2', false],
    ['3.51.3', true],
    ['3.53.0', true],
  ];
  for (const [version, fixed] of cases) {
    const path = fakeBinary(`v${version}`, `\x01${version}\0`, `\0${SOURCE_ID}\0`);
    assert.equal(readEmbeddedSqlite(path).hasWalResetFix, fixed, version);
  }
});

test('no version string, or two, is an error rather than a guess', () => {
  assert.throws(() => readEmbeddedSqlite(fakeBinary('none', `\0${SOURCE_ID}\0`)), /found 0/);
  assert.throws(() => readEmbeddedSqlite(fakeBinary('two', '\x013.42.0\0', '\x013.51.3\0', `\0${SOURCE_ID}\0`)), /found 2/);
  assert.throws(() => readEmbeddedSqlite(fakeBinary('no-id', '\x013.42.0\0')), /one SQLite source id/);
});
