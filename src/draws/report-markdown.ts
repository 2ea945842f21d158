// The apuração record in Markdown: the same record as report-html.ts, as text a person can read,
// compare and keep beside the signed print. What operators and participants wrote (names, reasons,
// places, prizes, who did what) goes through markdownText, so that it renders as typed and no `<!--`
// in a draw's name hides the rest of the record (src/tools/markdown.ts).
import {
  approximationRule,
  brasiliaTime,
  brDate,
  custodyLine,
  line,
  operatorsLine,
  modeName,
  pendingLine,
  placeText,
  postponement,
  prizeTexts,
  RESULTS_HISTORY_HEADERS,
  resultsRecordCells,
  voidedLine,
  type ReportModel,
} from './report-model.ts';
import { formatPrize } from './formation.ts';
import { describeFormationStep } from './steps.ts';
import { isPublished } from './status.ts';
import { markdownText as md } from '../tools/markdown.ts';

export function reportMarkdown(m: ReportModel): string {
  const { draw, outcome } = m;
  const ex = draw.extraction!;
  const out: string[] = [];
  out.push(`# Ata de apuração: ${md(draw.name)}`, '');
  if (!isPublished(draw.status))
    out.push('**RASCUNHO: sorteio ainda não publicado; os contemplados podem mudar por desclassificação.**', '');
  out.push(
    `- Promoção: ${md(m.campaignName)} (campanha \`${draw.campaign_id}\`, ${modeName(draw)})`,
    `- Certificado de Autorização: ${md(m.identity.authorization)}`,
    `- Promotora: ${md(m.identity.promoter)}, CNPJ ${md(m.identity.promoterDocument)}, ${md(m.identity.promoterAddress)}`,
    `- Sorteio: \`${draw.id}\``,
    `- Local da apuração: ${md(placeText(draw))}`,
    `- Data-limite de participação (corte): ${brasiliaTime(draw.cutoff)}`,
    `- Extração da Loteria Federal: nº ${ex.number}, de ${brDate(ex.date)}${ex.source === 'caixa' ? ' (lida da API de resultados da Caixa)' : ' (digitada pelo operador)'}, registrada em ${brasiliaTime(ex.recorded_at)}`,
  );
  const postponed = postponement(draw);
  if (postponed) out.push(`- Adiamento: ${md(postponed)}`);
  out.push(
    `- Números elegíveis congelados em ${brasiliaTime(draw.frozen_at!)}: ${draw.eligible_count}`,
    `- SHA-256 da lista canônica dos números elegíveis: \`${draw.numbers_sha256}\``,
    `- Apurado em ${brasiliaTime(draw.drawn_at!)}${draw.published_at ? `; publicado em ${brasiliaTime(draw.published_at)}` : ''}`,
    `- ${md(custodyLine(draw))}`,
    `- ${md(operatorsLine(m))}`,
    ...(draw.holders_sha256 === null ? [] : [`- SHA-256 da lista de titulares (\`S/EEEEE;H\`): \`${draw.holders_sha256}\``]),
  );
  const pending = pendingLine(draw);
  if (pending) out.push(`- Participações pendentes: ${md(pending)}`);
  out.push(
    '',
    `A lista canônica tem um número por linha, no formato \`S/EEEEE\` (série com zeros à esquerda, elemento com 5 algarismos), em ordem crescente, cada linha terminada por uma quebra de linha; \`${line(m.reproduce)}\` a reproduz, e seu SHA-256 deve ser o acima.`,
    '',
    '## Resultado da extração',
    '',
    '| Prêmio | Bilhete |',
    '|---|---|',
    ...ex.prizes.map((p, i) => `| ${i + 1}º | ${formatPrize(p)} |`),
    '',
    '## Prêmios por posição',
    '',
    ...(prizeTexts(draw) === null
      ? ['Prêmios não informados no sorteio.']
      : ['| Posição | Prêmio e valor |', '|---|---|', ...prizeTexts(draw)!.map((p) => `| ${p.position}º | ${md(p.text)} |`)]),
    '',
  );
  if (draw.results_history.length > 0)
    out.push(
      '## Registro dos resultados',
      '',
      'Cada registro dos resultados desta extração, o primeiro e cada correção, com quem o fez, quando e por quê; vale o último.',
      '',
      `| ${RESULTS_HISTORY_HEADERS.join(' | ')} |`,
      `|${RESULTS_HISTORY_HEADERS.map(() => '---|').join('')}`,
      ...draw.results_history.map((r) => `| ${resultsRecordCells(r).map(md).join(' | ')} |`),
      '',
    );
  if (m.voided.length > 0)
    out.push('## Sorteios anulados sobre a mesma extração', '', ...m.voided.map((v) => `- ${md(voidedLine(v))}`), '');
  out.push(
    '## Formação do número',
    '',
    `Série: ${draw.series_digits === '' ? 'série única (0)' : draw.series_digits}; elemento: ${draw.element_digits}.`,
    '',
    ...outcome.formed.steps.map((s, i) => `${i + 1}. ${describeFormationStep(s, 'pt')}`),
    '',
    `Número formado: **${outcome.formed.number}**.`,
    '',
    '## Apuração',
    '',
    `Regra de aproximação: ${approximationRule(draw)} ${draw.one_win_per_document ? 'Cada CPF/CNPJ é contemplado uma única vez neste sorteio.' : 'Um mesmo CPF/CNPJ pode ser contemplado mais de uma vez.'}`,
    '',
  );
  for (const w of m.winners) {
    out.push(`### ${w.position}º contemplado: ${w.number}`, '', ...w.steps.map((s, i) => `${i + 1}. ${s}`), '');
  }
  out.push('## Contemplados', '', '| Posição | Número | Documento | Nome | Cidade/UF | Participação |', '|---|---|---|---|---|---|');
  for (const w of m.winners)
    out.push(`| ${w.position}º | ${w.number} | ${md(w.document)} | ${md(w.name)} | ${md(w.place)} | \`${w.entry_id}\` |`);
  out.push('');
  if (draw.unfilled_positions.length > 0)
    out.push(`Posições sem contemplado, por falta de números elegíveis: ${draw.unfilled_positions.map((p) => `${p}º`).join(', ')}.`, '');
  if (draw.disqualified.length > 0) {
    out.push('## Desclassificações', '', '| Posição | Número | Data | Motivo |', '|---|---|---|---|');
    for (const d of draw.disqualified) out.push(`| ${d.position}º | ${d.number} | ${d.disqualified_at} | ${md(d.reason)} |`);
    out.push('', 'Cada posição desclassificada foi preenchida pelo próximo número elegível após o último contemplado.', '');
  }
  out.push(
    '## Assinaturas',
    '',
    'Responsável pela promoção: ______________________________________  CPF: ______________',
    '',
    'Testemunha 1: ______________________________________  CPF: ______________',
    '',
    'Testemunha 2: ______________________________________  CPF: ______________',
    '',
  );
  return out.join('\n');
}
