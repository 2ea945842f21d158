// How the dashboard writes numbers, rates and times. Times are shown in Sao Paulo time (UTC-3,
// the campaigns' legal time, as `ces stats` counts days) inside <time datetime="…Z">.
import { SAO_PAULO_OFFSET_MS } from '../input/timestamps.ts';
import { html, type Html } from '../tools/html.ts';

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A share from 0 to 1 as "87.5 %"; "–" when there is nothing to divide. */
export function percent(share: number | null, decimals = 1): string {
  return share === null ? '–' : `${(share * 100).toFixed(decimals)} %`;
}

/** `2026-11-22 09:00:00` in Sao Paulo time, in a <time> carrying the stored UTC instant. */
export function time(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">–</span>`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return html`${iso}`;
  const local = new Date(ms + SAO_PAULO_OFFSET_MS).toISOString().replace('T', ' ').slice(0, 19);
  return html`<time datetime="${iso}" title="${iso}">${local}</time>`;
}

/**
 * time() with its zone said, for the pages an auditor compares with the apuração record (the draw
 * pages): `2026-11-22 09:00:00 BRT`, BRT naming Brasília time (America/Sao_Paulo, UTC−03:00), the
 * record's "horário de Brasília".
 */
export function zonedTime(iso: string | null | undefined): Html {
  if (!iso || Number.isNaN(Date.parse(iso))) return time(iso);
  return html`${time(iso)} <abbr title="${BRASILIA_ZONE}">BRT</abbr>`;
}

/** What BRT stands for, as the draw pages say it once at the top. */
export const BRASILIA_ZONE = 'Brasília time (America/Sao_Paulo), UTC−03:00';

/** A duration in ms as "850 ms", "12 s", "3 min", "2 h 5 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
