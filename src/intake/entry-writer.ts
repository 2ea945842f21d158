// How the write stage of POST /v1/entries is run. The HTTP side decides everything that needs no
// stored data (key, campaign window, body, validation) and hands the rest to an EntryWriter as a
// plain WriteRequest; the writer runs writeEntry in a group-commit transaction and settles once
// the COMMIT that holds it is on disk, on the HTTP thread's own connection.
//
// A WriteRequest is plain data. It carries its own "now" and a random seed drawn from the
// service's clock and random source when the request was accepted, so a batch that is rolled back
// and run again draws the same ids.
import { findCampaignByIdCached } from '../campaigns/campaigns.repo.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Db } from '../db/open.ts';
import { INVALID_KEY, type Caller } from '../keys/keys.ts';
import { streamRandom } from '../kernel/random.ts';
import type { Submission } from '../entries/submission.ts';
import { createDirectCommitter, createGroupCommitter, type Committer } from './group-commit.ts';
import { writeEntry, type IntakeResult } from './write-stage.ts';
import { startIndexWarmup } from './index-warmup.ts';
import { startReadAhead, type Lookup } from './read-ahead.ts';
import { foldEmail } from '../entries/email-key.ts';

export interface WriteRequest {
  caller: Caller;
  idempotencyKey: string;
  submission: Submission;
  /** ctx.clock.now() when the request was accepted: the entry's created_at. */
  now: number;
  /** 16 bytes from ctx.random, in hex: every id the write draws comes from streamRandom(seed). */
  seed: string;
}

export interface EntryWriter {
  /** Resolves once the entry (or the replay decision) is committed; rejects with the write's error. */
  write(request: WriteRequest): Promise<IntakeResult>;
  /** Resolves when no write is pending. */
  drain(): Promise<void>;
  /** Drains, then releases what the writer holds. */
  close(): Promise<void>;
}

/** What a write needs besides the request: the connection and the settings. */
type WriteBase = Pick<Ctx, 'db' | 'config' | 'log'>;

/** Builds the request for `submission` from the service's clock and random source. */
export function writeRequest(ctx: Ctx, caller: Caller, idempotencyKey: string, submission: Submission): WriteRequest {
  return { caller, idempotencyKey, submission, now: ctx.clock.now(), seed: ctx.random.bytes(16).toString('hex') };
}

/** Runs one write on `base.db`; must be called inside a transaction the caller commits. */
export function performWrite(base: WriteBase, request: WriteRequest): IntakeResult {
  const campaign = findCampaignByIdCached(base.db, request.caller.campaignId);
  if (!campaign) throw INVALID_KEY();
  const ctx: Ctx = { ...base, clock: { now: () => request.now }, random: streamRandom(Buffer.from(request.seed, 'hex')) };
  return writeEntry(ctx, campaign, request.caller, request.idempotencyKey, request.submission);
}

function createCommitter(db: Db, groupCommit: boolean): Committer {
  return groupCommit ? createGroupCommitter(db) : createDirectCommitter(db);
}

/** What `request`'s write will look up by the client's keys. */
function lookupOf(request: WriteRequest): Lookup {
  const { caller, submission } = request;
  return {
    campaignId: caller.campaignId,
    livemode: caller.livemode ? 1 : 0,
    idempotencyKey: request.idempotencyKey,
    document: submission.document.number,
    emailKey: submission.profile.email === undefined ? null : foldEmail(submission.profile.email),
    phone: submission.profile.phone ?? null,
  };
}

/**
 * The write stage on the caller's own connection and thread, each write's pages read ahead on
 * other threads first (./read-ahead.ts) when `readAhead` is set and the database has a file.
 */
export function createInlineWriter(
  base: WriteBase,
  options: {
    groupCommit: boolean;
    readAhead?: boolean;
    /** Warm the indexes at start and stop reading ahead once they are (./index-warmup.ts); true unless set false. */
    warmIndexes?: boolean;
  },
): EntryWriter {
  const committer = createCommitter(base.db, options.groupCommit);
  const commit = (request: WriteRequest): Promise<IntakeResult> => committer.run(() => performWrite(base, request));
  // Without reading ahead, a write goes straight to the committer: nothing added to its path.
  if (!options.readAhead || base.db.memory) return { write: commit, drain: () => committer.drain(), close: () => committer.drain() };
  const readAhead = startReadAhead(base.db.name, base.log);
  const warmup = options.warmIndexes === false ? null : startIndexWarmup(base.db.name, base.log);
  // Once every index a write looks up is warm, its pages are in the page cache: reading ahead would
  // only cost CPU beside the HTTP thread (./read-ahead.ts, worthReadingAhead), so it stops. With an
  // index left cold (too little memory) or a warm-up that failed, it goes on.
  let reading = true;
  const settled = warmup?.done.then(async (outcome) => {
    if (outcome.stopped || outcome.failed !== null || outcome.cold.length > 0) return;
    reading = false;
    await readAhead.close();
    base.log.info({ message: 'intake no longer reads ahead: the pages of its indexes are in the page cache' });
  });
  // Writes still reading ahead: not yet in the committer, but pending all the same.
  const warming = new Set<Promise<void>>();
  const drain = async (): Promise<void> => {
    while (warming.size > 0) await Promise.all(warming);
    await committer.drain();
  };
  return {
    write: async (request) => {
      if (!reading) return commit(request);
      const warm = readAhead.warm(lookupOf(request));
      warming.add(warm);
      try {
        await warm;
      } finally {
        warming.delete(warm);
      }
      return commit(request);
    },
    drain,
    close: async () => {
      await drain();
      await warmup?.close();
      await settled;
      await readAhead.close();
    },
  };
}
