// Evaluation of an APPROVED entry against the campaign's mechanics (SPEC: Mechanics, entry.evaluated).
// Called by the pipeline inside the evaluation job's transaction; its writes (awards, lucky numbers,
// window claims, stock) commit together with the job's completion and the entry.evaluated event.
import type { Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../context.ts';
import type { EntryRow } from '../entries/entries.repo.ts';

export interface MechanicResult {
  mechanic_type: 'lucky_numbers' | 'instant_prize';
  status: 'APPROVED' | 'REJECTED';
  outcome: Record<string, unknown>;
}

/** Runs every mechanic the campaign has; [] for a campaign with none. Synchronous: no awaits. */
export function evaluateMechanics(ctx: Ctx, campaign: Campaign, entry: EntryRow, now: string): MechanicResult[] {
  const results: MechanicResult[] = [];
  if (campaign.lucky_numbers !== 'none' || campaign.instant_prize !== 'none') {
    // Filled in by the mechanics work (issue 4); until then an explicit failure, never a silent pass.
    throw new Error(`mechanics not available yet for campaign ${campaign.id} at ${now} (entry ${entry.id}, ${ctx.clock.now()})`);
  }
  return results;
}

/** A rejected entry's pending declared win becomes `voided` (no stock moves). Synchronous. */
export function voidPendingAward(ctx: Ctx, entryId: string, now: string): void {
  void ctx;
  void entryId;
  void now;
  throw new Error('voidPendingAward: implemented by the mechanics work (issue 4)');
}
