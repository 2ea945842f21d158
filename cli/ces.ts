#!/usr/bin/env node
// The `ces` binary: the program (cli/program.ts) run on this process's arguments, streams and
// environment. What only the real process has is set up here, before any command runs.
import './full-check-child.ts'; // first: it ends the process that `ces serve` starts for its full check
import { dropCertificateCheckOverride } from '../src/kernel/config.ts';
import { carryOnWithoutStderr } from './output.ts';
import { runProgram } from './program.ts';

// Before parsing: a usage error is written to stderr too.
carryOnWithoutStderr();
// Before any connection: certificates are always checked (src/kernel/config.ts), and the operator is told.
if (dropCertificateCheckOverride()) {
  process.stderr.write(
    'ces: NODE_TLS_REJECT_UNAUTHORIZED is ignored: certificates are always checked (trust a CA with NODE_EXTRA_CA_CERTS)\n',
  );
}
// Not awaited at the top level: the executable's main script is CommonJS, which has no top-level
// await. A rejection is a bug, and ends the process with its stack as an unhandled one.
void runProgram(process.argv.slice(2));
