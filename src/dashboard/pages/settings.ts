// /dashboard/campaigns/new and /dashboard/campaigns/:id/settings: a campaign created or changed with
// the rules of `ces campaign create|update` (createCampaign / updateCampaign, whose validation is the
// only one: a refused form comes back 422 with the domain's message beside each field it names).
// The form always sends every setting: an empty optional field clears it, as "" does on the command
// line, and an unticked box is off. A fiscal verifier URL's password is never shown: the field holds
// the URL masked, and sending the masked URL back leaves it as it is.
import {
  createCampaign,
  getCampaign,
  INSTANT_PRIZE_MODES,
  LUCKY_NUMBER_MODES,
  REQUIRED_FIELDS,
  updateCampaign,
  WEBHOOK_API_ACCESS,
  type Campaign,
  type CampaignOptions,
} from '../../campaigns/campaigns.ts';
import { maskUrlCredentials } from '../../tools/url-credentials.ts';
import { errorFor, field, fieldErrors, inFormWords, isRefusal, select } from '../forms.ts';
import { time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { BASE, campaignPath, layout } from '../layout.ts';
import { action, csrfField, htmlResponse, page, routeParam, seeOther, type ActionRequest, type DashboardRouter } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

export function registerSettingsRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/new',
    page(({ session }) => newCampaignPage(session, formValuesOf(null), new Map(), null)),
  );
  router.post(
    '/campaigns/new',
    action((r) => {
      try {
        const campaign = createCampaign(r.service.ctx, optionsFromForm(r.form, null), r.actor);
        return seeOther(campaignPath(campaign.id));
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return htmlResponse(newCampaignPage(r.session, r.form, fieldErrors(error), inFormWords(error.message)), 422);
      }
    }),
  );
  router.get(
    '/campaigns/:id/settings',
    page(({ event, service, session }) => {
      const campaign = getCampaign(service.ctx, routeParam(event, 'id'));
      const saved = event.url.searchParams.get('saved') === '1';
      return settingsPage(campaign, session, formValuesOf(campaign), new Map(), saved ? null : undefined);
    }),
  );
  router.post(
    '/campaigns/:id/settings',
    action((r: ActionRequest) => {
      const current = getCampaign(r.service.ctx, routeParam(r.event, 'id'));
      try {
        updateCampaign(r.service.ctx, current.id, optionsFromForm(r.form, current), r.actor);
        return seeOther(`${campaignPath(current.id, '/settings')}?saved=1`);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return htmlResponse(settingsPage(current, r.session, r.form, fieldErrors(error), inFormWords(error.message)), 422);
      }
    }),
  );
}

/** The form's fields as CampaignOptions: '' clears an optional setting; an absent box is off. */
function optionsFromForm(form: URLSearchParams, current: Campaign | null): CampaignOptions {
  const clearable = (name: string): string | null => (field(form, name).trim() === '' ? null : field(form, name).trim());
  const verifier = clearable('fiscal_verifier_url');
  const maskedCurrent = current?.fiscal_verifier_url ? maskUrlCredentials(current.fiscal_verifier_url) : null;
  return {
    name: field(form, 'name'),
    startsAt: clearable('starts_at'),
    endsAt: clearable('ends_at'),
    purchaseFrom: clearable('purchase_from'),
    purchaseTo: clearable('purchase_to'),
    require: form.getAll('require').join(','),
    allowCompanies: form.get('allow_companies') === 'on',
    apiEnabled: form.get('api_enabled') === 'on',
    instantPrize: field(form, 'instant_prize'),
    luckyNumbers: field(form, 'lucky_numbers'),
    luckyQuantity: field(form, 'lucky_quantity').trim(),
    seriesCount: field(form, 'series_count').trim(),
    maxEntriesPerParticipant: clearable('max_entries_per_participant'),
    maxEntriesPerDay: clearable('max_entries_per_day'),
    // The masked URL sent back unchanged keeps the stored one (with its password).
    fiscalVerifierUrl: verifier !== null && verifier === maskedCurrent ? undefined : verifier,
    webhookApi: field(form, 'webhook_api'),
    authorization: clearable('authorization'),
    promoter: clearable('promoter'),
    promoterDocument: clearable('promoter_document'),
    promoterAddress: clearable('promoter_address'),
  };
}

/** A campaign's settings as the form's values (a new campaign's defaults when null). */
function formValuesOf(c: Campaign | null): URLSearchParams {
  const values = new URLSearchParams({
    name: c?.name ?? '',
    starts_at: c?.starts_at ?? '',
    ends_at: c?.ends_at ?? '',
    purchase_from: c?.purchase_from ?? '',
    purchase_to: c?.purchase_to ?? '',
    instant_prize: c?.instant_prize ?? 'none',
    lucky_numbers: c?.lucky_numbers ?? 'none',
    lucky_quantity: String(c?.lucky_quantity ?? 1),
    series_count: String(c?.series_count ?? 1),
    max_entries_per_participant: c?.max_entries_per_participant?.toString() ?? '',
    max_entries_per_day: c?.max_entries_per_day?.toString() ?? '',
    fiscal_verifier_url: c?.fiscal_verifier_url ? maskUrlCredentials(c.fiscal_verifier_url) : '',
    webhook_api: c?.webhook_api ?? 'any',
    authorization: c?.authorization ?? '',
    promoter: c?.promoter ?? '',
    promoter_document: c?.promoter_document ?? '',
    promoter_address: c?.promoter_address ?? '',
  });
  for (const f of c?.required_fields ?? []) values.append('require', f);
  if (c === null || c.api_enabled) values.set('api_enabled', 'on');
  if (c?.allow_companies) values.set('allow_companies', 'on');
  return values;
}

