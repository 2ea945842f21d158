// The prestação de contas of a campaign (docs/operations.md#closing-a-campaign), in Markdown or
// printable HTML. A closed campaign's is the one its closing stored (campaign_reports), byte for
// byte: the anonymisations the closing carries out, and anything after, rewrite nothing of it. An
// open campaign's is written now, marked as a draft.
import { createHash } from 'node:crypto';
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { prescribeDue } from '../winners/winners.ts';
import { findCampaignReport } from './closing.repo.ts';
import { buildAccounts, type AccountsFigures } from './report-model.ts';
import { accountsHtml, accountsMarkdown } from './report-text.ts';

type AccountsFormat = 'md' | 'html';

export function renderAccounts(ctx: Ctx, campaignId: string, livemode: number, format: AccountsFormat): string {
  const campaign = getCampaign(ctx, campaignId);
  if (campaign.closed_at !== null) {
    const stored = findCampaignReport(ctx.db, campaignId, livemode);
    if (stored) return (format === 'md' ? stored.md : stored.html).toString('utf8');
  }
  prescribeDue(ctx, campaignId);
  const { document } = buildAccounts(ctx, campaignId, livemode);
  return format === 'md' ? accountsMarkdown(document) : accountsHtml(document);
}

/** Both formats as the closing stores them, the Markdown's SHA-256 and the figures (inside its transaction). */
export function closingAccounts(
  ctx: Ctx,
  campaignId: string,
  livemode: number,
): { md: Buffer; html: Buffer; sha256: string; figures: AccountsFigures } {
  const { document, figures } = buildAccounts(ctx, campaignId, livemode);
  const md = Buffer.from(accountsMarkdown(document), 'utf8');
  return { md, html: Buffer.from(accountsHtml(document), 'utf8'), sha256: createHash('sha256').update(md).digest('hex'), figures };
}
