// The OpenAPI document and the server agree on the shape of every request body, checked both ways
// on generated bodies sent to a real server (in process):
//
// 1. schema -> server: bodies generated from the document's schema (test/support/schema-arbitrary.ts,
//    every value checked by Ajv 2020 with formats asserted) are never refused for their shape. The
//    server may still refuse them for what a schema cannot know (a CPF's check digits are generated
//    right, so not that; but an e-mail another participant holds, a prize not in the pool, a
//    birthdate after today): those answers carry only the codes of BUSINESS.
// 2. server -> schema: schema-valid bodies with one to three edits (a field removed, retyped,
//    emptied, padded, re-cased, lengthened, a character added or dropped, an unknown field added)
//    that the server refuses for their shape (422 with a shape code in errors[]) are refused by
//    the schema too.
// 3. Where the server is more lenient than the schema, it is only by what the document says it
//    forgives (POST /v1/entries): an edited body the server takes is one the schema takes once
//    trimmed, blank optional fields dropped, UF and country upper-cased and granted_at written in
//    RFC 3339. (A refusal for something else than shape says nothing of this: an instant_win
//    prize that is not a uuid is refused as an unknown prize, which the schema's uuid pattern
//    refuses too.)
//
// Any disagreement fails, with the body and both verdicts. The counts are printed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import examples from 'libphonenumber-js/examples.mobile.json';
import { getCountries, getExampleNumber } from 'libphonenumber-js/max';
import { PROFILE_FIELDS } from '../src/entries/submission.ts';
import { buildOpenApiDocument } from '../src/openapi/document.ts';
import { toUtcTimestamp } from '../src/input/timestamps.ts';
import { schemaArbitrary, type Schema } from './support/schema-arbitrary.ts';
import { drainAll, makeCampaign, makePrize, startTestServer, type TestResponse, type TestServer, type World } from './support/harness.ts';
import { submitEntry } from './support/mechanics.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const document = buildOpenApiDocument() as Schema;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
ajv.addSchema(document, 'ces');
const validators = new Map<string, ValidateFunction>();
const compile = (pointer: string): ValidateFunction => {
  let v = validators.get(pointer);
  if (!v) {
    v = ajv.compile({ $ref: `ces#${pointer}` });
    validators.set(pointer, v);
  }
  return v;
};
const schemaOf = (name: string) => compile(`/components/schemas/${name}`);

// Refusals about stored data, the campaign or the clock: a schema cannot know them.
const BUSINESS = new Set([
  'email_taken',
  'phone_taken',
  'unknown_prize',
  'companies_not_allowed',
  'instant_win_not_allowed',
  'not_in_past',
  'in_future',
  'quantity_mismatch',
  'series_out_of_range',
  'duplicate_pairs',
  'pair_taken',
  'target_not_processed',
  'award_exists',
  'entry_rejected',
]);

// Two codes name both a shape and what a schema cannot check; docs/api.md's words decide which
// one a refusal is: a document whose characters make a CPF or CNPJ (then its check digits are
// wrong), a phone whose characters make an E.164 number (then no such number exists).
const documentShaped = (v: unknown): boolean =>
  typeof v === 'string' && /^(?:[0-9]{11}|[0-9A-Z]{12}[0-9]{2})$/.test(v.replace(/[.\-/\s]/g, '').toUpperCase());
const phoneShaped = (v: unknown): boolean =>
  typeof v === 'string' &&
  /^[0-9]{7,15}$/.test(
    v
      .trim()
      .replace(/^\+/, '')
      .replace(/[\s().-]/g, ''),
  );

function valueAt(body: unknown, field: string): unknown {
  return field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .reduce((node: any, part) => (node === null || typeof node !== 'object' ? undefined : node[part]), body);
}

type Verdict = 'accepted' | 'business' | 'shape';

/** How the server judged a body: taken, refused for something else than shape, refused for shape. */
function verdictOf(body: unknown, res: TestResponse): Verdict {
  if (res.status >= 200 && res.status < 300) return 'accepted';
  assert.ok(res.status !== 400 && res.status !== 413 && res.status !== 415 && res.status < 500, `unexpected ${res.status}: ${res.text}`);
  if (res.status !== 422) return 'business'; // 403/404/409: the entry's or campaign's state
  const errors = (res.body.errors ?? []) as Array<{ field: string; code: string }>;
  assert.ok(errors.length > 0, res.text);
  const shape = errors.filter((e) => {
    if (BUSINESS.has(e.code)) return false;
    if (e.code === 'invalid_document') return !documentShaped(valueAt(body, e.field));
    if (e.code === 'invalid_phone') return !phoneShaped(valueAt(body, e.field));
    return true;
  });
  return shape.length > 0 ? 'shape' : 'business';
}

