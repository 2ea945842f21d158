// /dashboard/campaigns/:id/exports: a campaign's entries as CSV or JSON Lines, downloaded. The rows,
// columns and CSV safety (a cell that a spreadsheet would run as a formula gets a leading ') are
// `ces entries export`'s own (src/exports/entries-export.ts); the answer is streamed from a
// connection of its own (src/exports/entries-stream.ts), so a large campaign neither fills the
// server's memory nor holds up intake. The download is a POST (CSRF-checked) because it is
// recorded: entries.exported, with the format, mode, status and number of rows. It asks first
// (confirm.ts: the file holds every participant's personal data), and a session has at most
// MAX_EXPORTS_PER_SESSION downloads running at once (export-limit.ts).
import { getCampaign } from '../../campaigns/campaigns.ts';
import { ENTRY_STATUSES } from '../../entries/entries.repo.ts';
import { countEntriesFromTotals, type ExportFormat } from '../../exports/entries-export.ts';
import { downloadEntriesExport, EXPORT_CONTENT_TYPES } from '../../exports/entries-stream.ts';
import type { ExportFilter } from '../../exports/exports.repo.ts';
import { confirmFirst } from '../confirm.ts';
import { createExportLimit } from '../export-limit.ts';
import { choice, select } from '../forms.ts';
import { count } from '../format.ts';
import { html } from '../../tools/html.ts';
import { campaignPath, layout } from '../layout.ts';
import { action, csrfField, download, page, queryMode, routeParam, type DashboardRouter } from '../kit.ts';

const FORMATS = ['csv', 'jsonl'] as const satisfies readonly ExportFormat[];
const MODE_CHOICES = ['live', 'test', 'both'] as const;
const STATUS_CHOICES = ['any', ...ENTRY_STATUSES] as const;

export function registerExportsRoutes(router: DashboardRouter): void {
  router.get(
    '/campaigns/:id/exports',
    page(({ event, service, session }) => {
      const campaign = getCampaign(service.ctx, routeParam(event, 'id'));
      const mode = queryMode(event);
      const path = campaignPath(campaign.id, '/exports');
      const total = (livemode: 0 | 1): number => countEntriesFromTotals(service.ctx, { campaignId: campaign.id, livemode });
      return layout({
        title: `Exports · ${campaign.name}`,
        session,
        path,
        campaign: { id: campaign.id, name: campaign.name, mode },
        body: html`<h1>Export entries</h1>
          <p>
            Every entry with its participant, consent, award and lucky numbers, one row each, in acceptance order: the columns of
            <code>ces entries export</code> (see docs/operations.md). The file holds personal data: the download is recorded in the audit
            log under your name.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Mode</th>
                <th scope="col" class="num">Entries</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>live</td>
                <td class="num">${count(total(1))}</td>
              </tr>
              <tr>
                <td>test</td>
                <td class="num">${count(total(0))}</td>
              </tr>
            </tbody>
          </table>
          <h2>Download</h2>
          <form class="filters" method="post" action="${path}">
            ${csrfField(session)}
            <label for="export-format">Format ${select('format', FORMATS, 'csv', 'export-format')}</label>
            <label for="export-mode">Mode ${select('mode', MODE_CHOICES, mode, 'export-mode')}</label>
            <label for="export-status">Status ${select('status', STATUS_CHOICES, 'any', 'export-status')}</label>
            <button type="submit">Download export</button>
          </form>
          <p class="muted">
            CSV: a cell starting with = + - @, a tab or a carriage return is written with a leading <code>'</code>, so a spreadsheet never
            runs it as a formula. JSON Lines keeps every value exactly as stored.
          </p>`,
      });
    }),
  );
  const exportLimit = createExportLimit();
  router.post(
    '/campaigns/:id/exports',
    action((r) => {
      const { event, service, form, actor, session } = r;
      const campaign = getCampaign(service.ctx, routeParam(event, 'id'));
      const format = choice(form, 'format', FORMATS);
      const mode = choice(form, 'mode', MODE_CHOICES);
      const status = choice(form, 'status', STATUS_CHOICES);
      const confirmation = confirmFirst(r, {
        question: `Download the personal data of every participant of ${campaign.name}?`,
        consequence: html`The file holds every ${mode === 'both' ? 'live and test' : mode}
        entry${status === 'any' ? '' : ` with status ${status}`} with its participant’s name, CPF/CNPJ, contacts, address and consent, as
        ${format === 'csv' ? 'CSV' : 'JSON Lines'}. Keep it where personal data may be kept. The download is recorded in the audit log under
        your name.`,
        button: 'Download the export',
        back: campaignPath(campaign.id, '/exports'),
        campaign: { id: campaign.id, name: campaign.name },
      });
      if (confirmation) return confirmation;
      const filter: ExportFilter = {
        campaignId: campaign.id,
        livemode: mode === 'both' ? undefined : mode === 'live' ? 1 : 0,
        status: status === 'any' ? undefined : status,
      };
      const running = exportLimit.start(session.id, () => downloadEntriesExport(service.ctx, filter, format, actor));
      const name = `entries-${campaign.id}-${mode}${status === 'any' ? '' : `-${status.toLowerCase()}`}.${format}`;
      return download(running.stream, EXPORT_CONTENT_TYPES[format], name, { 'x-export-rows': String(running.rows) });
    }),
  );
}
