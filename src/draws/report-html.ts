// The apuração record as printable HTML, to print and sign: one page with its own stylesheet and
// no script, every value escaped (printablePage in src/tools/html.ts, as the prestação de contas).
// The same record as report-markdown.ts.
import { html, printablePage } from '../tools/html.ts';
import {
  approximationRule,
  brasiliaTime,
  brDate,
  custodyLine,
  modeName,
  operatorsLine,
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

export function reportHtml(m: ReportModel): string {
  const { draw, outcome } = m;
  const ex = draw.extraction!;
  const postponed = postponement(draw);
  const pending = pendingLine(draw);
  return printablePage({
    title: `Ata de apuração: ${draw.name}`,
    draft: isPublished(draw.status) ? null : 'RASCUNHO: sorteio ainda não publicado; os contemplados podem mudar por desclassificação.',
    width: '48rem',
    codeSize: '.9em',
    body: html`<table>
        <tr>
          <th scope="row">Promoção</th>
          <td>${m.campaignName} (campanha <code>${draw.campaign_id}</code>, ${modeName(draw)})</td>
        </tr>
        <tr>
          <th scope="row">Certificado de Autorização</th>
          <td>${m.identity.authorization}</td>
        </tr>
        <tr>
          <th scope="row">Promotora</th>
          <td>${m.identity.promoter}, CNPJ ${m.identity.promoterDocument}, ${m.identity.promoterAddress}</td>
        </tr>
        <tr>
          <th scope="row">Sorteio</th>
          <td><code>${draw.id}</code></td>
        </tr>
        <tr>
          <th scope="row">Local da apuração</th>
          <td>${placeText(draw)}</td>
        </tr>
        <tr>
          <th scope="row">Data-limite de participação (corte)</th>
          <td>${brasiliaTime(draw.cutoff)}</td>
        </tr>
        <tr>
          <th scope="row">Extração da Loteria Federal</th>
          <td>
            nº ${ex.number}, de
            ${brDate(ex.date)}${ex.source === 'caixa' ? ' (lida da API de resultados da Caixa)' : ' (digitada pelo operador)'}, registrada
            em ${brasiliaTime(ex.recorded_at)}
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
        <tr>
          <th scope="row">Criação e congelamento</th>
          <td>${custodyLine(draw)}</td>
        </tr>
        <tr>
          <th scope="row">Responsáveis</th>
          <td>${operatorsLine(m)}</td>
        </tr>
        ${
          draw.holders_sha256 === null
            ? null
            : html`<tr>
                <th scope="row">SHA-256 da lista de titulares (<code>S/EEEEE;H</code>)</th>
                <td><code>${draw.holders_sha256}</code></td>
              </tr>`
        }
        ${
          pending
            ? html`<tr>
                <th scope="row">Participações pendentes</th>
                <td>${pending}</td>
              </tr>`
            : null
        }
      </table>
      <p>
        A lista canônica tem um número por linha, no formato <code>S/EEEEE</code>, em ordem crescente; <code>${m.reproduce}</code> a
        reproduz, e seu SHA-256 deve ser o acima.
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
                <td>${formatPrize(p)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h2>Prêmios por posição</h2>
      ${
        prizeTexts(draw) === null
          ? html`<p>Prêmios não informados no sorteio.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">Posição</th>
                  <th scope="col">Prêmio e valor</th>
                </tr>
              </thead>
              <tbody>
                ${prizeTexts(draw)!.map(
                  (p) =>
                    html`<tr>
                      <td>${p.position}º</td>
                      <td>${p.text}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      ${
        draw.results_history.length > 0
          ? html`<h2>Registro dos resultados</h2>
              <p>
                Cada registro dos resultados desta extração, o primeiro e cada correção, com quem o fez, quando e por quê; vale o último.
              </p>
              <table>
                <thead>
                  <tr>
                    ${RESULTS_HISTORY_HEADERS.map((h) => html`<th scope="col">${h}</th>`)}
                  </tr>
                </thead>
                <tbody>
                  ${draw.results_history.map(
                    (r) =>
                      html`<tr>
                        ${resultsRecordCells(r).map((c) => html`<td>${c}</td>`)}
                      </tr>`,
                  )}
                </tbody>
              </table>`
          : null
      }
      ${
        m.voided.length > 0
          ? html`<h2>Sorteios anulados sobre a mesma extração</h2>
              <ul>
                ${m.voided.map((v) => html`<li>${voidedLine(v)}</li>`)}
              </ul>`
          : null
      }
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
            <th scope="col">Cidade/UF</th>
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
                <td>${w.place}</td>
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
      <p class="signature"><span>Testemunha 2 (nome e CPF)</span></p>`,
  });
}