// ---- values the schema cannot describe, from their definitions (docs/api.md) ----

const cpf = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }).map((digits) => {
  const dv = (ds: number[]) => {
    const sum = ds.reduce((s, d, i) => s + d * (ds.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const first = dv(digits);
  return [...digits, first, dv([...digits, first])].join('');
});
// Alphanumeric CNPJ: each character worth its ASCII code minus 48, weights 2..9 from the right.
const cnpj = fc.array(fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), { minLength: 12, maxLength: 12 }).map((chars) => {
  const dv = (cs: string[]) => {
    const sum = cs.reduceRight((s, c, i) => s + (c.charCodeAt(0) - 48) * (((cs.length - 1 - i) % 8) + 2), 0);
    return sum % 11 < 2 ? 0 : 11 - (sum % 11);
  };
  const first = String(dv(chars));
  return [...chars, first, String(dv([...chars, first]))].join('');
});
const maskCpf = (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
const maskCnpj = (d: string) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
const documentNumber = fc.oneof(
  cpf,
  cpf.map(maskCpf),
  cnpj,
  cnpj.map(maskCnpj),
  cnpj.map((d) => maskCnpj(d).toLowerCase()),
);

const PHONES = getCountries().flatMap((country) => {
  const n = getExampleNumber(country, examples);
  return n ? [n] : [];
});
const phone = fc
  .tuple(fc.constantFrom(...PHONES), fc.integer({ min: 0, max: 2 }))
  .map(([n, style]) => (style === 0 ? n.number.slice(1) : style === 1 ? n.number : n.formatInternational()));

// ---- edits of a body ----

const ODD = [
  undefined,
  null,
  '',
  '   ',
  0,
  1.5,
  true,
  [],
  {},
  'x',
  'ab',
  'SP',
  'br',
  'XX',
  'fiscal_key',
  'Fiscal_Key',
  'marketing',
  '2026-02-30',
  '1899-12-31',
  '2026-11-22T10:00',
  '2026-11-22T24:00Z',
  '2026-11-22 10:00:00Z',
  '1.2.3.4',
  '1.2.3.04',
  '::1',
  '00000000-0000-4000-8000-000000000000',
  'not-a-uuid',
  'https://example.com/hook',
  'http://example.com/hook',
  'https://1.2.3.4/',
  '😀'.repeat(201),
  'a'.repeat(1001),
];

type Edit = { at: number; kind: number; value: unknown; char: string };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  kind: fc.integer({ min: 0, max: 9 }),
  value: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ODD) }, { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) }),
  char: fc.constantFrom(' ', '\t', 'a', 'Z', '9', '-', '.', '/', '+', '@', 'é', '😀', '\u00a0', 'ı'),
});

/** Every [container, key] of a JSON value, the root's own keys first. */
function slots(value: unknown, out: Array<[any, string | number]> = []): Array<[any, string | number]> {
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    out.push([value, Array.isArray(value) ? Number(k) : k]);
    slots(v, out);
  }
  return out;
}

function applyEdits(body: unknown, edits: Edit[]): unknown {
  const copy = structuredClone(body);
  for (const e of edits) {
    const all = slots(copy);
    if (all.length === 0) break;
    const [container, key] = all[e.at % all.length];
    const current = container[key];
    const text = typeof current === 'string' ? current : null;
    switch (e.kind) {
      case 0:
        if (Array.isArray(container)) container.splice(key as number, 1);
        else delete container[key];
        break;
      case 1: // an unknown field beside it
        if (!Array.isArray(container)) container[`${String(key)}_x`] = e.value ?? 'x';
        break;
      case 2:
        container[key] = text === null ? e.value : ` ${text} `;
        break;
      case 3:
        container[key] = text === null ? e.value : text.toLowerCase() === text ? text.toUpperCase() : text.toLowerCase();
        break;
      case 4:
        container[key] = text === null ? e.value : `${text}${e.char}`;
        break;
      case 5:
        container[key] = text === null ? e.value : `${e.char}${text}`;
        break;
      case 6:
        container[key] = text === null ? e.value : text.slice(0, -1);
        break;
      case 7:
        container[key] = text === null ? e.value : text.repeat(2);
        break;
      default:
        container[key] = e.value;
    }
  }
  return copy;
}

// ---- what the document says the server forgives (POST /v1/entries) ----

const TRIMMED = new Set<string>(PROFILE_FIELDS);

