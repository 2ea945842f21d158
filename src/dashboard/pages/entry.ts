// GET /dashboard/entries/:entryId: one entry's timeline (received, checks, mechanics, awards and
// their history, lucky numbers, every webhook event with its attempts and answers), its
// participant masked; POST …/personal-data shows the participant unmasked (audited as
// participant.viewed, answered at once with Cache-Control: no-store, never redirected to);
// POST …/deliveries/:deliveryId/redeliver queues an event again (as `ces webhook redeliver`).
import { formatNumber } from '../../draws/number-set.ts';
import { AppError } from '../../kernel/errors.ts';
import type { EnrollmentRow } from '../../entries/enrollments.repo.ts';
import { viewParticipantOfEntry } from '../../participants/participant-view.ts';
import { maskUrlCredentials } from '../../tools/url-credentials.ts';
import { redeliver } from '../../webhooks/deliveries.ts';
import { duration, time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import { formatDocument, maskDocument, maskEmail, maskName, maskOther, maskPhone } from '../../tools/masking.ts';
import { action, csrfField, page, routeParam, seeOther, type DashboardRouter } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';
import { entryTimeline, type EntryTimeline } from '../timeline.ts';

export function registerEntryRoutes(router: DashboardRouter): void {
  router.get(
    '/entries/:entryId',
    page(({ event, service, session }) => {
      const timeline = entryTimeline(service.ctx, routeParam(event, 'entryId'));
      return entryPage(timeline, session, null, event.url.searchParams.get('redelivered'));
    }),
  );

  router.post(
    '/entries/:entryId/personal-data',
    action(({ event, service, session, actor }) => {
      const entryId = routeParam(event, 'entryId');
      const enrollment = viewParticipantOfEntry(service.ctx, entryId, actor);
      return entryPage(entryTimeline(service.ctx, entryId), session, enrollment, null);
    }),
  );

  router.post(
    '/entries/:entryId/deliveries/:deliveryId/redeliver',
    action(({ event, service, actor }) => {
      const entryId = routeParam(event, 'entryId');
      const deliveryId = routeParam(event, 'deliveryId', { caseSensitive: true });
      const timeline = entryTimeline(service.ctx, entryId);
      if (!timeline.deliveries.some((d) => d.id === deliveryId))
        throw new AppError(404, 'not_found', 'That webhook event is not one of this entry.');
      redeliver(service.ctx, deliveryId, actor);
      return seeOther(`${BASE}/entries/${entryId}?redelivered=${encodeURIComponent(deliveryId)}`);
    }),
  );
}

/**
 * The notice after a redelivery (?redelivered=ID): only for an event of this entry, named as
 * stored. The query is a link anyone can send an operator, so its text is never shown: a success
 * notice saying whatever the link says would be a message from the dashboard that it never wrote.
 */
function redeliveredNotice(t: EntryTimeline, redelivered: string | null): Html | null {
  const delivery = redelivered === null ? undefined : t.deliveries.find((d) => d.id === redelivered);
  if (delivery === undefined) return null;
  return html`<p class="notice success" role="status">Webhook event <span class="mono">${delivery.id}</span> queued again.</p>`;
}

function entryPage(t: EntryTimeline, session: DashboardSession, unmasked: EnrollmentRow | null, redelivered: string | null): Html {
  const mode = t.entry.livemode === 1 ? 'live' : 'test';
  return layout({
    title: `Entry ${t.entry.id}`,
    session,
    campaign: { id: t.campaign.id, name: t.campaign.name, mode },
    body: html`<h1>Entry <span class="mono">${t.entry.id}</span></h1>
      <p>
        <a href="${campaignPath(t.campaign.id, '/entries')}${mode === 'test' ? '?mode=test' : ''}">All entries of ${t.campaign.name}</a>
      </p>
      ${redeliveredNotice(t, redelivered)}
      <dl class="figures">
        <div>
          <dt>Status</dt>
          <dd>${t.entry.status.toLowerCase()}</dd>
        </div>
        <div>
          <dt>Mode</dt>
          <dd>${mode}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>${time(t.entry.created_at)}</dd>
        </div>
      </dl>
      <h2>Participant</h2>
      ${participant(t, session, unmasked)}
      <h2>Timeline</h2>
      ${timeline(t, session)}`,
  });
}

function participant(t: EntryTimeline, session: DashboardSession, unmasked: EnrollmentRow | null): Html {
  const e = t.enrollment;
  if (e.anonymized_at) return html`<p class="muted">Anonymized at ${time(e.anonymized_at)} (LGPD request); nothing personal is held.</p>`;
  const show = unmasked !== null;
  const rows: Array<[string, string | null]> = [
    [
      'Document',
      show
        ? `${e.document_type.toUpperCase()} ${formatDocument(e.document_type, e.document_number)}`
        : `${e.document_type.toUpperCase()} ${maskDocument(e.document_type, e.document_number)}`,
    ],
    ['Name', show ? e.full_name : maskName(e.full_name)],
    ['E-mail', show ? e.email : maskEmail(e.email)],
    ['Phone', show ? (e.phone === null ? null : `+${e.phone}`) : maskPhone(e.phone)],
    ['Birthdate', show ? e.birthdate : maskOther(e.birthdate)],
    [
      'Address',
      show ? [e.address_line_1, e.address_line_2, e.neighborhood].filter((v) => v).join(', ') || null : maskOther(e.address_line_1),
    ],
    ['City', show ? e.city : maskOther(e.city)],
    ['State', e.state],
    ['Zip code', show ? e.zipcode : maskOther(e.zipcode)],
  ];
  return html`<table>
      <tbody>
        ${rows.map(
          ([label, value]) =>
            html`<tr>
              <th scope="row">${label}</th>
              <td>${value ?? html`<span class="muted">–</span>`}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p class="muted">Enrollment <span class="mono">${e.id}</span>, since ${time(e.created_at)}.</p>
    ${
      show
        ? html`<p class="notice" role="status">
            Personal data shown to you, ${session.name}; this view is recorded in the audit log (participant.viewed). Reloading the page
            masks it again.
          </p>`
        : html`<form method="post" action="${BASE}/entries/${t.entry.id}/personal-data">
              ${csrfField(session)}<button type="submit" class="secondary">Show personal data</button>
            </form>
            <p class="muted">Showing it records a participant.viewed entry in the audit log under your name.</p>`
    }`;
}

interface Step {
  at: string;
  title: Html;
  body: Html | null;
}

function timeline(t: EntryTimeline, session: DashboardSession): Html {
  const e = t.entry;
  const steps: Step[] = [
    {
      at: e.created_at,
      title: html`Received`,
      body: html`<p>
        Evidence <code>${e.evidence_type}</code>
        <span class="mono">${e.access_key}</span>${e.api_key_id ? html`, through API key <span class="mono">${e.api_key_id}</span>` : null}.
        ${t.consent ? html`Consent to terms ${t.consent.term_version} given at ${time(t.consent.granted_at)}: ${t.consent.choices.map((c) => `${c.consent_type} ${c.granted ? 'yes' : 'no'}`).join(', ')}.` : null}
      </p>`,
    },
  ];
  for (const job of t.jobs)
    steps.push({
      at: job.run_at,
      title: html`Waiting: ${job.kind === 'process' ? 'checks' : 'mechanics'} ${job.attempts > 0 ? html`(retry ${job.attempts})` : null}`,
      body: job.last_error ? html`<p class="warn">Last error: ${job.last_error}</p>` : null,
    });
  if (e.processed_at) {
    const reasons = JSON.parse(e.rejection_reasons) as Array<{ code: string; message: string }>;
    steps.push({
      at: e.processed_at,
      title: html`Checks: <span class="${e.status === 'APPROVED' ? 'ok' : 'bad'}">${e.status.toLowerCase()}</span>`,
      body:
        reasons.length === 0
          ? null
          : html`<ul>
              ${reasons.map((r) => html`<li><code>${r.code}</code>: ${r.message}</li>`)}
            </ul>`,
    });
  }
  if (e.evaluated_at) {
    const mechanics = (e.mechanics === null ? [] : JSON.parse(e.mechanics)) as Array<{
      mechanic_type: string;
      status: string;
      outcome: unknown;
    }>;
    steps.push({
      at: e.evaluated_at,
      title: html`Mechanics evaluated`,
      body: html`${
        mechanics.length === 0
          ? html`<p class="muted">No mechanic applies.</p>`
          : html`<ul>
              ${mechanics.map((m) => html`<li><code>${m.mechanic_type}</code> ${m.status}: <code>${JSON.stringify(m.outcome)}</code></li>`)}
            </ul>`
      }${t.luckyNumbers.length > 0 ? html`<p>Lucky numbers: ${t.luckyNumbers.map((n, i) => html`${i > 0 ? ', ' : ''}<span class="mono">${formatNumber(Number(n.series), Number(n.order_number), t.campaign.series_count)}</span>`)}</p>` : null}`,
    });
  }
  for (const award of t.awards)
    steps.push({
      at: award.created_at,
      title: html`Award of ${award.prize_name ?? award.prize_id} (${award.source}): ${award.status}`,
      body: html`<table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">By</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          ${award.history.map(
            (h) =>
              html`<tr>
                <td>${time(h.at)}</td>
                <td>${h.from_status ?? '–'}</td>
                <td>${h.to_status}</td>
                <td>${h.actor}</td>
                <td>${h.reason ?? ''}</td>
              </tr>`,
          )}
        </tbody>
      </table>`,
    });
  for (const d of t.deliveries)
    steps.push({
      at: d.created_at,
      title: html`Webhook <code>${d.event_type}</code>: ${d.status}${d.held ? ' (held while delivery is paused)' : ''}`,
      body: html`<p class="muted mono">${d.id}</p>
        ${
          d.attempt_log.length === 0
            ? html`<p class="muted">No attempt yet${d.next_attempt_at ? html`; next at ${time(d.next_attempt_at)}` : null}.</p>`
            : html`<table>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">URL</th>
                    <th scope="col">Answer</th>
                    <th scope="col">Time</th>
                    <th scope="col">Receiver said</th>
                  </tr>
                </thead>
                <tbody>
                  ${d.attempt_log.map(
                    (a) =>
                      html`<tr>
                        <td>${time(a.attempted_at)}</td>
                        <td class="mono">${a.url ? maskUrlCredentials(a.url) : '–'}</td>
                        <td>
                          ${a.status_code !== null ? html`<span class="${a.status_code >= 200 && a.status_code < 300 ? 'ok' : 'bad'}">${a.status_code}</span>` : html`<span class="bad">${a.error ?? 'no answer'}</span>`}
                        </td>
                        <td>${a.latency_ms === null ? '–' : duration(a.latency_ms)}</td>
                        <td><code>${a.response_excerpt ?? ''}</code></td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
        ${
          d.status === 'delivered' || d.status === 'failed'
            ? html`<form method="post" action="${BASE}/entries/${t.entry.id}/deliveries/${d.id}/redeliver">
                ${csrfField(session)}<button type="submit" class="secondary">Redeliver</button>
              </form>`
            : null
        }`,
    });
  steps.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return html`<ol class="timeline">
    ${steps.map(
      (s) =>
        html`<li>
          <p><strong>${s.title}</strong> · ${time(s.at)}</p>
          ${s.body}
        </li>`,
    )}
  </ol>`;
}
