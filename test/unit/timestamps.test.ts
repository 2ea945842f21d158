// toUtcTimestamp (src/input/timestamps.ts): a consent's granted_at, stored as sent, printed in UTC.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { toUtcTimestamp } from '../../src/input/timestamps.ts';
import { propertySeed } from '../support/property.ts';

test('every form intake accepts is converted to UTC exactly', () => {
  const cases: Array<[string, string]> = [
    ['2026-11-22T09:00:00-03:00', '2026-11-22T12:00:00.000Z'],
    ['2026-11-22T09:00:00-0300', '2026-11-22T12:00:00.000Z'],
    ['2026-11-22T09:00:00+0300', '2026-11-22T06:00:00.000Z'],
    ['2026-11-22T09:00+05:30', '2026-11-22T03:30:00.000Z'],
    ['2026-11-22T09:00:00Z', '2026-11-22T09:00:00.000Z'],
    ['2026-11-22t09:00:00z', '2026-11-22T09:00:00.000Z'],
    ['2026-11-22T09:00:00.5-03:00', '2026-11-22T12:00:00.500Z'],
    ['2026-11-22T09:00:00.12Z', '2026-11-22T09:00:00.120Z'],
    // Beyond the millisecond the digits are cut, never rounded up into the next one.
    ['2026-11-22T09:00:00.123456789-03:00', '2026-11-22T12:00:00.123Z'],
    ['2026-11-22T23:59:59.999999999Z', '2026-11-22T23:59:59.999Z'],
    // Offsets carry the instant across days, months and years.
    ['2026-12-31T22:00:00-03:00', '2027-01-01T01:00:00.000Z'],
    ['2026-03-01T01:00:00+0200', '2026-02-28T23:00:00.000Z'],
    ['2028-03-01T01:00:00+02:00', '2028-02-29T23:00:00.000Z'],
    ['2026-11-22T09:00:00+23:59', '2026-11-21T09:01:00.000Z'],
    ['2026-11-22T09:00:00-00:00', '2026-11-22T09:00:00.000Z'],
    // 24:00 is the end of the day.
    ['2026-11-22T24:00Z', '2026-11-23T00:00:00.000Z'],
    ['2026-11-22T24:00:00.000-03:00', '2026-11-23T03:00:00.000Z'],
    // Years below 100 are not 19xx.
    ['0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'],
  ];
  for (const [sent, utc] of cases) assert.equal(toUtcTimestamp(sent), utc, sent);
});

test('text that is not a real date-time with a zone is null', () => {
  for (const text of [
    '',
    '2026-11-22',
    '2026-11-22T09:00:00',
    '2026-11-22 09:00:00Z',
    '2026-11-22T09:00:00+03',
    '2026-11-22T09:00:00.Z',
    '2026-11-22T09:00:00.1234567890Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-11-00T00:00:00Z',
    '2026-11-22T25:00:00Z',
    '2026-11-22T09:60:00Z',
    '2026-11-22T23:59:60Z',
    '2026-11-22T24:00:01Z',
    '2026-11-22T24:00:00.001Z',
    '2026-11-22T24:30Z',
    '2026-11-22T09:00:00+24:00',
    '2026-11-22T09:00:00+12:60',
    ' 2026-11-22T09:00:00Z',
    '2026-11-22T09:00:00Z\n',
  ])
    assert.equal(toUtcTimestamp(text), null, JSON.stringify(text));
});

test("it agrees with V8's Date.parse on every accepted form (which ECMAScript leaves to the engine)", () => {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  fc.assert(
    fc.property(
      fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true }),
      fc.boolean(),
      fc.boolean(),
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 9 }),
      fc.constantFrom('Z', 'z', '+', '-'),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.boolean(),
      (date, withSeconds, withFraction, fraction, zone, oh, om, colon) => {
        const local =
          date.toISOString().slice(0, 16) + (withSeconds ? `:${pad(date.getUTCSeconds(), 2)}${withFraction ? `.${fraction}` : ''}` : '');
        const text = local + (zone === 'Z' || zone === 'z' ? zone : `${zone}${pad(oh, 2)}${colon ? ':' : ''}${pad(om, 2)}`);
        assert.equal(toUtcTimestamp(text), new Date(Date.parse(text)).toISOString(), text);
      },
    ),
    { numRuns: 2000, seed: propertySeed(107) },
  );
});