function forgiven(body: any): unknown {
  const b = structuredClone(body);
  const e = b.enrollment;
  const tidy = (o: any, names: Iterable<string>, upper: string[] = []) => {
    if (!o || typeof o !== 'object') return;
    for (const name of names) {
      if (typeof o[name] !== 'string') continue;
      const t = o[name].trim();
      if (t === '') delete o[name];
      else o[name] = upper.includes(name) ? t.toUpperCase() : t;
    }
  };
  tidy(e, TRIMMED);
  tidy(e?.address, TRIMMED, ['state', 'country']);
  if (b.consent && typeof b.consent === 'object') {
    for (const name of ['ip_address', 'term_version']) if (typeof b.consent[name] === 'string') b.consent[name] = b.consent[name].trim();
    const iso = typeof b.consent.granted_at === 'string' ? toUtcTimestamp(b.consent.granted_at) : null;
    if (iso) b.consent.granted_at = iso;
  }
  tidy(b.instant_win, ['prize_definition_id']);
  return b;
}

// ---- the run ----

interface Tally {
  generated: number;
  accepted: number;
  business: number;
  refusedForShape: number;
  forgiven: number;
  /** The answers' statuses and codes, for the log. */
  answers: Record<string, number>;
  disagreements: string[];
}
const tally = (): Tally => ({ generated: 0, accepted: 0, business: 0, refusedForShape: 0, forgiven: 0, answers: {}, disagreements: [] });
const count = (t: Tally, res: TestResponse): void => {
  const key = res.status < 300 ? String(res.status) : `${res.status} ${res.body?.code}`;
  t.answers[key] = (t.answers[key] ?? 0) + 1;
};
const tallies: Record<string, { schemaToServer: Tally; serverToSchema: Tally }> = {};

let s: TestServer;
let entries: World;
let prizeIds: string[];
before(async () => {
  // One key sends every request: its rate limit is out of the way (the clock never moves).
  s = await startTestServer({ seed: 77, env: { CES_RATE_LIMIT_BURST: '10000000' } });
  entries = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED', allowCompanies: true });
  prizeIds = [makePrize(s.ctx, entries.campaign.id, 'live', 1_000_000).id, makePrize(s.ctx, entries.campaign.id, 'live', 1_000_000).id];
});
after(async () => {
  await s.close();
  const lines = Object.entries(tallies).map(
    ([body, { schemaToServer: a, serverToSchema: b }]) =>
      `${body}: schema->server ${a.generated} (accepted ${a.accepted}, refused for another reason ${a.business}); ` +
      `edited ${b.generated} (refused for shape ${b.refusedForShape}, all refused by the schema; taken ${b.accepted + b.business}` +
      `${b.forgiven ? `, ${b.forgiven} of them taken by the schema once forgiven` : ''}); disagreements ${a.disagreements.length + b.disagreements.length}` +
      `\n    answers to generated: ${JSON.stringify(a.answers)}\n    answers to edited: ${JSON.stringify(b.answers)}`,
  );
  console.log(`openapi agreement:\n  ${lines.join('\n  ')}`);
});

let keys = 0;
/**
 * Runs both directions for one request body: `send` posts a body and returns the answer, `valid`
 * is the schema, `generate` its schema-valid bodies, `forgive` (if any) what the server forgives.
 */
async function agree(
  name: string,
  options: {
    valid: ValidateFunction;
    generate: fc.Arbitrary<unknown>;
    send: (body: unknown) => Promise<TestResponse>;
    runs: [number, number];
    /** Generated bodies that must be taken (2xx), so that the run means something. */
    minAccepted: number;
    seed: number;
    forgive?: (body: unknown) => unknown;
  },
): Promise<void> {
  const a = tally();
  const b = tally();
  tallies[name] = { schemaToServer: a, serverToSchema: b };
  for (const body of fc.sample(options.generate, { numRuns: options.runs[0], seed: options.seed })) {
    a.generated++;
    assert.ok(options.valid(body), 'the generator yields only schema-valid bodies');
    const res = await options.send(body);
    count(a, res);
    const verdict = verdictOf(body, res);
    if (verdict === 'shape') a.disagreements.push(`schema-valid, refused for shape: ${JSON.stringify(body)} -> ${res.text}`);
    else a[verdict]++;
  }
  const edited = fc.tuple(options.generate, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([body, edits]) => applyEdits(body, edits));
  for (const body of fc.sample(edited, { numRuns: options.runs[1], seed: options.seed + 1 })) {
    b.generated++;
    const res = await options.send(body);
    count(b, res);
    const verdict = verdictOf(body, res);
    if (verdict === 'shape') {
      b.refusedForShape++;
      if (options.valid(body)) b.disagreements.push(`refused for shape, schema-valid: ${JSON.stringify(body)} -> ${res.text}`);
    } else {
      b[verdict]++;
      // Taken: its shape is one the document says the server forgives.
      if (verdict === 'accepted' && options.forgive && !options.valid(body)) {
        if (options.valid(options.forgive(body))) b.forgiven++;
        else b.disagreements.push(`taken by the server, refused by the schema even forgiven: ${JSON.stringify(body)} -> ${res.status}`);
      }
    }
  }
  assert.deepEqual([...a.disagreements, ...b.disagreements], [], `${name}: schema and server disagree`);
  assert.ok(a.accepted >= options.minAccepted, `${name}: enough generated bodies were taken to mean something (${a.accepted})`);
  assert.ok(b.refusedForShape > options.runs[1] / 4, `${name}: enough edited bodies were refused for shape (${b.refusedForShape})`);
}

