// The participant list SPA's system (SCPC) asks for before the extraction: each eligible number
// of the frozen draw with its holder's name, `;`-separated, UTF-8, one line a number in the
// canonical list's order, after a header line. Personal data: every listing is audited
// (draw.participants_exported), and each cell is written as the CSV exports write it
// (src/tools/csv.ts: quoted when it holds the separator, never read as a formula).
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Ctx } from '../kernel/context.ts';
import { csvField } from '../tools/csv.ts';
import { iterateNumberNames } from './draws.repo.ts';
import { loadFrozenSet } from './frozen-set.ts';
import { findDraw } from './model.ts';
import { formatNumber } from './number-set.ts';
import { assertFrozen } from './status.ts';

/** Lines in one chunk of the list. */
const LINES_PER_CHUNK = 5_000;

/** The list, in chunks; the listing is recorded before the first chunk is handed out. */
export function drawParticipantList(ctx: Ctx, id: string, actor: Actor): Generator<Buffer> {
  const row = findDraw(ctx, id);
  assertFrozen(row.status);
  const set = loadFrozenSet(ctx, row);
  ctx.db
    .transaction(() =>
      recordAudit(ctx, {
        actor,
        action: 'draw.participants_exported',
        campaignId: row.campaign_id,
        details: { draw_id: id, format: 'scpc-csv', numbers: set.count },
      }),
    )
    .immediate();
  return participantLines(ctx, row.campaign_id, row.livemode, set);
}

function* participantLines(ctx: Ctx, campaignId: string, livemode: number, set: ReturnType<typeof loadFrozenSet>): Generator<Buffer> {
  let lines: string[] = ['nome;numero_da_sorte\r\n'];
  for (const n of iterateNumberNames(ctx.db, campaignId, livemode)) {
    if (!set.has(n.series, n.element)) continue;
    // Anonymised after the freeze (a campaign closed since): the number stays, the name is gone.
    const name = n.anonymized_at === null ? (n.full_name ?? '') : '[anonimizado]';
    lines.push(`${csvField(name)};${formatNumber(n.series, n.element, set.seriesCount)}\r\n`);
    if (lines.length === LINES_PER_CHUNK) {
      yield Buffer.from(lines.join(''), 'utf8');
      lines = [];
    }
  }
  if (lines.length > 0) yield Buffer.from(lines.join(''), 'utf8');
}
