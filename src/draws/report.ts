// The apuração record (ata) of a draw, in Markdown and in printable HTML, and the regulation clause
// with a worked example. Both are in Portuguese: the record is signed by the promoter's person
// responsible and two witnesses and kept for the SPA; the clause goes into the promotion's plan.
// Everything shown is computed by the code that runs the draw (a published plan once printed an
// example that contradicted its own rule).
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { html, raw, type Html } from '../tools/html.ts';
import { SAO_PAULO_OFFSET_MS } from '../input/timestamps.ts';
import { getDraw, getRunOutcome, maskedWinner, type Draw, type DrawDetail, type RunOutcome } from './draws.ts';
import { formNumber, parseDigits, type DigitSource } from './formation.ts';
import { formatNumber, NumberSet } from './number-set.ts';
import { describeDigitItem, describeFormationStep, describeWinnerStep } from './steps.ts';
import { drawWinners } from './winners.ts';

export type ReportFormat = 'md' | 'html';

/** The extraction the clause's example uses: 1st to 5th prizes of a real plan's worked example. */
export const EXAMPLE_PRIZES = ['12305', '05437', '13526', '02329', '15458'] as const;

/** `2026-12-01T02:59:59.000Z (30/11/2026 23:59:59, horário de Brasília)`. */
export function brasiliaTime(iso: string): string {
  const local = new Date(Date.parse(iso) + SAO_PAULO_OFFSET_MS).toISOString();
  return `${iso} (${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 19)}, horário de Brasília)`;
}

function brDate(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

interface ReportModel {
  campaignName: string;
  draw: DrawDetail;
  outcome: RunOutcome;
  winners: Array<{ position: number; number: string; document: string; name: string; entry_id: string; steps: string[] }>;
}

function buildModel(ctx: Ctx, drawId: string): ReportModel {
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
      };
    }),
  };
}

export function renderDrawReport(ctx: Ctx, drawId: string, format: ReportFormat): string {
  const model = buildModel(ctx, drawId);
  return format === 'md' ? reportMarkdown(model) : reportHtml(model).toString();
}