function newCampaignPage(session: DashboardSession, values: URLSearchParams, errors: Map<string, string>, message: string | null): Html {
  return layout({
    title: 'New campaign',
    session,
    path: `${BASE}/campaigns/new`,
    body: html`<h1>New campaign</h1>
      ${message ? html`<p class="notice error" role="alert">${message}</p>` : null}
      <p>The same settings as <code>ces campaign create</code>; all but the name can be changed later.</p>
      ${campaignForm(`${BASE}/campaigns/new`, 'Create campaign', session, values, errors)}`,
  });
}

/** `message`: the refusal; null after a save (the notice says so); undefined otherwise. */
function settingsPage(
  campaign: Campaign,
  session: DashboardSession,
  values: URLSearchParams,
  errors: Map<string, string>,
  message: string | null | undefined,
): Html {
  const path = campaignPath(campaign.id, '/settings');
  return layout({
    title: `Settings · ${campaign.name}`,
    session,
    path,
    campaign: { id: campaign.id, name: campaign.name },
    body: html`<h1>Campaign settings</h1>
      ${message === null ? html`<p class="notice success" role="status">Settings saved.</p>` : null}
      ${message ? html`<p class="notice error" role="alert">${message}</p>` : null}
      <p class="muted">
        Campaign <code>${campaign.id}</code>, created ${time(campaign.created_at)}, last changed ${time(campaign.updated_at)}. The same
        rules as <code>ces campaign update</code>.
      </p>
      ${campaignForm(path, 'Save settings', session, values, errors)}`,
  });
}

function campaignForm(path: string, submit: string, session: DashboardSession, v: URLSearchParams, errors: Map<string, string>): Html {
  const text = (name: string, label: string, hint: string | null = null, attrs: Html | null = null): Html =>
    html`<p>
      <label for="f-${name}">${label}</label><br /><input
        id="f-${name}"
        name="${name}"
        value="${v.get(name) ?? ''}"
        size="40"
        ${attrs}${errors.has(name) ? html` aria-invalid="true" aria-describedby="${name}-error"` : null}
      />
      ${hint ? html`<span class="muted">${hint}</span>` : null} ${errorFor(errors, name)}
    </p>`;
  const box = (name: string, label: string): Html =>
    html`<p>
      <label><input type="checkbox" name="${name}" ${v.get(name) === 'on' ? html` checked` : null} /> ${label}</label>
      ${errorFor(errors, name)}
    </p>`;
  const choose = (name: string, label: string, options: readonly string[]): Html =>
    html`<p>
      <label for="f-${name}">${label}</label> ${select(name, options, v.get(name) ?? options[0], `f-${name}`)} ${errorFor(errors, name)}
    </p>`;
  const required = new Set(v.getAll('require'));
  return html`<form method="post" action="${path}" class="card">
    ${csrfField(session)} ${text('name', 'Name', null, html` required maxlength="200"`)}
    <fieldset>
      <legend>Registration and purchase periods (ISO 8601 with its zone, e.g. 2026-12-01T00:00:00-03:00; empty: open-ended)</legend>
      ${text('starts_at', 'Registration opens')} ${text('ends_at', 'Registration closes')}
      ${text('purchase_from', 'Purchases from', 'default: when registration opens')}
      ${text('purchase_to', 'Purchases until', 'default: when registration closes')}
    </fieldset>
    <fieldset>
      <legend>Participants</legend>
      <p>
        Required fields:
        ${REQUIRED_FIELDS.map(
          (f) =>
            html`<label><input type="checkbox" name="require" value="${f}" ${required.has(f) ? html` checked` : null} /> ${f}</label> `,
        )}
        ${errorFor(errors, 'require')}
      </p>
      ${box('allow_companies', 'Accept companies (CNPJ)')}
      ${text('max_entries_per_participant', 'Entries per participant', 'empty: no limit', html` inputmode="numeric"`)}
      ${text('max_entries_per_day', 'Entries per participant per day', 'empty: no limit', html` inputmode="numeric"`)}
    </fieldset>
    <fieldset>
      <legend>Channel and mechanics</legend>
      ${box('api_enabled', 'API channel enabled (off: POST /v1/entries answers 403)')}
      ${choose('instant_prize', 'Instant prize', INSTANT_PRIZE_MODES)} ${choose('lucky_numbers', 'Lucky numbers', LUCKY_NUMBER_MODES)}
      ${text('lucky_quantity', 'Lucky numbers per approved entry', null, html` inputmode="numeric"`)}
      ${text('series_count', 'Series', 'pairs are series × 00000–99999', html` inputmode="numeric"`)}
      ${text('fiscal_verifier_url', 'Fiscal verifier URL', 'https://; empty: none')}
      ${choose('webhook_api', 'API keys that may change the webhook', WEBHOOK_API_ACCESS)}
    </fieldset>
    <fieldset>
      <legend>Identity for the apuração record (as the Certificado de Autorização states it)</legend>
      ${text('authorization', 'Certificado de Autorização number')} ${text('promoter', 'Promoter (razão social)')}
      ${text('promoter_document', "Promoter's CNPJ")} ${text('promoter_address', "Promoter's address")}
    </fieldset>
    <p><button type="submit">${submit}</button></p>
  </form>`;
}
