// /dashboard/campaigns/:id/keys: the campaign's API keys, as `ces key issue|list|rotate|revoke`
// (src/keys/keys.ts, audited as dashboard:<name>). A new key is shown once, in the answer to the
// POST that issues it (200, no-store: nothing to redirect to, the secret exists nowhere else);
// rotating shows the replacing key the same way; revoking redirects back to the list. Revoking, and
// rotating without a grace period (the old key stops at once), ask first (confirm.ts).
import { getCampaign, type Campaign } from '../../campaigns/campaigns.ts';
import { notFound } from '../../kernel/errors.ts';
import { issueKey, listKeys, MODES, revokeKey, rotateKey, type ApiKey, type IssuedKey } from '../../keys/keys.ts';
import { MAX_GRACE_SECONDS, parseGraceSeconds } from '../../input/grace.ts';
import { confirmFirst } from '../confirm.ts';
import { field, secretOnce, select } from '../forms.ts';
import { time } from '../format.ts';
import { html, type Html } from '../../tools/html.ts';
import { campaignPath, layout } from '../layout.ts';
import { action, csrfField, page, routeParam, seeOther, type DashboardRequest, type DashboardRouter } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

export function registerKeysRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/keys',
    page((r) => keysPage(r, null)),
  );
  router.post(
    '/campaigns/:id/keys',
    action((r) => {
      const campaignId = routeParam(r.event, 'id');
      const label = field(r.form, 'label').trim();
      const issued = issueKey(r.service.ctx, { campaignId, mode: field(r.form, 'mode'), label: label === '' ? null : label }, r.actor);
      return keysPage(r, { issued, title: `New ${issued.mode} key` });
    }),
  );
  router.post(
    '/campaigns/:id/keys/:keyId/rotate',
    action((r) => {
      const key = keyOfCampaign(r);
      const grace = parseGraceSeconds(field(r.form, 'grace').trim() || '0');
      // Without a grace period the old key stops at once, as a revoke does: asked first.
      const confirmation =
        grace === 0 &&
        confirmFirst(r, {
          question: `Rotate key ${key.prefix}… without a grace period?`,
          consequence: `The old ${key.mode} key stops working at once: every request the integrator still sends with it is refused (401) until they switch to the new key. A grace period keeps it working meanwhile.`,
          button: 'Rotate now, no grace',
          back: campaignPath(key.campaign_id, '/keys'),
        });
      if (confirmation) return confirmation;
      const { issued, revoked } = rotateKey(r.service.ctx, key.id, grace, r.actor);
      return keysPage(r, { issued, title: `Key ${key.prefix}… rotated`, replaced: revoked });
    }),
  );
  router.post(
    '/campaigns/:id/keys/:keyId/revoke',
    action((r) => {
      const key = keyOfCampaign(r);
      const confirmation = confirmFirst(r, {
        question: `Revoke key ${key.prefix}…?`,
        consequence: `Every request with this ${key.mode} key is refused (401) from now on${key.label ? ` (${key.label})` : ''}. A revoked key cannot be brought back: the integrator needs a new one.`,
        button: 'Revoke the key',
        back: campaignPath(key.campaign_id, '/keys'),
      });
      if (confirmation) return confirmation;
      revokeKey(r.service.ctx, key.id, r.actor);
      return seeOther(campaignPath(key.campaign_id, '/keys'));
    }),
  );
}

/** The key named in the URL, if it is one of the campaign's (404 otherwise: a key id of another campaign changes nothing). */
function keyOfCampaign(r: DashboardRequest): ApiKey {
  const keyId = routeParam(r.event, 'keyId');
  const key = listKeys(r.service.ctx, routeParam(r.event, 'id')).find((k) => k.id === keyId);
  if (!key) throw notFound('API key');
  return key;
}

interface JustIssued {
  issued: IssuedKey;
  title: string;
  replaced?: ApiKey;
}