describe('schema and server agree on every request body', () => {
  test('POST /v1/entries (EntrySubmission)', async () => {
    const generate = schemaArbitrary('/components/schemas/EntrySubmission', {
      document,
      compile,
      overrides: {
        'enrollment.document_number': documentNumber,
        'enrollment.phone': phone,
        'instant_win.prize_definition_id': fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...prizeIds) },
          { weight: 1, arbitrary: fc.uuid() },
        ),
      },
    });
    await agree('EntrySubmission', {
      valid: schemaOf('EntrySubmission'),
      generate,
      send: (body) => s.request('POST', '/v1/entries', { key: entries.liveKey, idempotencyKey: `agree-${++keys}`, body }),
      runs: [400, 800],
      minAccepted: 100,
      seed: 2031,
      forgive: forgiven,
    });
  });

  test('POST /v1/entries/{id}/lucky-numbers, instant-prize/revoke and reassign, PATCH /v1/webhook', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'manual', luckyQuantity: 2, seriesCount: 10 });
    const prizes = [makePrize(s.ctx, w.campaign.id, 'live', 1_000_000).id, makePrize(s.ctx, w.campaign.id, 'live', 1_000_000).id];
    // Entries to submit lucky numbers for, used up one by one (the first accepted submission is final),
    // and a winner whose award is revoked and reassigned again and again.
    const pending: string[] = [];
    for (let i = 0; i < 30; i++) pending.push(await submitEntry(s, w.liveKey));
    const winner = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prizes[0] } });
    await drainAll(s);
    const config = await s.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://crm.example.com/hooks' } });
    assert.equal(config.status, 201, config.text);
    const bodies = (name: string, overrides: Record<string, fc.Arbitrary<unknown>> = {}) =>
      schemaArbitrary(`/components/schemas/${name}`, { document, compile, overrides });

    await agree('LuckyNumbersSubmission', {
      valid: schemaOf('LuckyNumbersSubmission'),
      // Numbers within the campaign's 10 series now and then, so that some are assigned.
      generate: bodies('LuckyNumbersSubmission', {
        'numbers.series': fc.oneof(fc.constantFrom(...'0123456789'), fc.stringMatching(/^[0-9]{1,9}$/)),
      }),
      send: async (body) => {
        const res = await s.request('POST', `/v1/entries/${pending[0]}/lucky-numbers`, { key: w.liveKey, body });
        if (res.status === 201) pending.shift();
        assert.ok(pending.length > 0, 'enough entries for the numbers assigned');
        return res;
      },
      runs: [60, 120],
      minAccepted: 2,
      seed: 17,
    });
    await agree('RevokeRequest', {
      valid: schemaOf('RevokeRequest'),
      generate: bodies('RevokeRequest'),
      send: (body) => s.request('POST', `/v1/entries/${winner}/instant-prize/revoke`, { key: w.liveKey, body }),
      runs: [40, 80],
      minAccepted: 30,
      seed: 18,
    });
    await agree('ReassignRequest', {
      valid: schemaOf('ReassignRequest'),
      generate: bodies('ReassignRequest', {
        prize_definition_id: fc.oneof(fc.constantFrom(...prizes), fc.uuid()),
        // Kept on the entry itself (a target naming it is the same as none), so the award stays to move again.
        target_entry_id: fc.constantFrom(undefined, null, winner),
      }),
      send: (body) => s.request('POST', `/v1/entries/${winner}/instant-prize/reassign`, { key: w.liveKey, body }),
      runs: [40, 80],
      minAccepted: 10,
      seed: 19,
    });
    await agree('WebhookPatch', {
      valid: schemaOf('WebhookPatch'),
      generate: bodies('WebhookPatch'),
      send: (body) => s.request('PATCH', '/v1/webhook', { key: w.liveKey, body }),
      runs: [60, 120],
      minAccepted: 40,
      seed: 20,
    });
  });
});