/** A table cell of Markdown: pipes and line breaks would end the cell or the row. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

function line(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

function modeName(draw: Draw): string {
  return draw.livemode ? 'produção (live)' : 'teste (test)';
}

function postponement(draw: Draw): string | null {
  if (draw.extraction === null || draw.extraction_date === null || draw.extraction_date === draw.extraction.date) return null;
  return `A extração prevista para ${brDate(draw.extraction_date)} não foi utilizada; utilizou-se a extração seguinte, de ${brDate(draw.extraction.date)}.`;
}

function approximationRule(draw: Draw): string {
  return draw.approximation === 'scpc'
    ? 'SCPC: elemento imediatamente superior na mesma série ou, na falta, o imediatamente inferior, até o elegível mais próximo, sem recomeçar a série; série sem elegível passa a busca à série superior, depois à inferior, alternadamente.'
    : 'para cima: o próximo número elegível em ordem crescente de série e elemento; após o último número da última série, o primeiro da série 0.';
}

function reportMarkdown(m: ReportModel): string {
  const { draw, outcome } = m;
  const ex = draw.extraction!;
  const out: string[] = [];
  out.push(`# Ata de apuração: ${line(draw.name)}`, '');
  if (draw.status !== 'published')
    out.push('**RASCUNHO: sorteio ainda não publicado; os contemplados podem mudar por desclassificação.**', '');
  out.push(
    `- Promoção: ${line(m.campaignName)} (campanha \`${draw.campaign_id}\`, ${modeName(draw)})`,
    `- Sorteio: \`${draw.id}\``,
    `- Data-limite de participação (corte): ${brasiliaTime(draw.cutoff)}`,
    `- Extração da Loteria Federal: nº ${ex.number}, de ${brDate(ex.date)}${ex.source === 'caixa' ? ' (lida da API de resultados da Caixa)' : ' (digitada pelo operador)'}, registrada em ${brasiliaTime(ex.recorded_at)}`,
  );
  const postponed = postponement(draw);
  if (postponed) out.push(`- Adiamento: ${postponed}`);
  out.push(
    `- Números elegíveis congelados em ${brasiliaTime(draw.frozen_at!)}: ${draw.eligible_count}`,
    `- SHA-256 da lista canônica dos números elegíveis: \`${draw.numbers_sha256}\``,
    `- Apurado em ${brasiliaTime(draw.drawn_at!)}${draw.published_at ? `; publicado em ${brasiliaTime(draw.published_at)}` : ''}`,
    '',
    'A lista canônica tem um número por linha, no formato `S/EEEEE` (série com zeros à esquerda, elemento com 5 algarismos), em ordem crescente, cada linha terminada por uma quebra de linha; `ces draw numbers ' +
      draw.id +
      '` a reproduz, e seu SHA-256 deve ser o acima.',
    '',
    '## Resultado da extração',
    '',
    '| Prêmio | Bilhete |',
    '|---|---|',
    ...ex.prizes.map((p, i) => `| ${i + 1}º | ${p} |`),
    '',
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
  out.push('## Contemplados', '', '| Posição | Número | Documento | Nome | Participação |', '|---|---|---|---|---|');
  for (const w of m.winners) out.push(`| ${w.position}º | ${w.number} | ${cell(w.document)} | ${cell(w.name)} | \`${w.entry_id}\` |`);
  out.push('');
  if (draw.unfilled_positions.length > 0)
    out.push(`Posições sem contemplado, por falta de números elegíveis: ${draw.unfilled_positions.map((p) => `${p}º`).join(', ')}.`, '');
  if (draw.disqualified.length > 0) {
    out.push('## Desclassificações', '', '| Posição | Número | Data | Motivo |', '|---|---|---|---|');
    for (const d of draw.disqualified) out.push(`| ${d.position}º | ${d.number} | ${d.disqualified_at} | ${cell(d.reason)} |`);
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

const PRINT_CSS = `
body { font: 11pt/1.45 Georgia, 'Times New Roman', serif; color: #000; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #000; } h3 { font-size: 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; } th, td { border: 1px solid #555; padding: .2rem .4rem; text-align: left; vertical-align: top; }
code { font: .9em ui-monospace, monospace; word-break: break-all; } .draft { border: 2px solid #000; padding: .5rem; font-weight: bold; }
.signature { margin-top: 2.5rem; } .signature span { display: inline-block; border-top: 1px solid #000; min-width: 22rem; padding-top: .2rem; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } tr, li { break-inside: avoid; } }
`;

function reportHtml(m: ReportModel): Html {
  const { draw, outcome } = m;
  const ex = draw.extraction!;
  const postponed = postponement(draw);
  return html`<!doctype html>
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Ata de apuração: ${draw.name}</title>
        <style>
          ${raw(PRINT_CSS)}
        </style>
      </head>
      <body>
        <main>
          <h1>Ata de apuração: ${draw.name}</h1>
          ${draw.status !== 'published' ? html`<p class="draft">RASCUNHO: sorteio ainda não publicado; os contemplados podem mudar por desclassificação.</p>` : null}
          <table>
            <tr>
              <th scope="row">Promoção</th>
              <td>${m.campaignName} (campanha <code>${draw.campaign_id}</code>, ${modeName(draw)})</td>
            </tr>
            <tr>
              <th scope="row">Sorteio</th>
              <td><code>${draw.id}</code></td>
            </tr>
            <tr>
              <th scope="row">Data-limite de participação (corte)</th>
              <td>${brasiliaTime(draw.cutoff)}</td>
            </tr>
            <tr>
              <th scope="row">Extração da Loteria Federal</th>
              <td>
                nº ${ex.number}, de
                ${brDate(ex.date)}${ex.source === 'caixa' ? ' (lida da API de resultados da Caixa)' : ' (digitada pelo operador)'},
                registrada em ${brasiliaTime(ex.recorded_at)}
              </td>
            </tr>
            ${
              postponed
                ? html`<tr>
                    <th scope="row">Adiamento</th>
                    <td>${postponed}</td>
                  </tr>`
                : null
            }
            <tr>
              <th scope="row">Números elegíveis</th>
              <td>${draw.eligible_count}, congelados em ${brasiliaTime(draw.frozen_at!)}</td>
            </tr>
            <tr>
              <th scope="row">SHA-256 da lista canônica</th>
              <td><code>${draw.numbers_sha256}</code></td>
            </tr>
            <tr>
              <th scope="row">Apuração</th>
              <td>${brasiliaTime(draw.drawn_at!)}${draw.published_at ? `; publicado em ${brasiliaTime(draw.published_at)}` : ''}</td>
            </tr>
          </table>
          <p>
            A lista canônica tem um número por linha, no formato <code>S/EEEEE</code>, em ordem crescente;
            <code>ces draw numbers ${draw.id}</code> a reproduz, e seu SHA-256 deve ser o acima.
          </p>
          <h2>Resultado da extração</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Prêmio</th>
                <th scope="col">Bilhete</th>
              </tr>
            </thead>
            <tbody>
              ${ex.prizes.map(
                (p, i) =>
                  html`<tr>
                    <td>${i + 1}º</td>
                    <td>${p}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <h2>Formação do número</h2>
          <p>Série: ${draw.series_digits === '' ? 'série única (0)' : draw.series_digits}; elemento: ${draw.element_digits}.</p>
          <ol>
            ${outcome.formed.steps.map((s) => html`<li>${describeFormationStep(s, 'pt')}</li>`)}
          </ol>
          <p>Número formado: <strong>${outcome.formed.number}</strong>.</p>
          <h2>Apuração</h2>
          <p>
            Regra de aproximação: ${approximationRule(draw)}
            ${draw.one_win_per_document ? 'Cada CPF/CNPJ é contemplado uma única vez neste sorteio.' : 'Um mesmo CPF/CNPJ pode ser contemplado mais de uma vez.'}
          </p>
          ${m.winners.map(
            (w) =>
              html`<h3>${w.position}º contemplado: ${w.number}</h3>
                <ol>
                  ${w.steps.map((s) => html`<li>${s}</li>`)}
                </ol>`,
          )}
          <h2>Contemplados</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Posição</th>
                <th scope="col">Número</th>
                <th scope="col">Documento</th>
                <th scope="col">Nome</th>
                <th scope="col">Participação</th>
              </tr>
            </thead>
            <tbody>
              ${m.winners.map(
                (w) =>
                  html`<tr>
                    <td>${w.position}º</td>
                    <td>${w.number}</td>
                    <td>${w.document}</td>
                    <td>${w.name}</td>
                    <td><code>${w.entry_id}</code></td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${draw.unfilled_positions.length > 0 ? html`<p>Posições sem contemplado, por falta de números elegíveis: ${draw.unfilled_positions.map((p) => `${p}º`).join(', ')}.</p>` : null}
          ${
            draw.disqualified.length > 0
              ? html`<h2>Desclassificações</h2>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Posição</th>
                        <th scope="col">Número</th>
                        <th scope="col">Data</th>
                        <th scope="col">Motivo</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${draw.disqualified.map(
                        (d) =>
                          html`<tr>
                            <td>${d.position}º</td>
                            <td>${d.number}</td>
                            <td>${d.disqualified_at}</td>
                            <td>${d.reason}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                  <p>Cada posição desclassificada foi preenchida pelo próximo número elegível após o último contemplado.</p>`
              : null
          }
          <h2>Assinaturas</h2>
          <p class="signature"><span>Responsável pela promoção (nome e CPF)</span></p>
          <p class="signature"><span>Testemunha 1 (nome e CPF)</span></p>
          <p class="signature"><span>Testemunha 2 (nome e CPF)</span></p>
        </main>
      </body>
    </html> `;
}

function describeList(items: DigitSource[]): string {
  const texts = items.map((i) => describeDigitItem(i.kind === 'literal' ? `=${i.digit}` : `${i.prize}${i.place}`, 'pt'));
  return texts.length === 1
    ? `pelo ${texts[0]!}`
    : `pelos seguintes algarismos, da esquerda para a direita: ${texts.slice(0, -1).join(', ')} e ${texts.at(-1)}`;
}

/**
 * The regulation clause for the draw's rules, with a worked example: the example extraction, the
 * number it forms under these rules, and an approximation computed by drawWinners on a small set.
 */
