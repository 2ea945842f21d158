// `ces version`: the release and what it runs on (Node, SQLite, platform, CPU, the executable or
// not), the same facts GET /healthz and GET /metrics report, for a bug report or an upgrade check.
// `ces --version` stays the release alone, for scripts that compare it.
import type { Command } from 'commander';
import { runtimeVersions } from '../../src/metrics/versions.ts';
import { cliIo } from '../io.ts';
import { details, fail, toJsonDocument, withCommonOptions, type CommonOptions } from '../output.ts';

export function registerVersionCommand(program: Command): void {
  // --db is accepted like every command's and ignored: asking for versions must work before any
  // database exists, and must not create one where the operator happens to stand.
  withCommonOptions(
    program.command('version').description('print the versions of ces, Node and SQLite, the platform, and whether this is the executable'),
  ).action((flags: CommonOptions) => {
    try {
      const versions = runtimeVersions();
      cliIo().stdout.write(`${flags.json ? toJsonDocument(versions) : details({ ...versions })}\n`);
    } catch (error) {
      fail(flags, error);
    }
  });
}
