// POST /v1/entries and GET /v1/entries/{entry_id}: thin handlers over entries/.
import type { H3, H3Event, HTTPResponse } from 'h3';
import { findCampaignByIdCached } from '../campaigns/campaigns.repo.ts';
import { registrationClosedReason } from '../campaigns/campaigns.ts';
import { AppError } from '../kernel/errors.ts';
import { entryToView, getScopedEntry } from '../mechanics/entry-view.ts';
import { parseIdempotencyKey } from '../entries/idempotency-key.ts';
import { parseSubmission, type Submission } from '../entries/submission.ts';
import { writeRequest } from '../intake/entry-writer.ts';
import { findReplay, type IntakeResult } from '../intake/write-stage.ts';
import { INVALID_KEY, type Caller } from '../keys/keys.ts';
import type { Service } from './service.ts';
import { nodeRequest, readJsonBody, requireJsonContentType } from './body.ts';
import { json } from './respond.ts';

export function registerEntryRoutes(app: H3, service: Service, route: RouteWrapper): void {
  const { ctx } = service;

  app.post(
    '/v1/entries',
    route(async (event, caller) => {
      const key = readIdempotencyKey(event);
      let submission: Submission;
      try {
        submission = await readNewEntry(event, caller, key);
      } catch (error) {
        // A request whose key already holds an entry is a replay whatever else is wrong with it now
        // (closed registration, another body, a dropped connection): the first answer stands. Looked
        // up only here and in the write itself, so a new entry costs no read before its write.
        const replay = findReplay(ctx, caller, key);
        if (replay) return accepted(replay);
        throw error;
      }
      const result = await service.writer.write(writeRequest(ctx, caller, key, submission));
      return accepted(result);
    }),
  );

  // Everything POST /v1/entries checks before its write; every failure here is answered as a replay
  // when the key already holds an entry.
  const readNewEntry = async (event: H3Event, caller: Caller, key: string): Promise<Submission> => {
    const campaign = findCampaignByIdCached(ctx.db, caller.campaignId);
    if (!campaign) throw INVALID_KEY();
    const closed = registrationClosedReason(campaign, ctx.clock.now());
    if (closed) throw new AppError(403, 'registration_closed', closed);
    requireJsonContentType(event);
    // A second request with this key while the first is still being read gets 409; once the first
    // is queued for commit, a second one joins the commit and is answered as a replay.
    const scope = `${caller.campaignId}\u0000${caller.mode}\u0000${key}`;
    if (service.inflight.has(scope)) {
      throw new AppError(
        409,
        'idempotency_conflict',
        'Another request with this Idempotency-Key is still being processed; retry shortly.',
        undefined,
        { 'retry-after': '1' },
      );
    }
    service.inflight.add(scope);
    try {
      const body = await readJsonBody(event, ctx.config.bodyLimitBytes);
      return parseSubmission(body, ctx.clock.now());
    } finally {
      service.inflight.delete(scope);
    }
  };

  app.get(
    '/v1/entries/:entry_id',
    route(async (event, caller) => {
      const row = getScopedEntry(ctx, caller, entryIdParam(event));
      return json(200, entryToView(ctx, row));
    }),
  );
}

export type RouteWrapper = (
  handler: (event: H3Event, caller: Caller) => Promise<HTTPResponse>,
) => (event: H3Event) => Promise<HTTPResponse>;

/** The {entry_id} of the path. Entry ids are uuids, which RFC 9562 reads case-insensitively. */
export function entryIdParam(event: H3Event): string {
  return (event.context.params?.entry_id ?? '').toLowerCase();
}

function readIdempotencyKey(event: H3Event): string {
  return parseIdempotencyKey(event.req.headers.get('idempotency-key'), () => headerCount(event, 'idempotency-key'));
}

/** How many times a header was sent (Node joins the repeats of most headers into one value). */
function headerCount(event: H3Event, name: string): number {
  const node = nodeRequest(event);
  if (!node) return 1;
  let count = 0;
  for (let i = 0; i < node.rawHeaders.length; i += 2) if (node.rawHeaders[i].toLowerCase() === name) count++;
  return count;
}

function accepted(result: IntakeResult): HTTPResponse {
  const message = result.replay
    ? 'An entry already exists for this Idempotency-Key; this is a replay and the new payload was ignored.'
    : result.status === 'REJECTED'
      ? 'Entry received and rejected: the fiscal access key failed validation.'
      : 'Entry accepted for processing.';
  // Replays are marked (docs/api.md#entry-submission): a client that reused a key with another body
  // learns that its new payload was ignored from a header, not only from the message's wording.
  return json(202, { entry_id: result.entry_id, status: result.status, message }, result.replay ? REPLAYED : undefined);
}

const REPLAYED = { 'idempotent-replayed': 'true' };
