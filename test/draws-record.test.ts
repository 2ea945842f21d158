// Issue 41, point 5 (the record changes after publication) and point 7 (the list cannot be checked
// without personal data; SPA's list is not produced), through the real CLI on a database file:
// - `ces draw publish` stores the record; `ces draw report` prints it byte for byte after the
//   winner's anonymisation (as the campaign's closing will carry it out), new entries and a
//   restart, its SHA-256 the draw's and draw.published's record_sha256;
// - `ces participant anonymize` of a participant holding lucky numbers is 409 legal_hold, recorded;
// - `ces draw numbers --format holders` is fixed at the freeze (holders_sha256) and says one holder
//   per document; `--format scpc-csv` is the participant list, audited, cells safe in a spreadsheet.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../src/kernel/clock.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { anonymizeEnrollment } from '../src/participants/participants.repo.ts';
import { cpf, entryBody, makeCampaign, runCli, startTestServer, type TestServer } from './support/harness.ts';
import { settle } from './support/mechanics.ts';

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

async function enter(s: TestServer, key: string, i: number, name: string): Promise<void> {
  const body = entryBody(
    {
      enrollment: { full_name: name, address: { city: i % 2 === 0 ? 'Campinas' : 'Recife', state: i % 2 === 0 ? 'sp' : 'PE' } },
      consent: { granted_at: '2023-01-10T09:00:00-03:00' },
      evidence: { access_key: makeAccessKey({ yymm: '2301', number: String(573_200 + i).padStart(9, '0') }) },
    },
    i,
  );
  const res = await s.request('POST', '/v1/entries', { key, idempotencyKey: `record-${i}`, body });
  assert.equal(res.status, 202, res.text);
}

