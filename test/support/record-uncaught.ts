// Preloaded into a CLI child (`--import`) by runCliWithClosedStderr: appends the stack of an
// uncaught exception to the file named by CES_TEST_UNCAUGHT_FILE, because the child's stderr,
// where Node would print it, is the closed pipe under test.
import { appendFileSync } from 'node:fs';

const file = process.env.CES_TEST_UNCAUGHT_FILE;
if (file) process.on('uncaughtExceptionMonitor', (error) => appendFileSync(file, `${error.stack ?? String(error)}\n`));
