// The file a worker thread requires to get the same better-sqlite3 as this process: the installed
// package, or inside the executable the copy it wrote to disk (src/binary/native.ts).
import { createRequire } from 'node:module';
import { binaryNativeFiles } from '../binary/native.ts';

export function sqliteModulePath(): string {
  return binaryNativeFiles()?.module ?? createRequire(import.meta.url).resolve('better-sqlite3');
}
