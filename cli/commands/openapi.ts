// `ces openapi`: prints the OpenAPI 3.1 document the server serves at GET /openapi.json, so an
// integrator can generate a client without a running server (`ces openapi > ces.openapi.json`).
import type { Command } from 'commander';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { cliIo } from '../io.ts';
import { withCommonOptions } from '../output.ts';

export function registerOpenApiCommand(program: Command): void {
  // --db and --json are accepted like every command; the document needs no database and is JSON.
  withCommonOptions(
    program.command('openapi').description('print the OpenAPI 3.1 document of the HTTP API (the same as GET /openapi.json)'),
  ).action(() => {
    cliIo().stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  });
}
