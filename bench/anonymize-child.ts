// The anonymization of bench/anonymize-stall.ts in a process of its own, started ahead of time: it
// opens the database as `ces participant anonymize` does (the CLI's configuration, its
// CES_CHECKPOINTS) and waits; on "go" it runs the same domain function and answers when it began
// and ended (and what it said of the erasure), so that the measured window is the anonymization and not the process's start-up.
import { cliActor } from '../src/audit/actor.ts';
import { systemClock } from '../src/kernel/clock.ts';
import { loadCommandConfig } from '../src/kernel/config.ts';
import { openDatabase } from '../src/db/open.ts';
import { createSilentLogger } from '../src/kernel/log.ts';
import { anonymizeParticipant } from '../src/participants/participants.ts';
import { cryptoRandom } from '../src/kernel/random.ts';

const [dbPath, campaignId, document] = process.argv.slice(2);
const config = loadCommandConfig({ db: dbPath });
const ctx = {
  db: openDatabase(dbPath, { checkpoints: config.checkpoints }),
  clock: systemClock,
  random: cryptoRandom,
  config,
  log: createSilentLogger(),
};
process.on('message', () => {
  const startedAt = Date.now();
  let error: string | null = null;
  let erasure: string | null = null;
  try {
    erasure = anonymizeParticipant(ctx, { campaignId, livemode: 1, document }, cliActor('bench')).erasure;
  } catch (e) {
    error = (e as Error).message;
  }
  const endedAt = Date.now();
  ctx.db.close();
  process.send!({ startedAt, endedAt, error, erasure }, () => process.exit(0));
});
process.send!('ready');
