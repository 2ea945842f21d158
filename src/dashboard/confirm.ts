// Confirmation before the dashboard's actions that cannot be taken back (issue 32): revoking a
// key, rotating a key or the webhook secret without a grace period, pausing delivery, redelivering
// every failed delivery, downloading every participant's data. Without JavaScript
// (docs/operations.md#security: only live charts need it): the first POST changes nothing and
// answers a page that says what will happen, with the same form again (every field carried as
// typed) and a second button; only that second POST, which carries `confirmed=yes`, acts. A slip of
// the mouse on a table of keys costs a page, not a partner's integration. The CSRF token guards
// both POSTs as it guards every form.
import { html, type Html } from '../tools/html.ts';
import { csrfInput, layout, type CampaignContext } from './layout.ts';
import type { ActionRequest } from './kit.ts';

/** The field the confirmation page's button adds: only a POST that carries it acts. */
const CONFIRMED_FIELD = 'confirmed';

interface Confirmation {
  /** The question, the page's <h1> ("Revoke key svc_live_ab…?"). */
  question: string;
  /** What happens, in a sentence or two, and what cannot be undone. */
  consequence: Html | string;
  /** The second button's text: the action itself ("Revoke the key"). */
  button: string;
  /** Where "Cancel" goes: the page the first button was on. */
  back: string;
  campaign?: CampaignContext;
}

/**
 * Null when the POST carries the confirmation (go ahead); otherwise the page that asks for it,
 * to answer with 200: nothing has changed.
 */
export function confirmFirst(r: ActionRequest, c: Confirmation): Html | null {
  if (r.form.get(CONFIRMED_FIELD) === 'yes') return null;
  const carried = [...r.form].filter(([name]) => name !== 'csrf' && name !== CONFIRMED_FIELD);
  return layout({
    title: c.question,
    session: r.session,
    campaign: c.campaign,
    body: html`<h1>${c.question}</h1>
      <p class="notice">${c.consequence}</p>
      <form class="filters" method="post" action="${r.event.url.pathname}">
        ${csrfInput(r.session)}${carried.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
        <input type="hidden" name="${CONFIRMED_FIELD}" value="yes" />
        <button type="submit" class="danger">${c.button}</button>
        <a href="${c.back}">Cancel</a>
      </form>`,
  });
}