test('a published record is read back byte for byte after an anonymisation, new entries and a restart; the lists anyone can check', async () => {
  // A folder of the test's own: the restart opens the same file again.
  const dir = mkdtempSync(join(tmpdir(), 'ces-record-'));
  const dbPath = join(dir, 'ces.db');
  let s = await startTestServer({ clock: new ManualClock('2023-01-10T12:00:00.000Z'), seed: 41, dbPath });
  try {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 3, seriesCount: 10, name: 'Promoção Verão' });
    // Participant 0 enters twice: one document, one holder, whatever the number of entries.
    for (let i = 0; i < 12; i++) await enter(s, w.liveKey, i, i === 11 ? '=HYPERLINK("x");Ana' : `Participante ${i}`);
    const again = entryBody(
      {
        enrollment: { document_number: cpf(0), full_name: 'Participante 0' },
        consent: { granted_at: '2023-01-10T09:00:00-03:00' },
        evidence: { access_key: makeAccessKey({ yymm: '2301', number: '000999999' }) },
      },
      0,
    );
    assert.equal((await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'record-again', body: again })).status, 202);
    await settle(s);
    const ces = (args: string[], clock = s.clock) => runCli([...args, '--db', dbPath], { clock });
    const created = await ces([
      'draw',
      'create',
      '--campaign',
      w.campaign.id,
      '--mode',
      'live',
      '--name',
      'Sorteio 1',
      '--cutoff',
      '2023-01-17T23:59:59-03:00',
      '--extraction-date',
      '2023-01-18',
      '--winners',
      '3',
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const id = created.json.id as string;
    // Frozen before the planned extraction (19:00 in Brasília), its results recorded after it.
    s.clock.set('2023-01-18T12:00:00.000Z');
    const frozen = await ces(['draw', 'freeze', id, '--json']);
    assert.equal(frozen.code, 0, frozen.stderr);
    assert.equal(frozen.json.eligible_count, 39);
    assert.match(frozen.json.holders_sha256, /^[0-9a-f]{64}$/);

    // The holders list: every number of the canonical list, in its order, with one index per document.
    const canonical = (await ces(['draw', 'numbers', id])).stdout;
    const holders = await ces(['draw', 'numbers', id, '--format', 'holders']);
    assert.equal(holders.code, 0, holders.stderr);
    assert.equal(sha256(holders.stdout), frozen.json.holders_sha256);
    const lines = holders.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.map((l) => `${l.split(';')[0]}\n`).join(''), canonical);
    const indexes = lines.map((l) => Number(l.split(';')[1]));
    assert.equal(new Set(indexes).size, 12, 'twelve documents, twelve holders');
    assert.equal(indexes.filter((h) => h === indexes[0]).length >= 3, true);
    // 1, 2, … by first appearance.
    let seen = 0;
    for (const h of indexes) {
      assert.ok(h <= seen + 1, `index ${h} after ${seen}`);
      seen = Math.max(seen, h);
    }

    // SPA's participant list: audited, private with --out, a cell that starts a formula made text.
    const csv = await ces(['draw', 'numbers', id, '--format', 'scpc-csv']);
    assert.equal(csv.code, 0, csv.stderr);
    const rows = csv.stdout.split('\r\n').filter((r) => r !== '');
    assert.equal(rows[0], 'nome;numero_da_sorte');
    assert.equal(rows.length, 40);
    assert.deepEqual(
      rows
        .slice(1)
        .map((r) => `${r.slice(r.lastIndexOf(';') + 1)}\n`)
        .join(''),
      canonical,
    );
    assert.ok(
      rows.some((r) => r.startsWith(`"'=HYPERLINK(""x"");Ana";`)),
      rows.join('\n'),
    );
    const out = join(s.dir, 'scpc.csv');
    const written = await ces(['draw', 'numbers', id, '--format', 'scpc-csv', '--out', out, '--json']);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(statSync(out).mode & 0o777, 0o600);
    const audit = await ces(['audit', 'list', '--action', 'draw.participants_exported', '--json']);
    assert.equal(audit.json.length, 2);
    assert.equal(audit.json[0].details.numbers, 39);

    s.clock.set('2023-01-18T22:30:00.000Z');
    assert.equal(
      (await ces(['draw', 'results', id, '--extraction', '5732', '--date', '2023-01-18', '--prizes', '050366,033514,045504,094365,051105']))
        .code,
      0,
    );
    assert.equal((await ces(['draw', 'run', id])).code, 0);
    const published = await ces(['draw', 'publish', id, '--json']);
    assert.equal(published.code, 0, published.stderr);
    const recordSha = published.json.record_sha256 as string;
    assert.match(recordSha, /^[0-9a-f]{64}$/);
    const md = (await ces(['draw', 'report', id])).stdout;
    const html = (await ces(['draw', 'report', id, '--format', 'html'])).stdout;
    assert.equal(sha256(md), recordSha);
    // The record as it now says: prizes as Caixa publishes them, where each winner lives, who ran and published it.
    assert.match(md, /\| 1º \| 050366 \|/);
    assert.match(md, /\| (Campinas\/SP|Recife\/PE) \|/);
    assert.match(md, /Apuração executada por cli:[^;]+; publicada por cli:/);
    const event = s.ctx.db.prepare(`SELECT payload FROM webhook_deliveries WHERE event_type = 'draw.published'`).pluck().get() as string;
    assert.equal(JSON.parse(event).data.record_sha256, recordSha);

    // The winner cannot be anonymised while the campaign is open: refused, and the request kept.
    const winner = (await ces(['draw', 'show', id, '--json'])).json.winners[0];
    const enrollment = s.ctx.db
      .prepare('SELECT en.id, en.document_number FROM entries e JOIN enrollments en ON en.id = e.enrollment_id WHERE e.id = ?')
      .get(winner.entry_id) as { id: string; document_number: string };
    const held = await ces([
      'participant',
      'anonymize',
      '--campaign',
      w.campaign.id,
      '--document',
      enrollment.document_number,
      '--reason',
      'ticket 41',
      '--json',
    ]);
    assert.equal(held.code, 1);
    assert.equal(held.json.error.code, 'legal_hold');
    assert.match(held.json.error.message, /LGPD art\. 16, I/);
    assert.deepEqual(
      s.ctx.db.prepare('SELECT enrollment_id, requested_by LIKE ? AS by_cli, reason FROM held_anonymizations').all('cli:%'),
      [{ enrollment_id: enrollment.id, by_cli: 1, reason: 'ticket 41' }],
    );
    assert.equal(s.ctx.db.prepare('SELECT anonymized_at FROM enrollments WHERE id = ?').pluck().get(enrollment.id), null);
    // Carried out, as the campaign's closing will, then new entries and a restart.
    anonymizeEnrollment(s.ctx.db, enrollment.id, 'anon_test', '2023-01-19T12:00:00.000Z');
    s.clock.set('2023-01-19T12:00:00.000Z');
    for (let i = 20; i < 24; i++) await enter(s, w.liveKey, i, `Participante ${i}`);
    await settle(s);
    const clock = s.clock;
    await s.close();
    s = await startTestServer({ clock, dbPath });
    const mdAfter = await ces(['draw', 'report', id], clock);
    assert.equal(mdAfter.code, 0, mdAfter.stderr);
    const htmlAfter = await ces(['draw', 'report', id, '--format', 'html'], clock);
    assert.equal(mdAfter.stdout, md);
    assert.equal(htmlAfter.stdout, html);
    assert.equal(sha256(mdAfter.stdout), recordSha);
    assert.equal((await ces(['draw', 'show', id, '--json'], clock)).json.record_sha256, recordSha);
    // The lists too: the holders list is the one the freeze hashed.
    const holdersAfter = await ces(['draw', 'numbers', id, '--format', 'holders'], clock);
    assert.equal(holdersAfter.stdout, holders.stdout);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
