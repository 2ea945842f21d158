// GET /v1/events (docs/api.md#listing-events-get-v1events): the events of the key's campaign and
// mode, newest first, in the webhook envelope, including those recorded while the webhook was
// paused or not configured, so an integrator can reconcile after an outage without polling every
// entry. Kept as long as the outbox keeps them (CES_RETENTION_DAYS).
import { isUuid } from '../entries/submission.ts';
import type { Ctx } from '../kernel/context.ts';
import { validationFailed, type FieldError } from '../kernel/errors.ts';
import type { Caller } from '../keys/keys.ts';
import { EVENT_TYPES, type EventEnvelope } from './events.ts';
import { findEventSeq, listEventPayloads } from './outbox.repo.ts';

export const LISTED_EVENT_TYPES = EVENT_TYPES.filter((t) => t !== 'ping');
const EVENTS_PAGE_DEFAULT = 20;
const EVENTS_PAGE_MAX = 100;
const QUERY_PARAMETERS = new Set(['limit', 'starting_after', 'type', 'entry_id']);

interface EventPage {
  data: EventEnvelope[];
  has_more: boolean;
}

/** Lists a page; every violation of the query is listed in one 422. */
export function listEvents(ctx: Ctx, caller: Caller, query: URLSearchParams): EventPage {
  const errors: FieldError[] = [];
  for (const name of new Set(query.keys())) {
    if (!QUERY_PARAMETERS.has(name))
      errors.push({ field: name, code: 'unknown_field', message: `${name} is not a parameter of this endpoint` });
    else if (query.getAll(name).length > 1) errors.push({ field: name, code: 'repeated', message: `${name} is given more than once` });
  }
  const livemode = caller.livemode ? 1 : 0;
  const rawLimit = query.get('limit');
  let limit = EVENTS_PAGE_DEFAULT;
  if (rawLimit !== null) {
    limit = /^[0-9]{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= EVENTS_PAGE_MAX))
      errors.push({ field: 'limit', code: 'invalid_value', message: `limit must be an integer from 1 to ${EVENTS_PAGE_MAX}` });
  }
  const type = query.get('type');
  if (type !== null && !(LISTED_EVENT_TYPES as readonly string[]).includes(type))
    errors.push({ field: 'type', code: 'invalid_value', message: `type must be one of ${LISTED_EVENT_TYPES.join(', ')}` });
  const entryId = query.get('entry_id');
  if (entryId !== null && !isUuid(entryId))
    errors.push({ field: 'entry_id', code: 'invalid_value', message: 'entry_id must be an entry id (uuid)' });
  const after = query.get('starting_after');
  let beforeSeq = Number.MAX_SAFE_INTEGER;
  if (after !== null) {
    const seq = findEventSeq(ctx.db, after, caller.campaignId, livemode);
    if (seq === undefined)
      errors.push({
        field: 'starting_after',
        code: 'unknown_event',
        message: 'starting_after must be the id of an event of this campaign and mode',
      });
    else beforeSeq = seq;
  }
  if (errors.length > 0) throw validationFailed(errors);
  const payloads = listEventPayloads(ctx.db, {
    campaignId: caller.campaignId,
    livemode,
    beforeSeq,
    type,
    entryId: entryId === null ? null : entryId.toLowerCase(),
    limit: limit + 1,
  });
  return { data: payloads.slice(0, limit).map((p) => JSON.parse(p) as EventEnvelope), has_more: payloads.length > limit };
}
