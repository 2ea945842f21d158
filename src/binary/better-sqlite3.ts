// What `better-sqlite3` is inside the executable: the executable's build (scripts/build-binary.mjs)
// resolves the package's name to this file. Its constructor loads the real class on first use, from
// the folder src/binary/native-cache.ts prepares, so that a command that opens no database (`ces
// --version`, `ces --help`) writes nothing to disk.
import type BetterSqlite3 from 'better-sqlite3';
import { requireBinarySqlite } from './native.ts';

let loaded: typeof BetterSqlite3 | undefined;

function Database(...args: ConstructorParameters<typeof BetterSqlite3>): BetterSqlite3.Database {
  loaded ??= requireBinarySqlite() as typeof BetterSqlite3;
  return new loaded(...args);
}

export default Database as unknown as typeof BetterSqlite3;
