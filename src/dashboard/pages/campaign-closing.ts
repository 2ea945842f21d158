// The end of a campaign on its Winners page (docs/operations.md#closing-a-campaign): the
// prestação de contas to read (printable, GET …/accounts/print), to download in Markdown or HTML
// (GET …/accounts.md, …/accounts.html: the stored bytes once closed, a draft before), and the
// closing itself (POST /dashboard/campaigns/:id/close), as `ces campaign close` does it
// (closeCampaign, audited campaign.closed as dashboard:<name>), asked to be confirmed first: it
// cannot be undone. A refusal (a prescription date ahead, a draw open, a forced closing without its
// reason) is the dashboard's error page with the domain's words.
import { getCampaign, type Campaign } from '../../campaigns/campaigns.ts';
import { closeCampaign } from '../../closing/close.ts';
import { renderAccounts } from '../../closing/report.ts';
import type { Mode } from '../../keys/keys.ts';
import { MAX_NOTE_LENGTH } from '../../input/operator-text.ts';
import { html, type Html } from '../../tools/html.ts';
import { confirmFirst } from '../confirm.ts';
import { field } from '../forms.ts';
import { zonedTime } from '../format.ts';
import { campaignPath } from '../layout.ts';
import { SERVER_TRUNCATE_RETRIES } from '../../participants/erasure.ts';
import { action, csrfField, documentResponse, download, page, queryMode, routeParam, seeOther, type DashboardRouter } from '../kit.ts';
import type { DashboardSession } from '../sessions.ts';

const accountsPath = (campaignId: string, file: 'print' | 'md' | 'html', mode: Mode): string =>
  `${campaignPath(campaignId, file === 'print' ? '/accounts/print' : `/accounts.${file}`)}?mode=${mode}`;

export function registerClosingRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/accounts.md',
    page(({ event, service }) => {
      const id = routeParam(event, 'id');
      const mode = queryMode(event);
      const md = renderAccounts(service.ctx, id, mode === 'live' ? 1 : 0, 'md');
      return download(md, 'text/markdown; charset=utf-8', `prestacao-de-contas-${id}-${mode}.md`);
    }),
  );
  router.get(
    '/campaigns/:id/accounts.html',
    page(({ event, service }) => {
      const id = routeParam(event, 'id');
      const mode = queryMode(event);
      const doc = renderAccounts(service.ctx, id, mode === 'live' ? 1 : 0, 'html');
      return download(doc, 'text/html; charset=utf-8', `prestacao-de-contas-${id}-${mode}.html`);
    }),
  );
  router.get(
    '/campaigns/:id/accounts/print',
    page(({ event, service }) =>
      documentResponse(renderAccounts(service.ctx, routeParam(event, 'id'), queryMode(event) === 'live' ? 1 : 0, 'html')),
    ),
  );
  router.post(
    '/campaigns/:id/close',
    action((r) => {
      const campaign = getCampaign(r.service.ctx, routeParam(r.event, 'id'));
      const force = r.form.get('force') === 'yes';
      const reason = field(r.form, 'reason').trim();
      const back = `${campaignPath(campaign.id, '/winners')}?mode=live`;
      const confirmation = confirmFirst(r, {
        question: `Close campaign ${campaign.name}?`,
        consequence:
          'The campaign is closed for good: its prestação de contas is written and stored as it stands, the anonymisations held until now are carried out, and it takes no entry, setting or step afterwards.',
        button: 'Close the campaign',
        back,
        campaign: { id: campaign.id, name: campaign.name, mode: 'live' },
      });
      if (confirmation) return confirmation;
      // A try or two on the event loop; the tick completes an erasure that waits for a reader.
      closeCampaign(r.service.ctx, campaign.id, { force, reason: reason === '' ? null : reason }, r.actor, {
        truncateRetries: SERVER_TRUNCATE_RETRIES,
      });
      return seeOther(`${back}&done=closed#closing`);
    }),
  );
}

/** The section of the Winners page: the report's links, and the closing form while the campaign is open. */
export function closingSection(campaign: Campaign, mode: Mode, session: DashboardSession): Html {
  const links = html`<p>
    Prestação de contas (${mode}): <a href="${accountsPath(campaign.id, 'print', mode)}">print</a> ·
    <a href="${accountsPath(campaign.id, 'md', mode)}">Markdown</a> · <a href="${accountsPath(campaign.id, 'html', mode)}">HTML</a>
    ${campaign.closed_at === null ? html`<span class="muted">(a draft until the campaign is closed)</span>` : null}
  </p>`;
  if (campaign.closed_at !== null)
    return html`<section id="closing">
      <h2>Prestação de contas</h2>
      <p>
        Closed ${zonedTime(campaign.closed_at)} by
        ${campaign.closed_by}${campaign.close_reason ? html`, before every prescription: ${campaign.close_reason}` : null}.
      </p>
      ${links}
    </section>`;
  return html`<section id="closing">
    <h2>Prestação de contas</h2>
    ${links}
    <p>
      Closing stores the prestação de contas and carries out the anonymisations held for it. It waits for every prize's prescription date
      and for every draw to be published or voided, unless forced with a reason.
    </p>
    <form method="post" action="${campaignPath(campaign.id, '/close')}">
      ${csrfField(session)}
      <p>
        <label><input type="checkbox" name="force" value="yes" /> Close before then (forced)</label>
      </p>
      <p>
        <label for="close-reason">Reason (a forced closing only)</label>
        <input id="close-reason" name="reason" maxlength="${MAX_NOTE_LENGTH}" />
      </p>
      <button type="submit" class="danger">Close the campaign</button>
    </form>
  </section>`;
}
