// SQL of the closing and its prestação de contas: the figures no other listing counts, and the
// stored report.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export function countParticipants(db: Db, campaignId: string, livemode: number): number {
  return prepare<[string, number], { n: number }>(db, `SELECT count(*) AS n FROM enrollments WHERE campaign_id = ? AND livemode = ?`).get(
    campaignId,
    livemode,
  )!.n;
}

export function countHeldAnonymizationsPending(db: Db, campaignId: string): number {
  return prepare<[string], { n: number }>(
    db,
    `SELECT count(*) AS n FROM held_anonymizations WHERE campaign_id = ? AND carried_out_at IS NULL`,
  ).get(campaignId)!.n;
}

export function saveCampaignReport(
  db: Db,
  r: { campaign_id: string; livemode: number; md: Buffer; html: Buffer; sha256: string; created_at: string },
): void {
  prepare(
    db,
    `INSERT INTO campaign_reports (campaign_id, livemode, md, html, sha256, created_at)
    VALUES (@campaign_id, @livemode, @md, @html, @sha256, @created_at)`,
  ).run(r);
}

export function findCampaignReport(db: Db, campaignId: string, livemode: number): { md: Buffer; html: Buffer; sha256: string } | undefined {
  return prepare<[string, number], { md: Buffer; html: Buffer; sha256: string }>(
    db,
    `SELECT md, html, sha256 FROM campaign_reports WHERE campaign_id = ? AND livemode = ?`,
  ).get(campaignId, livemode);
}
