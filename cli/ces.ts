#!/usr/bin/env node
// The `ces` program: one commander program, one file per noun under commands/.
import { Command } from 'commander';
import { registerCampaignCommands } from './commands/campaign.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerEntryCommands } from './commands/entries.ts';
import { registerKeyCommands } from './commands/key.ts';
import { registerOpenApiCommand } from './commands/openapi.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerWebhookCommands } from './commands/webhook.ts';
import { registerPrizeCommands } from './commands/prize.ts';
import { registerWindowCommands } from './commands/window.ts';
import { registerAwardCommands } from './commands/award.ts';

const program = new Command('ces')
  .description('Campaign Entry Service: intake of promotional-campaign entries over HTTP')
  .version('0.1.0')
  .showHelpAfterError();

registerServeCommand(program);
registerCampaignCommands(program);
registerKeyCommands(program);
registerEntryCommands(program);
registerDemoCommand(program);
registerWebhookCommands(program);
registerPrizeCommands(program);
registerWindowCommands(program);
registerAwardCommands(program);
registerOpenApiCommand(program);

await program.parseAsync(process.argv);
