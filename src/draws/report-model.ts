// What the apuração record (ata) of a draw says, before it is written out as Markdown
// (report-markdown.ts) or printable HTML (report-html.ts): the draw, its outcome, its winners as the
// record may show them (documents and names masked), and the Portuguese wording both formats, and
// the clause (clause.ts), share. The record is in Portuguese: it is signed by the promoter's person
// responsible and two witnesses and kept for the SPA.
import { findDrawActionActor } from '../audit/audit.repo.ts';
import { getCampaign, type Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { SAO_PAULO_OFFSET_MS } from '../input/timestamps.ts';
import { findEntryPlace, listVoidedOnExtraction } from './draws.repo.ts';
import { formatPrize } from './formation.ts';
import type { Draw, DrawDetail, ResultsRecord, RunOutcome } from './model.ts';
import { approximationParagraphs } from './rule-words.ts';
import { getRunOutcome } from './run.ts';
import { describeWinnerStep } from './steps.ts';
import { getDraw, maskedWinner } from './views.ts';

/** The campaign's identity as the record prints it (campaigns/identity.ts); "não informado" where not set. */
interface ReportIdentity {
  authorization: string;
  promoter: string;
  promoterDocument: string;
  promoterAddress: string;
}

export interface ReportModel {
  campaignName: string;
  identity: ReportIdentity;
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
  /** Draws of the campaign and mode voided on the same extraction (used or planned), oldest first. */
  voided: VoidedDraw[];
}

interface VoidedDraw {
  id: string;
  name: string;
  voided_at: string;
  voided_by: string | null;
  reason: string;
}

/**
 * The record of a draw that has run (409 draw_not_run before). `publisher` names who publishes it
 * when the record is built by the publication itself, before its audit record is read back.
 */
/** The campaign's identity as every record prints it (the ata, the prestação de contas). */
export function reportIdentity(campaign: Campaign): ReportIdentity {
  const unset = 'não informado';
  return {
    authorization: campaign.authorization ?? unset,
    promoter: campaign.promoter ?? unset,
    promoterDocument: campaign.promoter_document === null ? unset : formatCnpj(campaign.promoter_document),
    promoterAddress: campaign.promoter_address ?? unset,
  };
}

export function buildReportModel(ctx: Ctx, drawId: string, reproduce: string, publisher: string | null = null): ReportModel {
  const outcome = getRunOutcome(ctx, drawId);
  const draw = getDraw(ctx, drawId);
  const campaign = getCampaign(ctx, draw.campaign_id);
  return {
    campaignName: campaign.name,
    identity: reportIdentity(campaign),
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
    voided: listVoidedOnExtraction(ctx.db, {
      campaign_id: draw.campaign_id,
      livemode: draw.livemode ? 1 : 0,
      extraction_number: draw.extraction?.number ?? null,
      extraction_date: draw.extraction_date,
    }).map((v) => ({ id: v.id, name: v.name, voided_at: v.voided_at!, voided_by: v.voided_by ?? null, reason: v.void_reason ?? '' })),
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

/**
 * The extraction used when it is not the planned one: later, postponed, with the reason given when it
 * was recorded. An earlier one is refused since schema 23; a draw recorded before says so as it was.
 */
export function postponement(draw: DrawDetail): string | null {
  if (draw.extraction === null || draw.extraction_date === null || draw.extraction_date === draw.extraction.date) return null;
  const planned = brDate(draw.extraction_date);
  const held = brDate(draw.extraction.date);
  if (draw.extraction.date < draw.extraction_date)
    return `A extração utilizada, de ${held}, é anterior à prevista (${planned}); registrada antes de essa ordem ser exigida.`;
  const reason = draw.results_history.at(-1)?.reason;
  return `A extração utilizada, de ${held}, é posterior à prevista (${planned}): a extração foi realizada depois do previsto.${reason ? ` Motivo: ${line(reason)}.` : ''}`;
}

/** An audit actor as the record names a person, or that it was not kept (draws made before schema 23). */
const who = (actor: string | null): string => (actor === null ? '(não registrado)' : line(actor));

/** When the draw was created and frozen, and by whom. */
export function custodyLine(draw: Draw): string {
  return `Sorteio criado em ${brasiliaTime(draw.created_at)} por ${who(draw.created_by)}; números congelados em ${brasiliaTime(draw.frozen_at!)} por ${who(draw.frozen_by)}.`;
}

/** What was pending verification at the freeze (Decreto 70.951/1972 art. 16 §3), when it is known. */
export function pendingLine(draw: Draw): string | null {
  if (draw.pending_at_freeze === null) return null;
  if (draw.freeze_reason === null) return 'Nenhuma participação recebida até a data-limite estava pendente de verificação no congelamento.';
  const n = draw.pending_at_freeze;
  const pending =
    n === 1
      ? '1 participação recebida até a data-limite ainda estava pendente'
      : `${n} participações recebidas até a data-limite ainda estavam pendentes`;
  return `Congelamento feito com ${pending} de verificação (seus números não concorrem). Motivo: ${line(draw.freeze_reason)}.`;
}

/** One recording of the results as the record's history lists it. */
export function resultsRecordCells(r: ResultsRecord): string[] {
  return [
    brasiliaTime(r.recorded_at),
    who(r.recorded_by),
    String(r.number),
    brDate(r.date),
    r.prizes.map(formatPrize).join(', '),
    r.source === 'caixa' ? 'API de resultados da Caixa' : 'digitada',
    r.reason === null ? '—' : line(r.reason),
  ];
}

export const RESULTS_HISTORY_HEADERS = ['Registrado em', 'Por', 'Extração', 'Data', 'Prêmios', 'Origem', 'Motivo'] as const;

/** A voided draw on the same extraction, as the record names it. */
export function voidedLine(v: VoidedDraw): string {
  return `Sorteio ${v.id} (${line(v.name)}), anulado em ${brasiliaTime(v.voided_at)} por ${who(v.voided_by)}. Motivo: ${line(v.reason)}.`;
}

/** The rule for winner 1, written out in words for the draw's reading (rule-words.ts). */
export function approximationRule(draw: Draw): string {
  return approximationParagraphs(draw.approximation, draw.empty_series, draw.series_count).join(' ');
}

/** A CNPJ as it is written: 11.222.333/0001-81 (the alphanumeric one too). */
function formatCnpj(cnpj: string): string {
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}

/** The place of the apuração as the record prints it. */
export function placeText(draw: Draw): string {
  return draw.place ?? 'não informado';
}

/** Each position's prize as the record prints it: "Moto 0 km, R$ 15990.00"; null when the draw names none. */
export function prizeTexts(draw: Draw): Array<{ position: number; text: string }> | null {
  return draw.prizes === null ? null : draw.prizes.map((p) => ({ position: p.position, text: `${p.description}, R$ ${p.value}` }));
}
