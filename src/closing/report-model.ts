// What the prestação de contas of a campaign says (docs/operations.md#closing-a-campaign), before
// report-text.ts writes it out as Markdown or printable HTML: the campaign's identity and period,
// its entries and lucky numbers, each draw with its record's SHA-256, each prize won with every step
// and the SHA-256 of every file kept with it, the prescribed prizes and what is due to the Tesouro
// Nacional, the income tax and the filing deadline. In Portuguese, as the SPA reads it. A document
// of sections of paragraphs and tables, so that both formats say exactly the same.
import { getCampaign, type Campaign } from '../campaigns/campaigns.ts';
import { brasiliaTime, brDate, line, reportIdentity } from '../draws/report-model.ts';
import { listDraws } from '../draws/views.ts';
import { countEntriesByStatus, countLuckyNumbers } from '../exports/stats.repo.ts';
import type { Ctx } from '../kernel/context.ts';
import { maskDocument } from '../tools/masking.ts';
import { filingDueBy, treasuryDueBy } from '../winners/deadlines.ts';
import { centsOfReais, reais, type WinnerRow } from '../winners/model.ts';
import type { WinnerEventKind, WinnerStatus } from '../winners/status.ts';
import { PRIZE_TAX_CITATION, PRIZE_TAX_DARF_CODE, PRIZE_TAX_RATE_PERCENT, taxesByDueDate, taxesOf } from '../winners/taxes.ts';
import { findWinnerParticipants, listAttachmentMetaOfWinners, listEventsOfWinners, listWinnerRows } from '../winners/winners.repo.ts';
import { countHeldAnonymizationsPending, countParticipants } from './closing.repo.ts';

/**
 * A piece of the document's text: words (operators' and participants' too, written out as typed by
 * report-text.ts), or an id or a digest shown as code. Code is marked here rather than with
 * backticks in the words, so that a backtick someone typed is never read as one.
 */
type Span = string | { code: string };
/** The text of a paragraph, an item or a cell. */
export type Text = string | readonly Span[];

export type Block =
  { kind: 'paragraph'; text: Text } | { kind: 'list'; items: Text[] } | { kind: 'table'; headers: string[]; rows: Text[][] };

const code = (text: string): Span[] => [{ code: text }];

interface Section {
  title: string;
  blocks: Block[];
}

export interface AccountsDocument {
  title: string;
  /** The warning of a report written before the closing: it may still change. */
  draft: string | null;
  sections: Section[];
}

/** The figures the report states, for the closing's audit record and for tests to hold it to. */
export interface AccountsFigures {
  entries: number;
  approved: number;
  lucky_numbers: number;
  winners: number;
  delivered: number;
  prescribed: number;
  treasury_due: string;
  tax_due: string;
}

const STATUS_WORDS: Record<WinnerStatus, string> = {
  awarded: 'contemplado',
  notified: 'notificado',
  delivered: 'entregue',
  declined: 'recusado',
  disqualified: 'desclassificado',
  prescribed: 'prescrito',
};

const EVENT_WORDS: Record<WinnerEventKind, string> = {
  awarded: 'contemplação',
  notified: 'notificação',
  contact_failed: 'tentativa de contato sem sucesso',
  documents_received: 'documentos recebidos',
  delivered: 'entrega do prêmio',
  declined: 'recusa do prêmio',
  disqualified: 'desclassificação',
  prescribed: 'prescrição',
};

const money = (cents: number | null): string => (cents === null ? 'não informado' : `R$ ${reais(cents)}`);

/** `Sorteio "Nome", 1ª posição` or `prêmio instantâneo`. */
function origin(row: WinnerRow, drawNames: Map<string, string>): string {
  if (row.source === 'instant') return 'prêmio instantâneo';
  return `sorteio ${line(drawNames.get(row.draw_id!) ?? row.draw_id!)}, ${row.position}ª posição`;
}

