// The executable's copy of better-sqlite3 (src/binary/native-cache.ts writes it to disk), or null
// when this process is not the executable: the bundle and the sources load the installed package.
import { createRequire } from 'node:module';
import { getRawAsset, isSea } from 'node:sea';
import { prepareNativeFiles, processDeps, type NativeFiles, type NativeManifest } from './native-cache.ts';

// Written by the executable's build (scripts/build-binary.mjs): the files it carries and their SHA-256.
declare const __CES_NATIVE__: NativeManifest | undefined;

let prepared: NativeFiles | undefined;

export function binaryNativeFiles(): NativeFiles | null {
  if (!isSea() || typeof __CES_NATIVE__ === 'undefined') return null;
  prepared ??= prepareNativeFiles(
    __CES_NATIVE__,
    processDeps(
      (name) => new Uint8Array(getRawAsset(name) as ArrayBuffer),
      // The executable's own require knows only Node's built-in modules; one made for a file path
      // loads files, and the addon through it is loaded once for the whole process.
      (path) => createRequire(process.execPath)(path),
    ),
  );
  return prepared;
}

/** better-sqlite3 as the executable's worker threads and main thread load it. */
export function requireBinarySqlite(): unknown {
  const files = binaryNativeFiles();
  if (!files) throw new Error('not running as the executable');
  return createRequire(process.execPath)(files.module);
}
