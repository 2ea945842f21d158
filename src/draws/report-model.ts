// What the apuração record (ata) of a draw says, before it is written out as Markdown
// (report-markdown.ts) or printable HTML (report-html.ts): the draw, its outcome, its winners as the
// record may show them (documents and names masked), and the Portuguese wording both formats, and
// the clause (clause.ts), share. The record is in Portuguese: it is signed by the promoter's person
// responsible and two witnesses and kept for the SPA.
import { findDrawActionActor } from '../audit/audit.repo.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { SAO_PAULO_OFFSET_MS } from '../input/timestamps.ts';
import type { Draw, DrawDetail, RunOutcome } from './model.ts';
import { findEntryPlace } from './draws.repo.ts';
import { getRunOutcome } from './run.ts';
import { describeWinnerStep } from './steps.ts';
import { getDraw, maskedWinner } from './views.ts';

export interface ReportModel {
  campaignName: string;
  draw: DrawDetail;
  outcome: RunOutcome;
  winners: Array<{ position: number; number: string; document: string; name: string; entry_id: string; steps: string[]; place: string }>;
  /** Who ran the draw and who published it, as the audit log names them (null: not yet, or not recorded). */
  operators: { ran: string | null; published: string | null };
  /**
   * The command a reader of the record types to write the canonical list again, given by whoever
   * asks for the record: only the CLI and the dashboard know how the program is run there.
   */
  reproduce: string;
}

/**
 * The record of a draw that has run (409 draw_not_run before). `publisher` names who publishes it
 * when the record is built by the publication itself, before its audit record is read back.
 */
export function buildReportModel(ctx: Ctx, drawId: string, reproduce: string, publisher: string | null = null): ReportModel {
  const outcome = getRunOutcome(ctx, drawId);
  const draw = getDraw(ctx, drawId);
  const campaign = getCampaign(ctx, draw.campaign_id);
  return {
    campaignName: campaign.name,
    draw,
    outcome,
    winners: draw.winners.map((w) => {
      const participant = maskedWinner(ctx, w.entry_id);
      return {
        position: w.position,
        number: w.number,
        document: participant?.document ?? 'anonimizado',
        name: participant?.name ?? '—',
        entry_id: w.entry_id,
        steps: w.steps.map((s) => describeWinnerStep(s, draw.series_count, 'pt')),
        place: winnerPlace(ctx, w.entry_id),
      };
    }),
    reproduce,
    operators: {
      ran: findDrawActionActor(ctx.db, draw.campaign_id, 'draw.run', draw.id) ?? null,
      published: publisher ?? findDrawActionActor(ctx.db, draw.campaign_id, 'draw.published', draw.id) ?? null,
    },
  };
}

/** `Campinas/SP`, what was given of it, or `—`. */
function winnerPlace(ctx: Ctx, entryId: string): string {
  const p = findEntryPlace(ctx.db, entryId);
  const city = p?.city?.trim() || null;
  const state = p?.state?.trim().toUpperCase() || null;
  if (city === null && state === null) return '—';
  return [city ?? '—', state ?? '—'].join('/');
}

/** A prize as Caixa publishes it: six characters, a leading 0 before the five digits. */
export function caixaPrize(prize: string): string {
  return prize.padStart(6, '0');
}

/** The operators line of the record. */
export function operatorsLine(m: ReportModel): string {
  return `Apuração executada por ${m.operators.ran ?? '—'}; publicada por ${m.operators.published ?? '— (ainda não publicada)'}.`;
}

/** `2026-12-01T02:59:59.000Z (30/11/2026 23:59:59, horário de Brasília)`. */
export function brasiliaTime(iso: string): string {
  const local = new Date(Date.parse(iso) + SAO_PAULO_OFFSET_MS).toISOString();
  return `${iso} (${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 19)}, horário de Brasília)`;
}

export function brDate(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

/** Text on one line: a line break typed in a name would otherwise start a line of the record. */
export function line(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

export function modeName(draw: Draw): string {
  return draw.livemode ? 'produção (live)' : 'teste (test)';
}

export function postponement(draw: Draw): string | null {
  if (draw.extraction === null || draw.extraction_date === null || draw.extraction_date === draw.extraction.date) return null;
  return `A extração prevista para ${brDate(draw.extraction_date)} não foi utilizada; utilizou-se a extração seguinte, de ${brDate(draw.extraction.date)}.`;
}

export function approximationRule(draw: Draw): string {
  return draw.approximation === 'scpc'
    ? 'SCPC: elemento imediatamente superior na mesma série ou, na falta, o imediatamente inferior, até o elegível mais próximo, sem recomeçar a série; série sem elegível passa a busca à série superior, depois à inferior, alternadamente.'
    : 'para cima: o próximo número elegível em ordem crescente de série e elemento; após o último número da última série, o primeiro da série 0.';
}
