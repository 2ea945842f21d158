// The executable started again by `ces serve` for the full check of a database file
// (src/db/integrity-child.ts): Node's own options, which run that check in a plain Node, are not
// the executable's. The first import of cli/ces.ts, so that it runs before the rest of the program
// is even loaded: the check's process holds only what the check needs. The check runs to its end
// without waiting for the event loop, so the process ends here.
import { isFullCheckChild, runFullCheckChild } from '../src/db/integrity-child.ts';

if (isFullCheckChild()) {
  runFullCheckChild();
  process.exit(0);
}
