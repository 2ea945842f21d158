// The freeze's read of 20 million numbers stays within a minute (BENCHMARKS.md, Draws) only on
// one plan: the campaign's approved entries in index order, then each one's participant and
// numbers. Walked on lucky_numbers' primary key instead, every number cost random page reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/open.ts';
import { ELIGIBLE_HOLDINGS_PACKED_SQL, iterateEligibleHoldings } from '../../src/draws/draws.repo.ts';
import { queryPlan, reads, statementsPrepared } from '../support/query-plans.ts';

test('the eligible numbers are read entry by entry: entries_campaign_status, then the participant, then lucky_numbers_entry', () => {
  const db = openDatabase(':memory:');
  const statements = statementsPrepared(db, () => {
    iterateEligibleHoldings(db, { campaign_id: 'campaign', livemode: 1, cutoff: '2026-12-31T23:59:59.000Z' }).return?.();
  });
  const [sql] = reads(statements);
  // The same walk whether the holder comes as a second column or packed into the number (the scan thread's way).
  for (const read of [sql!, ELIGIBLE_HOLDINGS_PACKED_SQL])
    assert.deepEqual(queryPlan(db, read), [
      'SEARCH e USING INDEX entries_campaign_status (campaign_id=? AND livemode=? AND status=?)',
      'SEARCH en USING INDEX sqlite_autoindex_enrollments_1 (id=?)',
      'SEARCH ln USING INDEX lucky_numbers_entry (entry_id=?)',
    ]);
  db.close();
});
