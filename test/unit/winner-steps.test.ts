// A winner's steps (src/winners/status.ts) and the files kept with them (src/winners/attachments.ts):
// which step moves which status, what is final, and what a file must be: PDF, JPEG or PNG by its
// first bytes, 1 byte to 10 MiB, at most 5, a one-line name.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { AppError } from '../../src/kernel/errors.ts';
import { checkAttachments, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, sniffMediaType } from '../../src/winners/attachments.ts';
import { RECORDABLE_EVENTS, statusAfter, WINNER_STATUSES, type WinnerStatus } from '../../src/winners/status.ts';

function refusal(run: () => unknown): { status: number; code: string; fields: string[]; message: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return { status: error.status, code: error.code, fields: (error.errors ?? []).map((e) => e.field), message: error.message };
  }
  assert.fail('expected a refusal');
}

test('each step moves an open winner as the table in docs/operations.md says', () => {
  const table: Record<string, [WinnerStatus, WinnerStatus]> = {
    notified: ['notified', 'notified'],
    contact_failed: ['awarded', 'notified'],
    documents_received: ['notified', 'notified'],
    delivered: ['delivered', 'delivered'],
    declined: ['declined', 'declined'],
  };
  for (const event of RECORDABLE_EVENTS) {
    assert.deepEqual([statusAfter('awarded', event), statusAfter('notified', event)], table[event], event);
  }
});

test('delivered, declined, disqualified and prescribed are final: 409 winner_final for every step', () => {
  for (const status of WINNER_STATUSES.filter((s) => s !== 'awarded' && s !== 'notified')) {
    for (const event of RECORDABLE_EVENTS) {
      const r = refusal(() => statusAfter(status, event));
      assert.deepEqual([r.status, r.code], [409, 'winner_final'], `${status} + ${event}`);
    }
  }
});

const PDF = Buffer.from('%PDF-1.7\n%%EOF\n', 'latin1');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);

test('a file is known by its first bytes, not by its name', () => {
  assert.equal(sniffMediaType(PDF), 'application/pdf');
  assert.equal(sniffMediaType(JPEG), 'image/jpeg');
  assert.equal(sniffMediaType(PNG), 'image/png');
  assert.equal(sniffMediaType(Buffer.from('GIF89a')), null);
  assert.equal(sniffMediaType(Buffer.from('%PD')), null, 'cut short');
  const [checked] = checkAttachments([{ filename: 'C:\\scans\\termo.jpg', data: PDF }]);
  assert.deepEqual(
    [checked.filename, checked.mediaType, checked.size, checked.sha256],
    ['termo.jpg', 'application/pdf', PDF.length, createHash('sha256').update(PDF).digest('hex')],
  );
});

test('refused files: not one of the three, empty, over 10 MiB, too many, a name with a line break', () => {
  const cases: Array<[string, Parameters<typeof checkAttachments>[0], RegExp]> = [
    ['a text file named .pdf', [{ filename: 'termo.pdf', data: Buffer.from('hello') }], /not a PDF, JPEG or PNG/],
    ['empty', [{ filename: 'termo.pdf', data: Buffer.alloc(0) }], /empty/],
    ['too large', [{ filename: 'big.pdf', data: Buffer.concat([PDF, Buffer.alloc(MAX_ATTACHMENT_BYTES)]) }], /at most 10485760/],
    ['too many', Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => ({ filename: `${i}.pdf`, data: PDF })), /at most 5 files/],
    ['a line break in the name', [{ filename: 'termo\n.pdf', data: PDF }], /one line of printable text/],
    ['no name', [{ filename: '/tmp/', data: PDF }], /needs a file name/],
  ];
  for (const [what, files, message] of cases) {
    const r = refusal(() => checkAttachments(files));
    assert.deepEqual([r.status, r.code, r.fields], [422, 'invalid_attachment', ['attach']], what);
    assert.match(r.message, message, what);
  }
  assert.equal(
    checkAttachments([{ filename: 'a.pdf', data: Buffer.concat([PDF, Buffer.alloc(MAX_ATTACHMENT_BYTES - PDF.length)]) }]).length,
    1,
    'exactly 10 MiB',
  );
});
