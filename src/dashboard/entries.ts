// The entries listing of a campaign: filters (status, mode, Sao Paulo days), the search by entry
// id, CPF/CNPJ or e-mail (normalised as intake stores them: a document without punctuation and
// in upper case, an e-mail by its folded key), and keyset pages of PAGE_SIZE, newest first.
import type { Ctx } from '../kernel/context.ts';
import { AppError } from '../kernel/errors.ts';
import { parseDocument } from '../input/documents.ts';
import { foldEmail } from '../entries/email-key.ts';
import { findEnrollmentByDocument } from '../entries/enrollments.repo.ts';
import { ENTRY_STATUSES, type EntryStatus } from '../entries/entries.repo.ts';
import { isUuid } from '../entries/submission.ts';
import { isCalendarDate } from '../validation/described.ts';
import { toStatusFilter } from '../input/status-filter.ts';
import type { Mode } from '../keys/keys.ts';
import {
  findEnrollmentIdByEmailKey,
  findListedEntry,
  listEntriesOfEnrollmentPage,
  listEntriesPage,
  type Cursor,
  type ListedEntry,
} from './entries.repo.ts';

const PAGE_SIZE = 50;
const SAO_PAULO_OFFSET_MS = 3 * 3600 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f-]{36})$/;

export interface EntryFilter {
  mode: Mode;
  status: EntryStatus | null;
  /** Sao Paulo calendar days, inclusive. */
  from: string | null;
  to: string | null;
  /** An entry id, a CPF/CNPJ or an e-mail; '' for none. */
  q: string;
  before: Cursor | null;
}

export interface EntryListing {
  rows: ListedEntry[];
  /** The cursor of the next (older) page, or null on the last. */
  next: Cursor | null;
  /** What the search matched, for the page to say. */
  search: 'entry' | 'document' | 'email' | null;
  /** The participant a search by document or e-mail found (null: none, or no such search). */
  enrollmentId?: string | null;
}

/** The filter from a query string; a malformed day or cursor is a 400 with the field's name, a bad status a 422. */
export function parseEntryFilter(query: URLSearchParams, mode: Mode): EntryFilter {
  // An empty status (the form's "all") is no filter; anything else is the listings' one check (a 422).
  const status = toStatusFilter(query.get('status') || undefined, ENTRY_STATUSES);
  const day = (name: 'from' | 'to'): string | null => {
    const value = (query.get(name) ?? '').trim();
    if (value === '') return null;
    if (!DAY.test(value)) throw new AppError(400, 'invalid_option', `${name} must be a day written YYYY-MM-DD, got "${value}"`);
    // Date.parse reads 2026-02-30 as 2 March: a day that is not on the calendar is refused instead.
    if (!isCalendarDate(value)) throw new AppError(400, 'invalid_option', `${name} ${value} is not a day on the calendar`);
    return value;
  };
  const rawBefore = query.get('before');
  let before: Cursor | null = null;
  if (rawBefore !== null && rawBefore !== '') {
    const match = CURSOR.exec(rawBefore);
    if (!match) throw new AppError(400, 'invalid_option', 'before is not a page position this dashboard wrote.');
    before = { created_at: match[1], id: match[2] };
  }
  return {
    mode,
    status: status ?? null,
    from: day('from'),
    to: day('to'),
    q: (query.get('q') ?? '').trim(),
    before,
  };
}

export function encodeCursor(c: Cursor): string {
  return `${c.created_at}|${c.id}`;
}

/** The instant a Sao Paulo day starts (UTC ISO). */
function dayStart(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + SAO_PAULO_OFFSET_MS).toISOString();
}

/**
 * One page of the campaign's entries. A search (q) ignores the status and date filters: an entry
 * id finds that entry (in either mode), a CPF/CNPJ or an e-mail the entries of that participant
 * in the page's mode. A search that is none of those is a 422 saying why.
 */
export function listCampaignEntries(ctx: Ctx, campaignId: string, f: EntryFilter): EntryListing {
  const livemode = f.mode === 'live' ? 1 : 0;
  const limit = PAGE_SIZE + 1;
  return ctx.db.transaction((): EntryListing => {
    if (f.q !== '') {
      if (isUuid(f.q)) {
        const entry = findListedEntry(ctx.db, f.q.toLowerCase());
        return { rows: entry?.campaign_id === campaignId ? [entry] : [], next: null, search: 'entry' };
      }
      let enrollmentId: string | undefined;
      let search: EntryListing['search'];
      if (f.q.includes('@')) {
        enrollmentId = findEnrollmentIdByEmailKey(ctx.db, campaignId, livemode, foldEmail(f.q));
        search = 'email';
      } else {
        const parsed = parseDocument(f.q);
        if (!parsed.ok)
          throw new AppError(
            422,
            'invalid_search',
            `Not an entry id, an e-mail or a valid CPF/CNPJ: ${parsed.message.replace(/^document_number /, 'it ')}`,
          );
        enrollmentId = findEnrollmentByDocument(ctx.db, campaignId, livemode, parsed.number)?.id;
        search = 'document';
      }
      if (enrollmentId === undefined) return { rows: [], next: null, search, enrollmentId: null };
      return { ...page(listEntriesOfEnrollmentPage(ctx.db, { enrollmentId, before: f.before, limit }), search), enrollmentId };
    }
    const rows = listEntriesPage(ctx.db, {
      campaignId,
      livemode,
      statuses: f.status ? [f.status] : ENTRY_STATUSES,
      from: f.from ? dayStart(f.from) : '',
      to: f.to ? dayStart(nextDay(f.to)) : '~',
      before: f.before,
      limit,
    });
    return page(rows, null);
  })();
}

function page(rows: ListedEntry[], search: EntryListing['search']): EntryListing {
  if (rows.length <= PAGE_SIZE) return { rows, next: null, search };
  const shown = rows.slice(0, PAGE_SIZE);
  const last = shown[shown.length - 1];
  return { rows: shown, next: { created_at: last.created_at, id: last.id }, search };
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}
