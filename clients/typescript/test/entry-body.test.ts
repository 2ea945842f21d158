// The client's own EntrySubmission is the body of `client.api.POST('/v1/entries')`, as it is of
// submitEntry: checked at compile time (npm test's tsc fails if a line below stops compiling, or if
// a line marked as an expected error stops erring) and at run time through a fetch that records
// what was sent.
// Issue 43: openapi-fetch reads a property whose only type is null as "never sent", so a lost
// instant_win documented with `prize_definition_id: null` did not compile as the operation's body.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCesClient, generateEntry, type EntrySubmission } from '../src/index.ts';

const PRIZE = '07fb54b8-dd18-40de-8bca-381826688a49';

/** A client whose fetch answers 202 and keeps the JSON bodies it was sent. */
function recordingClient(): { client: ReturnType<typeof createCesClient>; sent: unknown[] } {
  const sent: unknown[] = [];
  const client = createCesClient({
    baseUrl: 'http://ces.test',
    apiKey: 'service_test_x',
    fetch: async (request) => {
      sent.push(await request.json());
      const accepted = { entry_id: '0196a1b2-0000-7000-8000-000000000000', status: 'PENDING', message: 'Entry received.' };
      return new Response(JSON.stringify(accepted), { status: 202, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, sent };
}

test('an EntrySubmission, won, lost or without instant_win, is the body of client.api.POST and of submitEntry', async () => {
  const { client, sent } = recordingClient();
  const bodies: EntrySubmission[] = [
    generateEntry(),
    generateEntry({ instant_win: { won: true, prize_definition_id: PRIZE } }),
    generateEntry({ instant_win: { won: false } }),
    generateEntry({ instant_win: null }),
  ];
  for (const body of bodies) {
    const { response } = await client.api.POST('/v1/entries', { params: { header: { 'Idempotency-Key': 'k-1' } }, body });
    assert.equal(response.status, 202);
    await client.submitEntry(body, { idempotencyKey: 'k-2' });
  }
  assert.deepEqual(
    sent,
    bodies.flatMap((b) => [b, b]),
  );
});

test('the types still refuse what the server refuses about instant_win', () => {
  // @ts-expect-error a win names its prize
  const noPrize: EntrySubmission['instant_win'] = { won: true };
  // @ts-expect-error a loss names none
  const lossWithPrize: EntrySubmission['instant_win'] = { won: false, prize_definition_id: PRIZE };
  assert.ok(noPrize && lossWithPrize);
});
