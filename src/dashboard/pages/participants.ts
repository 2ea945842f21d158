// /dashboard/campaigns/:id/participants?mode=live|test: LGPD data-subject requests, as
// `ces participant export|anonymize` (src/participants/participants.ts): find a participant by the
// CPF or CNPJ the requester gives, download everything held about them (JSON, audited as
// participant.exported), or anonymize them once the operator has typed the document again
// (audited as participant.anonymized). The document travels only in POST bodies, never in a URL:
// a URL stays in the browser's history and in proxies' logs. The page shows it masked.
import { getCampaign } from '../../campaigns/campaigns.ts';
import { findEnrollmentById } from '../../entries/enrollments.repo.ts';
import { parseDocument } from '../../input/documents.ts';
import { toMode, type Mode } from '../../keys/keys.ts';
import {
  anonymizeParticipant,
  exportParticipant,
  findParticipantSummary,
  lookUpParticipant,
  type ParticipantSummary,
} from '../../participants/participants.ts';
import { SERVER_TRUNCATE_RETRIES } from '../../participants/erasure.ts';
import { field } from '../forms.ts';
import { maskDocument } from '../../tools/masking.ts';
import { count, time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import {
  action,
  csrfField,
  download,
  htmlResponse,
  page,
  queryMode,
  routeParam,
  seeOther,
  type DashboardRequest,
  type DashboardRouter,
} from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

export function registerParticipantsRoutes(router: DashboardRouter): void {
  const base = '/campaigns/:id/participants';
  router.get(
    base,
    page((r) => participantsPage(r, queryMode(r.event), {})),
  );
  router.post(
    `${base}/find`,
    action((r) => {
      const mode = formMode(r.form);
      const found = lookUpParticipant(r.service.ctx, request(r, mode), r.actor);
      return participantsPage(r, mode, { found, document: field(r.form, 'document') });
    }),
  );
  router.post(
    `${base}/export`,
    action((r) => {
      const mode = formMode(r.form);
      const document = exportParticipant(r.service.ctx, request(r, mode), r.actor);
      const enrollmentId = (document.enrollment as { id: string }).id;
      return download(`${JSON.stringify(document, null, 2)}\n`, 'application/json; charset=utf-8', `participant-${enrollmentId}.json`);
    }),
  );
  router.post(
    `${base}/anonymize`,
    action((r) => {
      const mode = formMode(r.form);
      const req = request(r, mode);
      if (!sameDocument(req.document, field(r.form, 'confirm'))) {
        // Nothing changes: the page comes back with the participant and what to type.
        const found = findParticipantSummary(r.service.ctx, req);
        const refusal = 'The confirmation does not match: type the participant’s CPF or CNPJ exactly to anonymize them.';
        return htmlResponse(participantsPage(r, mode, { found, document: req.document, refusal }), 422);
      }
      const reason = field(r.form, 'reason').trim();
      // A try or two on the event loop; the tick completes an erasure that waits for a reader.
      const result = anonymizeParticipant(r.service.ctx, { ...req, reason: reason === '' ? null : reason }, r.actor, {
        truncateRetries: SERVER_TRUNCATE_RETRIES,
      });
      const query = new URLSearchParams({ anonymized: result.enrollment_id });
      if (result.erasure !== 'done') query.set('erasure', result.erasure);
      if (mode === 'test') query.set('mode', 'test');
      return seeOther(`${campaignPath(req.campaignId, '/participants')}?${query}`);
    }),
  );
}

function formMode(form: URLSearchParams): Mode {
  return toMode(field(form, 'mode') || 'live');
}

function request(r: DashboardRequest & { form: URLSearchParams }, mode: Mode): { campaignId: string; livemode: number; document: string } {
  return { campaignId: routeParam(r.event, 'id'), livemode: mode === 'live' ? 1 : 0, document: field(r.form, 'document') };
}

/** The typed confirmation names the same document (punctuation and case forgiven, as everywhere). */
function sameDocument(document: string, confirmation: string): boolean {
  const a = parseDocument(document);
  const b = parseDocument(confirmation);
  return a.ok && b.ok && a.number === b.number;
}

interface Shown {
  found?: ParticipantSummary;
  /** As the operator typed it, carried to the export and anonymize forms. */
  document?: string;
  refusal?: string;
}

/**
 * The participant the notice after an anonymisation names (?anonymized=ID): only one of this
 * campaign who is anonymized, so that a link cannot make the page say that someone was.
 */
function anonymizedShown(r: DashboardRequest, campaignId: string): string | null {
  const id = r.event.url.searchParams.get('anonymized');
  const enrollment = id === null ? undefined : findEnrollmentById(r.service.ctx.db, id);
  return enrollment?.campaign_id === campaignId && enrollment.anonymized_at !== null ? enrollment.id : null;
}

function participantsPage(r: DashboardRequest, mode: Mode, shown: Shown): Html {
  const campaign = getCampaign(r.service.ctx, routeParam(r.event, 'id'));
  const path = campaignPath(campaign.id, '/participants');
  const anonymized = anonymizedShown(r, campaign.id);
  const other = mode === 'live' ? 'test' : 'live';
  return layout({
    title: `Participants · ${campaign.name}`,
    session: r.session,
    path,
    campaign: { id: campaign.id, name: campaign.name, mode },
    body: html`<h1>Participants (LGPD) <span class="badge">${mode}</span></h1>
      <p><a href="${path}${other === 'test' ? '?mode=test' : ''}">Show ${other} mode</a></p>
      ${
        anonymized
          ? html`<p class="notice success" role="status">
              Participant ${anonymized} anonymized: personal data replaced; entries, awards, lucky numbers and consent records kept.
              ${erasureNotice(r.event.url.searchParams.get('erasure'))}
              <a href="${BASE}/audit?campaign=${campaign.id}&amp;action=participant.anonymized">See the audit log</a>.
            </p>`
          : null
      }
      <p>
        A data subject’s request names them by CPF or CNPJ. Find them here, then download everything held about them or anonymize them. Both
        are recorded in the audit log under your name.
      </p>
      <form class="filters" method="post" action="${path}/find">
        ${csrfField(r.session)}
        <input type="hidden" name="mode" value="${mode}" />
        <label for="find-document"
          >CPF or CNPJ
          <input id="find-document" name="document" required autocomplete="off" value="${shown.found ? '' : (shown.document ?? '')}"
        /></label>
        <button type="submit">Find participant</button>
      </form>
      ${shown.found ? participantCard(path, mode, shown.found, shown.document ?? '', r.session, shown.refusal ?? null) : null}`,
  });
}

function participantCard(
  path: string,
  mode: Mode,
  p: ParticipantSummary,
  document: string,
  session: DashboardSession,
  refusal: string | null,
): Html {
  const hidden = html`${csrfField(session)}<input type="hidden" name="mode" value="${mode}" /><input
      type="hidden"
      name="document"
      value="${document}"
    />`;
  return html`<section class="card" aria-labelledby="participant-title">
    <h2 id="participant-title">Participant ${maskDocument(p.document_type, p.document_number)}</h2>
    <table>
      <tbody>
        <tr>
          <th scope="row">Enrollment</th>
          <td class="mono">${p.enrollment_id}</td>
        </tr>
        <tr>
          <th scope="row">Document</th>
          <td>${p.document_type.toUpperCase()} ${maskDocument(p.document_type, p.document_number)}</td>
        </tr>
        <tr>
          <th scope="row">Entries</th>
          <td>${count(p.entries)}</td>
        </tr>
        <tr>
          <th scope="row">Enrolled</th>
          <td>${time(p.created_at)}</td>
        </tr>
      </tbody>
    </table>
    <h3>Access request</h3>
    <form class="filters" method="post" action="${path}/export">
      ${hidden}
      <button type="submit">Download everything held (JSON)</button>
    </form>
    <h3>Anonymize</h3>
    <p>
      Replaces the participant’s name, document, contacts, address and the consents’ IP address and browser; entries, awards, lucky numbers
      and consent records stay for the campaign’s audit. This cannot be undone.
    </p>
    ${refusal ? html`<p class="notice error" role="alert">${refusal}</p>` : null}
    <form class="filters" method="post" action="${path}/anonymize">
      ${hidden}
      <label for="anonymize-confirm"
        >Type the participant’s CPF or CNPJ to confirm
        <input id="anonymize-confirm" name="confirm" required autocomplete="off" ${refusal ? html` aria-invalid="true"` : null}
      /></label>
      <label for="anonymize-reason"
        >Reason (e.g. the request’s ticket) <input id="anonymize-reason" name="reason" maxlength="1000"
      /></label>
      <button type="submit" class="danger">Anonymize participant</button>
    </form>
  </section>`;
}

/**
 * What the notice adds about the erasure from the file (src/participants/erasure.ts): fixed words
 * for the two states that are not "done", nothing else whatever the query says.
 */
function erasureNotice(erasure: string | null): string | null {
  if (erasure === 'waiting_for_readers')
    return 'Older copies of the changed pages stay in the database files while a reader holds a snapshot: the server erases them once it ends (participant.erasure_completed; /healthz shows how many wait).';
  if (erasure === 'left_to_litestream')
    return 'Older copies of the changed pages stay in the WAL and the replica until Litestream checkpoints and its retention drops them (CES_CHECKPOINTS=external).';
  return null;
}