function period(campaign: Campaign): string {
  const from = campaign.starts_at === null ? 'sem data de início' : brasiliaTime(campaign.starts_at);
  const to = campaign.ends_at === null ? 'sem data de término' : brasiliaTime(campaign.ends_at);
  return `${from} a ${to}`;
}

export function buildAccounts(ctx: Ctx, campaignId: string, livemode: number): { document: AccountsDocument; figures: AccountsFigures } {
  const campaign = getCampaign(ctx, campaignId);
  const identity = reportIdentity(campaign);
  const scope = { campaign_id: campaignId, livemode };
  const byStatus: Record<string, number> = { PENDING: 0, APPROVED: 0, REJECTED: 0 };
  for (const r of countEntriesByStatus(ctx.db, scope)) byStatus[r.status] = r.count;
  const entries = byStatus.PENDING + byStatus.APPROVED + byStatus.REJECTED;
  const lucky = countLuckyNumbers(ctx.db, scope);
  const draws = listDraws(ctx, campaignId).filter((d) => d.livemode === (livemode === 1));
  const drawNames = new Map(draws.map((d) => [d.id, d.name]));
  const winners = listWinnerRows(ctx.db, { campaignId, livemode });
  const taxes = taxesOf(winners);
  const byId = new Map(winners.map((w) => [w.id, w]));
  const taxTotals = taxesByDueDate(taxes);
  const taxCents = taxTotals.reduce((sum, t) => sum + centsOfReais(t.tax), 0);
  const prescribed = winners.filter((w) => w.status === 'prescribed');
  const treasuryCents = prescribed.reduce((sum, w) => sum + (w.prize_value_cents ?? 0), 0);
  const filing = filingDueBy(winners.filter((w) => w.status !== 'disqualified').map((w) => w.prescribes_at));
  const mode = livemode === 1 ? 'produção (live)' : 'teste (test)';

  const header: Text[] = [
    [`Promoção: ${line(campaign.name)} (campanha `, { code: campaign.id }, `, ${mode})`],
    `Certificado de Autorização: ${line(identity.authorization)}`,
    `Promotora: ${line(identity.promoter)}, CNPJ ${identity.promoterDocument}, ${line(identity.promoterAddress)}`,
    `Período de participação: ${period(campaign)}`,
    campaign.closed_at === null
      ? 'Encerramento: campanha não encerrada'
      : `Encerramento: ${brasiliaTime(campaign.closed_at)}, por ${campaign.closed_by}${campaign.close_reason ? `, antes do fim dos prazos de prescrição. Motivo: ${line(campaign.close_reason)}` : ''}`,
    `Prazo para a prestação de contas: ${filing === null ? 'sem prêmios distribuídos; conforme o SCPC' : `${brDate(filing)} (30 dias após a última data de prescrição)`}`,
  ];

  const participation: Section = {
    title: 'Participações',
    blocks: [
      {
        kind: 'table',
        headers: ['Item', 'Quantidade'],
        rows: [
          ['Participantes (CPF/CNPJ distintos)', String(countParticipants(ctx.db, campaignId, livemode))],
          ['Participações recebidas', String(entries)],
          ['Participações aprovadas', String(byStatus.APPROVED)],
          ['Participações reprovadas', String(byStatus.REJECTED)],
          ['Participações pendentes de verificação', String(byStatus.PENDING)],
          ['Números da sorte atribuídos', String(lucky.numbers)],
        ],
      },
    ],
  };

  const drawsSection: Section = {
    title: 'Sorteios (apurações)',
    blocks:
      draws.length === 0
        ? [{ kind: 'paragraph', text: 'Nenhum sorteio.' }]
        : [
            {
              kind: 'table',
              headers: ['Sorteio', 'Nome', 'Extração da Loteria Federal', 'Situação', 'SHA-256 da ata publicada'],
              rows: draws.map((d) => [
                code(d.id),
                line(d.name),
                d.extraction === null ? '—' : `nº ${d.extraction.number}, de ${brDate(d.extraction.date)}`,
                d.status === 'voided'
                  ? `anulado: ${line(d.void_reason ?? '')}`
                  : d.status === 'published'
                    ? 'publicado'
                    : `não publicado (${d.status})`,
                d.record_sha256 === null ? '—' : code(d.record_sha256),
              ]),
            },
          ],
  };

  const people = findWinnerParticipants(
    ctx.db,
    winners.map((w) => w.enrollment_id),
  );
  const winnersSection: Section = {
    title: 'Contemplados',
    blocks:
      winners.length === 0
        ? [{ kind: 'paragraph', text: 'Nenhum prêmio distribuído.' }]
        : [
            {
              kind: 'table',
              headers: [
                'Prêmio',
                'Origem',
                'Contemplado',
                'Documento',
                'Cidade/UF',
                'Descrição',
                'Valor',
                'Situação',
                'Entregar até',
                'Prescreve após',
              ],
              rows: winners.map((w) => {
                const p = people.get(w.enrollment_id);
                const anonymized = p === undefined || p.anonymized_at !== null;
                return [
                  code(w.id),
                  origin(w, drawNames),
                  anonymized ? 'anonimizado' : line(p.full_name ?? '—'),
                  anonymized ? 'anonimizado' : maskDocument(p.document_type, p.document_number),
                  anonymized ? '—' : `${line(p.city ?? '—')}/${line(p.state?.toUpperCase() ?? '—')}`,
                  line(w.prize_description ?? 'não informado'),
                  money(w.prize_value_cents),
                  STATUS_WORDS[w.status],
                  brDate(w.deliver_by),
                  brDate(w.prescribes_at),
                ];
              }),
            },
          ],
  };

  const steps: Text[][] = [];
  const winnerIds = winners.map((w) => w.id);
  const eventsOf = listEventsOfWinners(ctx.db, winnerIds);
  const attachmentsOf = listAttachmentMetaOfWinners(ctx.db, winnerIds);
  for (const w of winners) {
    const attachments = attachmentsOf.get(w.id) ?? [];
    for (const e of eventsOf.get(w.id) ?? []) {
      const files = attachments.filter((a) => a.event_id === e.id);
      steps.push([
        code(w.id),
        brasiliaTime(e.at),
        EVENT_WORDS[e.event],
        `${e.from_status === null ? '—' : STATUS_WORDS[e.from_status]} → ${STATUS_WORDS[e.to_status]}`,
        e.actor,
        line(e.note ?? '—'),
        files.length === 0
          ? '—'
          : files.flatMap((a, i) => [
              `${i === 0 ? '' : '; '}${line(a.filename)} (${a.media_type}, ${a.size} bytes), SHA-256 `,
              { code: a.sha256 },
            ]),
      ]);
    }
  }
  const stepsSection: Section = {
    title: 'Etapas de cada prêmio e comprovantes',
    blocks: [
      {
        kind: 'paragraph',
        text: 'Cada etapa registrada, com os arquivos guardados com ela (termo de quitação e entrega, comprovantes de notificação, documentos); o SHA-256 de cada arquivo permite conferir a cópia entregue.',
      },
      ...(steps.length === 0
        ? []
        : [{ kind: 'table' as const, headers: ['Prêmio', 'Data', 'Etapa', 'Situação', 'Por', 'Observação', 'Arquivos'], rows: steps }]),
    ],
  };

  const prescribedSection: Section = {
    title: 'Prêmios prescritos e recolhimento ao Tesouro Nacional',
    blocks: [
      {
        kind: 'paragraph',
        text: 'Prêmio não reclamado em 180 dias da apuração caduca, e seu valor é recolhido ao Tesouro Nacional, como renda da União, em 10 dias (Lei 5.768/1971, art. 6º).',
      },
      prescribed.length === 0
        ? { kind: 'paragraph', text: 'Nenhum prêmio prescrito.' }
        : {
            kind: 'table',
            headers: ['Prêmio', 'Origem', 'Descrição', 'Valor', 'Prescrito após', 'Recolher até'],
            rows: prescribed.map((w) => [
              code(w.id),
              origin(w, drawNames),
              line(w.prize_description ?? 'não informado'),
              money(w.prize_value_cents),
              brDate(w.prescribes_at),
              brDate(treasuryDueBy(w.prescribes_at)),
            ]),
          },
      { kind: 'paragraph', text: `Valor devido ao Tesouro Nacional: ${money(treasuryCents)}.` },
    ],
  };

  const declined = winners.filter((w) => w.status === 'declined');
  const declinedSection: Section | null =
    declined.length === 0
      ? null
      : {
          title: 'Prêmios recusados',
          blocks: [
            {
              kind: 'table',
              headers: ['Prêmio', 'Origem', 'Descrição', 'Valor'],
              rows: declined.map((w) => [
                code(w.id),
                origin(w, drawNames),
                line(w.prize_description ?? 'não informado'),
                money(w.prize_value_cents),
              ]),
            },
          ],
        };

  const taxSection: Section = {
    title: 'Imposto de renda sobre os prêmios',
    blocks: [
      {
        kind: 'paragraph',
        text: `Alíquota de ${PRIZE_TAX_RATE_PERCENT}% sobre o valor de mercado de cada prêmio, recolhida pela promotora por DARF, código ${PRIZE_TAX_DARF_CODE}. ${PRIZE_TAX_CITATION}.`,
      },
      ...(taxes.length === 0
        ? [{ kind: 'paragraph' as const, text: 'Nenhum prêmio distribuído.' }]
        : [
            {
              kind: 'table' as const,
              headers: ['Prêmio', 'Origem', 'Base de cálculo', 'Imposto', 'Fato gerador', 'Vencimento', 'DARF'],
              rows: taxes.map((t) => [
                code(t.winner_id),
                origin(byId.get(t.winner_id)!, drawNames),
                t.prize.value === null ? 'não informado' : `R$ ${t.prize.value}`,
                t.tax === null ? 'não calculado' : `R$ ${t.tax}`,
                brDate(t.fact_date),
                brDate(t.due_by),
                t.darf_code,
              ]),
            },
            {
              kind: 'table' as const,
              headers: ['Vencimento', 'DARF', 'Prêmios', 'Imposto'],
              rows: taxTotals.map((t) => [brDate(t.due_by), t.darf_code, String(t.winners), `R$ ${t.tax}`]),
            },
          ]),
      { kind: 'paragraph', text: `Imposto total: ${money(taxCents)}.` },
    ],
  };

  const pendingHeld = countHeldAnonymizationsPending(ctx.db, campaignId);
  const lgpd: Section = {
    title: 'Dados pessoais dos participantes',
    blocks: [
      {
        kind: 'paragraph',
        text:
          campaign.closed_at === null
            ? `Os registros dos participantes são guardados até a prestação de contas (LGPD, art. 16, I). Pedidos de anonimização retidos até o encerramento: ${pendingHeld}.`
            : 'Os pedidos de anonimização retidos até a prestação de contas foram atendidos no encerramento (LGPD, art. 16, I).',
      },
    ],
  };

  const sections = [participation, drawsSection, winnersSection, stepsSection, prescribedSection, declinedSection, taxSection, lgpd].filter(
    (s): s is Section => s !== null,
  );
  return {
    document: {
      title: `Prestação de contas: ${line(campaign.name)}`,
      draft:
        campaign.closed_at === null
          ? 'RASCUNHO: campanha não encerrada; prêmios podem ainda ser entregues, recusados ou prescrever.'
          : null,
      sections: [{ title: 'Promoção', blocks: [{ kind: 'list', items: header }] }, ...sections],
    },
    figures: {
      entries,
      approved: byStatus.APPROVED,
      lucky_numbers: lucky.numbers,
      winners: winners.filter((w) => w.status !== 'disqualified').length,
      delivered: winners.filter((w) => w.status === 'delivered').length,
      prescribed: prescribed.length,
      treasury_due: reais(treasuryCents)!,
      tax_due: reais(taxCents)!,
    },
  };
}