export function renderDrawClause(ctx: Ctx, drawId: string): string {
  const draw = getDraw(ctx, drawId);
  const series = parseDigits(draw.series_digits, 'series');
  const element = parseDigits(draw.element_digits, 'element');
  const isDefaultElement = draw.element_digits === '1u,2u,3u,4u,5u';
  const last = draw.series_count - 1;
  const width = Math.max(1, String(last).length);
  const formed = formNumber([...EXAMPLE_PRIZES], series, element, draw.series_count);
  const fmt = (s: number, e: number): string => formatNumber(s, e, draw.series_count);
  const out: string[] = [];
  out.push(`CLÁUSULA — DA APURAÇÃO (${line(draw.name)})`, '');
  out.push(
    `1. Cada número da sorte é composto de ${draw.series_count === 1 ? 'série única 0' : `série, de ${'0'.padStart(width, '0')} a ${String(last).padStart(width, '0')},`} e de elemento sorteável de 5 (cinco) algarismos, de 00000 a 99999, e é representado como série/elemento.`,
    '',
    `2. O número contemplado será formado a partir dos cinco primeiros prêmios da extração da Loteria Federal${draw.extraction_date ? ` de ${brDate(draw.extraction_date)}` : ''}, lidos de cima para baixo. O elemento sorteável é formado ${isDefaultElement ? 'pelos algarismos da unidade do 1º ao 5º prêmio, nesta ordem' : describeList(element)}.`,
  );
  if (draw.series_count > 1)
    out.push(
      `   A série é formada ${describeList(series)}. Se o número assim formado for maior que ${last}, dele se subtrai ${draw.series_count} tantas vezes quantas necessárias para que fique entre 0 e ${last}.`,
    );
  out.push(
    '',
    '3. São elegíveis os números da sorte atribuídos até a data-limite de participação a participações aprovadas cujo titular não tenha tido seus dados anonimizados a seu pedido; os demais são considerados não distribuídos.' +
      (draw.one_win_per_document
        ? ' Cada CPF/CNPJ poderá ser contemplado uma única vez neste sorteio: o número de titular já contemplado é considerado não elegível.'
        : ''),
    '',
  );
  if (draw.approximation === 'scpc')
    out.push(
      '4. Se o número formado não for elegível, será contemplado o elemento imediatamente superior da mesma série ou, na falta deste, o imediatamente inferior, repetindo-se o procedimento (superior, inferior, alternadamente) até que se encontre o elegível mais próximo. No primeiro ou no último elemento da série, a busca prossegue somente no sentido restante, sem recomeçar a série. Se a série não tiver número elegível, a mesma busca, a partir do mesmo elemento, passa à série imediatamente superior e, na falta desta, à imediatamente inferior, alternadamente.',
    );
  else
    out.push(
      '4. Se o número formado não for elegível, será contemplado o próximo número elegível em ordem crescente de série e elemento; após o último número da última série, segue-se o primeiro número da série 0.',
    );
  out.push(
    '',
    `5. ${draw.winners_count > 1 ? `Os demais ${draw.winners_count - 1} contemplados serão os números elegíveis imediatamente posteriores ao do 1º contemplado, em ordem crescente de série e elemento, recomeçando da primeira série após a última. ` : ''}Um mesmo número não será contemplado mais de uma vez. Se houver menos números elegíveis que prêmios, os prêmios restantes não serão distribuídos por este sorteio.`,
    '',
    '6. O contemplado desclassificado antes da divulgação do resultado terá seu número considerado não elegível, e sua posição será preenchida pelo próximo número elegível após o último contemplado.',
    '',
    '7. Se, por qualquer motivo, a extração da Loteria Federal não ocorrer na data prevista, será considerada a extração seguinte.',
    '',
  );
  // The worked example: the example extraction, and two eligible numbers around the formed one.
  const example = new NumberSet(draw.series_count);
  const below = formed.element >= 2 ? formed.element - 2 : null;
  const above = formed.element <= 99_996 ? formed.element + 3 : null;
  if (below !== null) example.add(formed.series, below);
  if (above !== null) example.add(formed.series, above);
  const result = drawWinners(
    example,
    formed,
    { approximation: draw.approximation, winnersCount: Math.min(2, draw.winners_count), oneWinPerDocument: draw.one_win_per_document },
    (n) => ({ entry_id: fmt(n.series, n.element), enrollment_id: fmt(n.series, n.element) }),
  );
  out.push(
    `8. Exemplo. Se os cinco prêmios da extração forem ${EXAMPLE_PRIZES.slice(0, 4).join(', ')} e ${EXAMPLE_PRIZES[4]}:`,
    '',
    ...formed.series_digits.map((d) => `   - série: ${d.digit}, ${describeDigitItem(d.item, 'pt')} (${d.ticket ?? 'fixo'});`),
    ...(formed.series_reductions > 0
      ? [
          `   - a série lida, ${formed.series_read}, excede ${last}: ${formed.series_read} − ${formed.series_reductions} × ${draw.series_count} = ${formed.series};`,
        ]
      : []),
    ...formed.element_digits.map((d) => `   - elemento: ${d.digit}, ${describeDigitItem(d.item, 'pt')} (${d.ticket ?? 'fixo'});`),
    '',
    `   O número formado é ${fmt(formed.series, formed.element)}. Supondo que ele não tenha sido distribuído e que, na série ${formed.series}, os elegíveis mais próximos sejam ${[
      below,
      above,
    ]
      .filter((e) => e !== null)
      .map((e) => fmt(formed.series, e))
      .join(' e ')}:`,
    '',
    ...result.winners.map(
      (w) =>
        `   - ${w.position}º contemplado: ${fmt(w.series, w.element)} (${w.steps.map((s) => describeWinnerStep(s, draw.series_count, 'pt')).join('; ')}).`,
    ),
    '',
  );
  return out.join('\n');
}
