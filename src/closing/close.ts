// Closing a campaign (docs/operations.md#closing-a-campaign): the end of the promotion's life in
// ces. Once every prize's prescription date has passed (or, forced, with the reason), in one
// transaction the campaign is marked closed, its prestação de contas is written and stored for each
// mode (report.ts), the anonymisations the legal hold kept back are carried out (LGPD art. 16, I:
// the records were kept for this), and the closing is audited (campaign.closed). A closed campaign
// takes no entry, no setting and no step on its winners.
import { actorName, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { assertCampaignOpen, getCampaign, type Campaign } from '../campaigns/campaigns.ts';
import { closeCampaignRow } from '../campaigns/campaigns.repo.ts';
import { listDraws } from '../draws/views.ts';
import { isPublished, isVoided } from '../draws/status.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName } from '../kernel/errors.ts';
import { MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { finishErasures, type ErasureReport } from '../participants/erasure.ts';
import { carryOutHeldAnonymizations } from '../participants/participants.ts';
import { brasiliaDate } from '../tools/brazil-calendar.ts';
import { listWinnerRows } from '../winners/winners.repo.ts';
import { prescribeDue } from '../winners/winners.ts';
import { saveCampaignReport } from './closing.repo.ts';
import type { AccountsFigures } from './report-model.ts';
import { closingAccounts } from './report.ts';

interface CloseRequest {
  force?: boolean;
  reason?: string | null;
}

interface ClosedCampaign {
  campaign: Campaign;
  /** Per mode, the stored prestação de contas: its Markdown's SHA-256 and what it states. */
  reports: { live: { sha256: string; figures: AccountsFigures }; test: { sha256: string; figures: AccountsFigures } };
  anonymizations_carried_out: number;
  /** The erasure from the file of the anonymisations carried out; null when there were none. */
  erasure: ErasureReport | null;
}

function checkReason(req: CloseRequest): string | null {
  const reason = req.reason?.trim() || null;
  const refuse = (message: string, code: 'required' | 'invalid_option' = 'invalid_option'): never => {
    throw new AppError(422, 'invalid_option', message, [{ field: 'reason', code, message }]);
  };
  if (req.force && reason === null)
    refuse(`a forced closing says why: ${fieldName('reason')} is required with ${fieldName('force')}`, 'required');
  if (!req.force && reason !== null)
    refuse(`${fieldName('reason')} goes with ${fieldName('force')}: a closing after every prescription needs none`);
  const problem = reason === null ? null : operatorTextProblem(fieldName('reason'), reason, MAX_NOTE_LENGTH);
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field: 'reason', ...problem }]);
  return reason;
}

/**
 * What still keeps the campaign open, unless forced: a draw neither published nor voided
 * (409 campaign_draws_open), a prize whose prescription date has not passed (409
 * campaign_prescription_pending, the last date in `extra`).
 */
function assertClosable(ctx: Ctx, campaign: Campaign): void {
  const open = listDraws(ctx, campaign.id).filter((d) => !isPublished(d.status) && !isVoided(d.status));
  if (open.length > 0)
    throw new AppError(
      409,
      'campaign_draws_open',
      `${open.length} draw(s) of the campaign are neither published nor voided (${open.map((d) => d.id).join(', ')}): publish or void them first, or force the closing with a reason`,
      undefined,
      undefined,
      undefined,
      { draws_open: open.length },
    );
  const today = brasiliaDate(ctx.clock.now());
  const dates = listWinnerRows(ctx.db, { campaignId: campaign.id })
    .filter((w) => w.status !== 'disqualified')
    .map((w) => w.prescribes_at);
  const last = dates.reduce<string | null>((a, b) => (a === null || b > a ? b : a), null);
  if (last !== null && last >= today)
    throw new AppError(
      409,
      'campaign_prescription_pending',
      `the campaign's prizes prescribe after ${last} (180 days after their apuração): close it from the next day on, or force the closing with a reason`,
      undefined,
      undefined,
      undefined,
      { last_prescription_date: last },
    );
}

export function closeCampaign(
  ctx: Ctx,
  campaignId: string,
  req: CloseRequest,
  actor: Actor,
  options: { truncateRetries?: number } = {},
): ClosedCampaign {
  const reason = checkReason(req);
  assertCampaignOpen(getCampaign(ctx, campaignId));
  prescribeDue(ctx, campaignId);
  // As an anonymisation does (src/participants/participants.ts): the erased values are zeroed where they were.
  ctx.db.pragma('secure_delete = ON');
  let closed: ClosedCampaign;
  try {
    closed = ctx.db
      .transaction((): ClosedCampaign => {
        const campaign = getCampaign(ctx, campaignId);
        assertCampaignOpen(campaign);
        if (!req.force) assertClosable(ctx, campaign);
        const at = nowIso(ctx.clock);
        closeCampaignRow(ctx.db, campaignId, at, actorName(actor), reason);
        const reports = { live: storeReport(ctx, campaignId, 1, at), test: storeReport(ctx, campaignId, 0, at) };
        const carried = carryOutHeldAnonymizations(ctx, campaignId, actor);
        recordAudit(ctx, {
          actor,
          action: 'campaign.closed',
          campaignId,
          details: {
            forced: req.force === true,
            reason,
            reports: { live: reports.live.sha256, test: reports.test.sha256 },
            figures: { live: reports.live.figures, test: reports.test.figures },
            anonymizations_carried_out: carried,
          },
        });
        return { campaign: getCampaign(ctx, campaignId), reports, anonymizations_carried_out: carried, erasure: null };
      })
      .immediate();
  } finally {
    ctx.db.pragma('secure_delete = FAST');
  }
  if (closed.anonymizations_carried_out === 0) return closed;
  return { ...closed, erasure: finishErasures(ctx, { retries: options.truncateRetries }) };
}

function storeReport(ctx: Ctx, campaignId: string, livemode: number, at: string): { sha256: string; figures: AccountsFigures } {
  const report = closingAccounts(ctx, campaignId, livemode);
  saveCampaignReport(ctx.db, {
    campaign_id: campaignId,
    livemode,
    md: report.md,
    html: report.html,
    sha256: report.sha256,
    created_at: at,
  });
  return { sha256: report.sha256, figures: report.figures };
}
