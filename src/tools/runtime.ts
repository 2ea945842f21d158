// How this process runs ces, so that what it prints fits how the operator started it: the single
// executable (`npm run build:binary`, scripts/build-binary.mjs), the one-file bundle run by an
// installed Node (`npm run build`, build.mjs), or the sources in a checkout (`npm ci`). The binary
// and the bundle are told apart by a constant their builds define; the executable is also what
// Node's own `node:sea` says it is.
import { isSea } from 'node:sea';
import { basename } from 'node:path';

declare const __CES_BUILD__: 'binary' | 'bundle' | undefined;

type RunningAs = 'binary' | 'bundle' | 'source';

export function runningAs(): RunningAs {
  if (isSea()) return 'binary';
  return typeof __CES_BUILD__ === 'string' ? __CES_BUILD__ : 'source';
}

/**
 * What a person types to run ces again, for messages that tell them to: the executable as they
 * called it (`./ces`, `/usr/local/bin/ces`, `ces` from PATH), `ces` for an installed package, and
 * `npx ces` in a checkout. Only the binary reads `argv0`, which is the operator's own words: no
 * path of the machine that built ces ever reaches a message. `as` is for tests, which run from
 * the sources and still check what the binary and the bundle print.
 */
export function cesCommand(argv0: string = process.argv0, as: RunningAs = runningAs()): string {
  switch (as) {
    case 'binary':
      return /^[\w./+-]+$/.test(argv0) ? argv0 : basename(argv0).replace(/[^\w.+-]/g, '') || 'ces';
    case 'bundle':
      return 'ces';
    case 'source':
      return 'npx ces';
  }
}

/** How to start the server: `npm start` in a checkout, else `ces serve`. */
export function serveCommand(argv0: string = process.argv0, as: RunningAs = runningAs()): string {
  return as === 'source' ? 'npm start' : `${cesCommand(argv0, as)} serve`;
}
