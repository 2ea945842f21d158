// What `ces draw freeze DRAW_ID --json` and `ces draw run DRAW_ID --json` do, for the draws
// benchmark on a ces whose CLI has no `draw` command yet: the CLI's own runCommand (the context
// of every command: the file opened and migrated, the system clock, one JSON document on stdout)
// around the service's freezeDraw or runDraw, with the operator as the actor. The benchmark runs
// this as a bundle in a process of its own, as it runs the real CLI when that has the command.
// Usage: node draw-command.mjs freeze|run DRAW_ID --db PATH --json
import { parseArgs } from 'node:util';
import { runCommand } from '../cli/output.ts';
import { cliOperator } from '../cli/operator.ts';
import { freezeDraw } from '../src/draws/lifecycle.ts';
import { runDraw } from '../src/draws/run.ts';

const { values, positionals } = parseArgs({
  options: { db: { type: 'string' }, json: { type: 'boolean' } },
  allowPositionals: true,
});
const [verb, drawId] = positionals;
if ((verb !== 'freeze' && verb !== 'run') || drawId === undefined)
  throw new Error('usage: draw-command freeze|run DRAW_ID --db PATH --json');
await runCommand(
  values,
  (ctx): Promise<unknown> => (verb === 'freeze' ? freezeDraw(ctx, drawId, cliOperator()) : runDraw(ctx, drawId, cliOperator())),
  (result) => JSON.stringify(result),
);
