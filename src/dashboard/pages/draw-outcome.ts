// The part of a draw's page that exists once it has run (pages/draw.ts): the winners with their
// entry and masked document, the derivation step by step (draw-steps.ts), the disqualified winners
// with their reasons, and, until publication, the Disqualify and Publish forms with their typed
// confirmations. A refused action's reason is shown beside its form. What publishing does with
// draw.published is said as the campaign's webhook stands (webhookState): sent when it is
// configured and active, never sent when it is paused or there is none (src/webhooks/events.ts).
import { formatPrize } from '../../draws/formation.ts';
import type { DrawDetail, RunOutcome } from '../../draws/model.ts';
import { canDisqualify } from '../../draws/status.ts';
import type { Ctx } from '../../kernel/context.ts';
import { findWebhookConfig } from '../../webhooks/webhook-config.repo.ts';
import { formationList, picksTable } from '../draw-steps.ts';
import { count, zonedTime } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE } from '../layout.ts';
import { csrfField } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';
import { drawPath } from './draws.ts';

export type FormName = 'freeze' | 'results' | 'fetch' | 'run' | 'disqualify' | 'publish' | 'void';

/** The campaign's webhook as draw.published meets it: an event queued while it is paused or absent is skipped for good. */
type WebhookState = 'active' | 'paused' | 'none';

export function webhookState(ctx: Ctx, campaignId: string): WebhookState {
  const config = findWebhookConfig(ctx.db, campaignId);
  return config === undefined ? 'none' : config.is_active === 1 ? 'active' : 'paused';
}

/** What happens to draw.published, said before publishing and after it. */
export const WEBHOOK_ON_PUBLISH: Record<WebhookState, string> = {
  active: 'draw.published is sent to the campaign’s webhook with the extraction and the winners.',
  paused:
    'The campaign’s webhook is paused: draw.published is recorded as skipped and is never sent, not even when the webhook is switched back on. Tell the partner another way.',
  none: 'The campaign has no webhook: draw.published is recorded as skipped and sent to no one.',
};

export interface Refusal {
  form: FormName;
  message: string;
  values: URLSearchParams;
}

export const refusalNotice = (refusal: Refusal | null, form: FormName): Html | null =>
  refusal?.form === form ? html`<p class="notice error" role="alert">${refusal.message}</p>` : null;

function entryLink(entryId: string): Html {
  return html`<a class="mono" href="${BASE}/entries/${entryId}">${entryId}</a>`;
}

export function outcomeSections(
  draw: DrawDetail,
  outcome: RunOutcome,
  documents: Map<string, string>,
  session: DashboardSession,
  refusal: Refusal | null,
  webhook: WebhookState,
): Html {
  const unfilled = outcome.unfilled_positions;
  return html`<h2>Winners</h2>
    ${
      unfilled.length > 0
        ? html`<p class="notice error">
            Fewer eligible numbers than winners: ${count(unfilled.length)} of ${count(draw.winners_count)} positions stay empty
            (${unfilled.join(', ')}).
          </p>`
        : null
    }
    <table>
      <thead>
        <tr>
          <th scope="col" class="num">Position</th>
          <th scope="col">Number</th>
          <th scope="col">Entry</th>
          <th scope="col">Document</th>
        </tr>
      </thead>
      <tbody>
        ${draw.winners.map(
          (w) =>
            html`<tr>
              <td class="num">${w.position}</td>
              <td class="mono">${w.number}</td>
              <td>${entryLink(w.entry_id)}</td>
              <td>${documents.get(w.entry_id) ?? '***'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <h2>Derivation, step by step</h2>
    <p>
      From extraction ${draw.extraction!.number} of ${draw.extraction!.date} (prizes
      ${draw.extraction!.prizes.map(formatPrize).join(', ')}), series digits
      <code>${draw.series_digits || 'none'}</code>, element digits <code>${draw.element_digits}</code>, approximation
      <code>${draw.approximation}</code>, over the ${count(draw.eligible_count ?? 0)} frozen numbers.
    </p>
    <h3>The formed number</h3>
    ${formationList(outcome.formed.steps, outcome.formed.number)}
    <h3>Each position</h3>
    ${picksTable(draw)}
    <h2>Disqualified winners</h2>
    ${
      draw.disqualified.length === 0
        ? html`<p class="muted">None.</p>`
        : html`<table>
            <thead>
              <tr>
                <th scope="col" class="num">Position</th>
                <th scope="col">Number</th>
                <th scope="col">Entry</th>
                <th scope="col">Document</th>
                <th scope="col">Reason</th>
                <th scope="col">Disqualified</th>
              </tr>
            </thead>
            <tbody>
              ${draw.disqualified.map(
                (d) =>
                  html`<tr>
                    <td class="num">${d.position}</td>
                    <td class="mono">${d.number}</td>
                    <td>${entryLink(d.entry_id)}</td>
                    <td>${documents.get(d.entry_id) ?? '***'}</td>
                    <td>${d.reason}</td>
                    <td>${zonedTime(d.disqualified_at)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    ${
      canDisqualify(draw.status)
        ? finalForms(draw, session, refusal, webhook)
        : html`<h2>Publish</h2>
            <p>Published ${zonedTime(draw.published_at)}: the winners are final.</p>`
    }`;
}

function finalForms(draw: DrawDetail, session: DashboardSession, refusal: Refusal | null, webhook: WebhookState): Html {
  const typed = (form: FormName, name: string): string => (refusal?.form === form ? (refusal.values.get(name) ?? '') : '');
  const invalid = (form: FormName): Html | null => (refusal?.form === form ? html` aria-invalid="true"` : null);
  return html`<h3>Disqualify a winner</h3>
    <p>
      The number becomes not eligible and its position is filled with the next eligible number after the last one picked; the other
      positions do not change. Recorded with the reason.
    </p>
    ${refusalNotice(refusal, 'disqualify')}
    <form class="filters" method="post" action="${drawPath(draw.id, '/disqualify')}">
      ${csrfField(session)}
      <label for="disqualify-position"
        >Position
        <input id="disqualify-position" name="position" inputmode="numeric" required size="6" value="${typed('disqualify', 'position')}"
      /></label>
      <label for="disqualify-reason"
        >Reason <input id="disqualify-reason" name="reason" required maxlength="1000" value="${typed('disqualify', 'reason')}"
      /></label>
      <label for="disqualify-confirm"
        >Type the winner’s number to confirm
        <input id="disqualify-confirm" name="confirm" required autocomplete="off" placeholder="S/EEEEE" ${invalid('disqualify')}
      /></label>
      <button type="submit" class="danger">Disqualify winner</button>
    </form>
    <h2>Publish</h2>
    <p>Publishing is final: the winners can no longer change.</p>
    <p class="${webhook === 'active' ? 'muted' : 'notice error'}" id="publish-webhook">${WEBHOOK_ON_PUBLISH[webhook]}</p>
    ${refusalNotice(refusal, 'publish')}
    <form class="filters" method="post" action="${drawPath(draw.id, '/publish')}">
      ${csrfField(session)}
      <label for="publish-confirm"
        >Type the draw’s name to confirm <input id="publish-confirm" name="confirm" required autocomplete="off" ${invalid('publish')}
      /></label>
      <button type="submit">Publish draw</button>
    </form>`;
}
