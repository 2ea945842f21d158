// What the apuração record (ata) of a draw says, before it is written out as Markdown
// (report-markdown.ts) or printable HTML (report-html.ts): the draw, its outcome, its winners as the
// record may show them (documents and names masked), and the Portuguese wording both formats, and
// the clause (clause.ts), share. The record is in Portuguese: it is signed by the promoter's person
// responsible and two witnesses and kept for the SPA.
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { SAO_PAULO_OFFSET_MS } from '../input/timestamps.ts';
import type { Draw, DrawDetail, RunOutcome } from './model.ts';
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
  winners: Array<{ position: number; number: string; document: string; name: string; entry_id: string; steps: string[] }>;
  /**
   * The command a reader of the record types to write the canonical list again, given by whoever
   * asks for the record: only the CLI and the dashboard know how the program is run there.
   */
  reproduce: string;
}

/** The record of a draw that has run (409 draw_not_run before). */
export function buildReportModel(ctx: Ctx, drawId: string, reproduce: string): ReportModel {
  const outcome = getRunOutcome(ctx, drawId);
  const draw = getDraw(ctx, drawId);
  const campaign = getCampaign(ctx, draw.campaign_id);
  const unset = 'não informado';
  return {
    campaignName: campaign.name,
    identity: {
      authorization: campaign.authorization ?? unset,
      promoter: campaign.promoter ?? unset,
      promoterDocument: campaign.promoter_document === null ? unset : formatCnpj(campaign.promoter_document),
      promoterAddress: campaign.promoter_address ?? unset,
    },
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
      };
    }),
    reproduce,
  };
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
