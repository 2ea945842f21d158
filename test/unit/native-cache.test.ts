// The executable's folder for SQLite's addon (src/binary/native-cache.ts), with the process's answers
// (user, assets, loading, /proc) given by the test: where it goes, what it refuses, what it rewrites
// and what it prunes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { candidateBases, prepareNativeFiles, type NativeCacheDeps, type NativeManifest } from '../../src/binary/native-cache.ts';
import { AppError } from '../../src/kernel/errors.ts';

const ADDON = Buffer.from('pretend addon');
const MODULE = Buffer.from('module.exports = 1;');
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const MANIFEST: NativeManifest = {
  folder: 'ces-0.1.0-linux-x64-0123456789ab',
  addon: 'better_sqlite3.node',
  module: 'better-sqlite3.cjs',
  sha256: { 'better_sqlite3.node': sha(ADDON), 'better-sqlite3.cjs': sha(MODULE) },
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ces-native-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function deps(over: Partial<NativeCacheDeps> = {}): NativeCacheDeps & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    env: { CES_NATIVE_DIR: join(dir, 'native') },
    uid: process.getuid!(),
    asset: (name) => (name === MANIFEST.addon ? ADDON : MODULE),
    load: (path) => loaded.push(path),
    inUse: () => false,
    home: () => join(dir, 'home'),
    tmp: () => join(dir, 'tmp'),
    loaded,
    ...over,
  };
}

describe('candidate folders', () => {
  const base = { uid: 1000, home: () => '/home/ana', tmp: () => '/tmp' };
  test('CES_NATIVE_DIR alone when set', () => {
    assert.deepEqual(candidateBases({ ...base, env: { CES_NATIVE_DIR: '/srv/ces/native', XDG_CACHE_HOME: '/x' } }), ['/srv/ces/native']);
  });
  test('the cache, the home cache, the runtime folder, then the temporary folder', () => {
    assert.deepEqual(candidateBases({ ...base, env: { XDG_CACHE_HOME: '/c', XDG_RUNTIME_DIR: '/run/user/1000' } }), [
      '/c/ces',
      '/home/ana/.cache/ces',
      '/run/user/1000/ces',
      '/tmp/ces-1000',
    ]);
  });
  test('relative variables and a missing home are passed over', () => {
    const noHome = () => {
      throw new Error('ENOENT: no such user');
    };
    assert.deepEqual(candidateBases({ ...base, home: noHome, env: { XDG_CACHE_HOME: 'cache', XDG_RUNTIME_DIR: 'run' } }), [
      '/tmp/ces-1000',
    ]);
  });
});

describe('prepareNativeFiles', () => {
  test('writes both files, checked, in a private version folder, and loads the addon before the module', () => {
    const d = deps();
    const files = prepareNativeFiles(MANIFEST, d);
    const folder = join(dir, 'native', MANIFEST.folder);
    assert.deepEqual(files, { dir: folder, module: join(folder, MANIFEST.module) });
    assert.deepEqual(readFileSync(join(folder, MANIFEST.addon)), ADDON);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'native')).mode & 0o777, 0o700);
    assert.deepEqual(d.loaded, [join(folder, MANIFEST.addon), join(folder, MANIFEST.module)]);
  });

  test('leaves files whose SHA-256 is right, and rewrites a changed one', () => {
    prepareNativeFiles(MANIFEST, deps());
    const addon = join(dir, 'native', MANIFEST.folder, MANIFEST.addon);
    const inode = statSync(addon).ino;
    prepareNativeFiles(MANIFEST, deps());
    assert.equal(statSync(addon).ino, inode, 'not written again');
    chmodSync(addon, 0o700);
    writeFileSync(addon, 'tampered');
    prepareNativeFiles(MANIFEST, deps());
    assert.deepEqual(readFileSync(addon), ADDON);
  });

  test('refuses a damaged asset instead of writing it', () => {
    assert.throws(() => prepareNativeFiles(MANIFEST, deps({ asset: () => Buffer.from('other') })), /damaged/);
  });

  test('refuses a folder that belongs to another user, naming it and CES_NATIVE_DIR', () => {
    mkdirSync(join(dir, 'native'), { mode: 0o700 });
    assert.throws(
      () => prepareNativeFiles(MANIFEST, deps({ uid: process.getuid!() + 1 })),
      (e: AppError) =>
        e.code === 'native_module_unavailable' &&
        e.message.includes(join(dir, 'native')) &&
        /belongs to user/.test(e.message) &&
        e.message.includes('CES_NATIVE_DIR'),
    );
  });

  test('refuses a folder others may write into', () => {
    mkdirSync(join(dir, 'native'));
    chmodSync(join(dir, 'native'), 0o777);
    assert.throws(() => prepareNativeFiles(MANIFEST, deps()), /others may write into it \(mode 777\)/);
  });

  test('a noexec mount sends it to the next candidate; a failure everywhere names each folder', () => {
    const noexec = (path: string) => {
      if (path.startsWith(join(dir, 'home'))) throw new Error(`${path}: failed to map segment from shared object`);
    };
    const env = {};
    const files = prepareNativeFiles(MANIFEST, deps({ env, load: noexec }));
    assert.ok(files.dir.startsWith(join(dir, 'tmp', `ces-${process.getuid!()}`)), files.dir);
    const never = () => {
      throw new Error('failed to map segment from shared object');
    };
    assert.throws(
      () => prepareNativeFiles(MANIFEST, deps({ env, load: never })),
      (e: AppError) =>
        /\.cache\/ces \(mounted noexec\); .*ces-\d+ \(mounted noexec\)/.test(e.message) && e.message.includes('CES_NATIVE_DIR'),
    );
  });

  test('any other load failure (a system library too old) is said at once, with the folder', () => {
    const old = () => {
      throw new Error("version `GLIBC_2.34' not found");
    };
    assert.throws(() => prepareNativeFiles(MANIFEST, deps({ load: old })), /cannot load SQLite's native module from .*GLIBC_2\.34/);
  });

  test("prunes other versions' folders that no process maps, and only those", () => {
    const base = join(dir, 'native');
    for (const name of ['ces-0.0.9-linux-x64-aaaaaaaaaaaa', 'ces-0.0.8-linux-x64-bbbbbbbbbbbb', 'ces-0.0.7-linux-x64-cccccccccccc', 'mine'])
      mkdirSync(join(base, name), { recursive: true });
    chmodSync(base, 0o700);
    const inUse = (folder: string) => (folder.endsWith('aaaaaaaaaaaa') ? true : folder.endsWith('bbbbbbbbbbbb') ? null : false);
    prepareNativeFiles(MANIFEST, deps({ inUse }));
    assert.equal(existsSync(join(base, 'ces-0.0.9-linux-x64-aaaaaaaaaaaa')), true, 'mapped by a running process');
    assert.equal(existsSync(join(base, 'ces-0.0.8-linux-x64-bbbbbbbbbbbb')), true, '/proc could not tell');
    assert.equal(existsSync(join(base, 'ces-0.0.7-linux-x64-cccccccccccc')), false);
    assert.equal(existsSync(join(base, 'mine')), true, 'not a folder of ces');
    assert.equal(existsSync(join(base, MANIFEST.folder)), true);
  });
});