function keysPage(r: DashboardRequest, justIssued: JustIssued | null): Html {
  const campaign = getCampaign(r.service.ctx, routeParam(r.event, 'id'));
  const keys = listKeys(r.service.ctx, campaign.id);
  return layout({
    title: `Keys · ${campaign.name}`,
    session: r.session,
    path: campaignPath(campaign.id, '/keys'),
    campaign: { id: campaign.id, name: campaign.name },
    body: renderKeys(campaign, keys, r.session, r.service.ctx.clock.now(), justIssued),
  });
}

function renderKeys(campaign: Campaign, keys: ApiKey[], session: DashboardSession, nowMs: number, just: JustIssued | null): Html {
  const path = campaignPath(campaign.id, '/keys');
  return html`<h1>API keys</h1>
    ${
      just
        ? html`<section class="card" aria-labelledby="new-key-title">
            <h2 id="new-key-title">${just.title}</h2>
            <p>Give this ${just.issued.mode} key to the integrator (Authorization: Bearer …).</p>
            ${secretOnce('new-key', just.issued.key)}
            ${
              just.replaced
                ? html`<p>
                    The replaced key ${just.replaced.prefix}…
                    ${
                      just.replaced.revoked_at !== null && Date.parse(just.replaced.revoked_at) > nowMs
                        ? html`keeps working until ${time(just.replaced.revoked_at)}.`
                        : html`is revoked now.`
                    }
                  </p>`
                : null
            }
          </section>`
        : null
    }
    <p>A key belongs to this campaign and one mode. Its secret is shown only when it is issued; the list shows the first characters.</p>
    <table>
      <caption class="visually-hidden">
        Keys of the campaign
      </caption>
      <thead>
        <tr>
          <th scope="col">Prefix</th>
          <th scope="col">Mode</th>
          <th scope="col">Label</th>
          <th scope="col">Issued</th>
          <th scope="col">State</th>
          <th scope="col">Rotate</th>
          <th scope="col">Revoke</th>
        </tr>
      </thead>
      <tbody>
        ${
          keys.length === 0
            ? html`<tr>
                <td colspan="7" class="muted">No keys yet.</td>
              </tr>`
            : keys.map((k) => keyRow(k, path, session, nowMs))
        }
      </tbody>
    </table>
    <h2>Issue a key</h2>
    <form class="filters" method="post" action="${path}">
      ${csrfField(session)}
      <label for="issue-mode">Mode ${select('mode', MODES, 'test', 'issue-mode')}</label>
      <label for="issue-label">Label (optional) <input id="issue-label" name="label" maxlength="200" /></label>
      <button type="submit">Issue key</button>
    </form>`;
}

function keyRow(k: ApiKey, path: string, session: DashboardSession, nowMs: number): Html {
  const revokedAt = k.revoked_at === null ? null : Date.parse(k.revoked_at);
  const revoked = revokedAt !== null && revokedAt <= nowMs;
  const state =
    revokedAt === null
      ? html`<span class="ok">active</span>`
      : revoked
        ? html`<span class="bad">revoked</span> ${time(k.revoked_at)}`
        : html`<span class="warn">active until</span> ${time(k.revoked_at)}`;
  const keyPath = `${path}/${encodeURIComponent(k.id)}`;
  return html`<tr>
    <td class="mono">${k.prefix}…</td>
    <td>${k.mode}</td>
    <td>${k.label ?? html`<span class="muted">–</span>`}</td>
    <td>${time(k.created_at)}</td>
    <td>${state}</td>
    <td>
      ${
        revoked
          ? null
          : html`<form class="inline" method="post" action="${keyPath}/rotate">
              ${csrfField(session)}
              <label>Grace (s) <input name="grace" type="number" min="0" max="${MAX_GRACE_SECONDS}" value="0" size="7" /></label>
              <button type="submit" class="secondary">Rotate</button>
            </form>`
      }
    </td>
    <td>
      ${
        revoked
          ? null
          : html`<form class="inline" method="post" action="${keyPath}/revoke">
              ${csrfField(session)}<button type="submit" class="danger" aria-label="Revoke ${k.prefix}…">Revoke</button>
            </form>`
      }
    </td>
  </tr>`;
}
