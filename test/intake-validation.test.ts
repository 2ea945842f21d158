// POST /v1/entries input rules (docs/api.md#entry-submission, docs/api.md#errors): every
// cause of a 4xx with its stable code and errors[].field path, what is accepted and how it is
// normalised, and that a refused request writes nothing and never produces a 5xx.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { after, before, describe, test } from 'node:test';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { entryBody, makeCampaign, makePrize, startTestServer, type TestResponse, type TestServer, type World } from './support/harness.ts';
import { assertProblem } from './support/assert.ts';
import { propertySeed } from './support/property.ts';

let s: TestServer;
let plain: World; // no mechanics, no companies, nothing required
let companies: World; // --allow-companies
let declared: World; // --instant-prize INTEGRATOR_DECLARED with one live and one test prize
let livePrizeId: string;
let testPrizeId: string;
let otherCampaignPrizeId: string;

before(async () => {
  s = await startTestServer();
  plain = makeCampaign(s.ctx);
  companies = makeCampaign(s.ctx, { allowCompanies: true });
  declared = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
  livePrizeId = makePrize(s.ctx, declared.campaign.id, 'live').id;
  testPrizeId = makePrize(s.ctx, declared.campaign.id, 'test').id;
  const other = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
  otherCampaignPrizeId = makePrize(s.ctx, other.campaign.id, 'live').id;
});
after(() => s.close());

const TABLES = ['entries', 'enrollments', 'consents', 'jobs', 'awards', 'webhook_deliveries'];
function rowCounts(): Record<string, number> {
  return Object.fromEntries(TABLES.map((t) => [t, (s.ctx.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]));
}

let seq = 0;
const nextKey = (): string => `val-${++seq}`;

/** A deep copy of a valid body with one path set (or deleted when value is DELETE). */
const DELETE = Symbol('delete');
function patched(path: string, value: unknown, base: Record<string, unknown> = entryBody()): Record<string, unknown> {
  const body = structuredClone(base);
  const parts = path.split('.');
  let node = body as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1];
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return body;
}

interface RejectCase {
  name: string;
  world?: () => World;
  mode?: 'live' | 'test';
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string | null;
  status: number;
  code: string;
  fields?: Array<[string, string]>;
}

const ACCESS_KEY = makeAccessKey({ yymm: '2611' });
const CNPJ_CLASSIC = '11.222.333/0001-81';
const CNPJ_ALPHA = '12.ABC.345/01DE-35';

const rejects: RejectCase[] = [
  // docs/api.md#errors: at any depth, one error per field, beside the others.
  {
    name: 'a typo in an enrollment field (emial) is refused, not stored without the e-mail',
    body: entryBody({ enrollment: { emial: 'maria@example.com' } }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.emial', 'unknown_field']],
  },
  {
    name: 'unknown fields at the top, in the address, in a consent item and in evidence, all listed with another violation',
    body: () => {
      const body = entryBody({
        enrollment: { nickname: 'Mari', address: { city: 'Recife', street: 'x' }, email: 'not-an-email' },
        consent: { consents: [{ consent_type: 'marketing', granted: true, channel: 'sms' }] },
        evidence: { kind: 'nfe' },
      });
      return { ...body, campaign: 'x' };
    },
    status: 422,
    code: 'validation_failed',
    fields: [
      ['enrollment.email', 'invalid_email'],
      ['enrollment.nickname', 'unknown_field'],
      ['enrollment.address.street', 'unknown_field'],
      ['consent.consents.0.channel', 'unknown_field'],
      ['evidence.kind', 'unknown_field'],
      ['campaign', 'unknown_field'],
    ],
  },
  {
    name: 'a consent granted more than 5 minutes ahead of the server clock',
    body: entryBody({ consent: { granted_at: '2099-01-01T00:00:00Z' } }),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'in_future']],
  },
  {
    name: 'a duplicate consent_type is listed beside another consent item that is invalid',
    body: entryBody({
      consent: {
        consents: [
          { consent_type: 'marketing', granted: true },
          { consent_type: 'marketing', granted: false },
          { consent_type: 'marketing', granted: 'yes' },
        ],
      },
    }),
    status: 422,
    code: 'validation_failed',
    fields: [
      ['consent.consents.1.consent_type', 'duplicate'],
      ['consent.consents.2.granted', 'invalid_type'],
    ],
  },
  // headers
  {
    name: 'Idempotency-Key missing',
    idempotencyKey: null,
    body: entryBody(),
    status: 422,
    code: 'idempotency_key_missing',
    fields: [['Idempotency-Key', 'required']],
  },
  {
    name: 'Idempotency-Key empty',
    headers: { 'idempotency-key': '' },
    idempotencyKey: null,
    body: entryBody(),
    status: 422,
    code: 'idempotency_key_missing',
    fields: [['Idempotency-Key', 'required']],
  },
  {
    name: 'Idempotency-Key of 129 characters',
    idempotencyKey: 'k'.repeat(129),
    body: entryBody(),
    status: 422,
    code: 'idempotency_key_invalid',
    fields: [['Idempotency-Key', 'too_long']],
  },
  {
    name: 'Content-Type text/plain',
    headers: { 'content-type': 'text/plain' },
    raw: JSON.stringify(entryBody()),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'Content-Type application/x-www-form-urlencoded',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'a=1',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'Content-Type application/jsonx',
    headers: { 'content-type': 'application/jsonx' },
    raw: JSON.stringify(entryBody()),
    status: 415,
    code: 'unsupported_media_type',
  },
  // body syntax
  { name: 'malformed JSON', raw: '{"enrollment": ', status: 400, code: 'invalid_json' },
  { name: 'trailing garbage after JSON', raw: `${JSON.stringify(entryBody())}x`, status: 400, code: 'invalid_json' },
  { name: 'empty body', raw: '', status: 400, code: 'invalid_json' },
  { name: 'whitespace body', raw: '  \n ', status: 400, code: 'invalid_json' },
  { name: 'body larger than 64 KiB', body: { ...entryBody(), padding: 'x'.repeat(65 * 1024) }, status: 413, code: 'payload_too_large' },
  // non-object bodies
  { name: 'body is an array', body: [entryBody()], status: 422, code: 'validation_failed', fields: [['', 'invalid_type']] },
  { name: 'body is a string', body: 'entry', status: 422, code: 'validation_failed', fields: [['', 'invalid_type']] },
  { name: 'body is a number', body: 42, status: 422, code: 'validation_failed', fields: [['', 'invalid_type']] },
  { name: 'body is null', raw: 'null', status: 422, code: 'validation_failed', fields: [['', 'invalid_type']] },
  {
    name: 'body is an empty object',
    body: {},
    status: 422,
    code: 'validation_failed',
    fields: [
      ['enrollment', 'required'],
      ['consent', 'required'],
      ['evidence', 'required'],
    ],
  },
  // required fields
  ...['enrollment', 'consent', 'evidence'].map((f): RejectCase => ({
    name: `${f} missing`,
    body: patched(f, DELETE),
    status: 422,
    code: 'validation_failed',
    fields: [[f, 'required']],
  })),
  ...[
    'enrollment.document_number',
    'consent.granted_at',
    'consent.ip_address',
    'consent.user_agent',
    'consent.term_version',
    'evidence.type',
    'evidence.access_key',
  ].map((f): RejectCase => ({
    name: `${f} missing`,
    body: patched(f, DELETE),
    status: 422,
    code: 'validation_failed',
    fields: [[f, 'required']],
  })),
  {
    name: 'consents[] item without granted',
    body: patched('consent.consents', [{ consent_type: 'marketing' }]),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents.0.granted', 'required']],
  },
  {
    name: 'consents[] item without consent_type',
    body: patched('consent.consents', [{ granted: true }]),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents.0.consent_type', 'required']],
  },
  {
    name: 'instant_win without won',
    world: () => declared,
    body: patched('instant_win', { prize_definition_id: '00000000-0000-4000-8000-000000000000' }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.won', 'required']],
  },
  // wrong types
  {
    name: 'enrollment is a string',
    body: patched('enrollment', 'x'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment', 'invalid_type']],
  },
  {
    name: 'enrollment is an array',
    body: patched('enrollment', []),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment', 'invalid_type']],
  },
  {
    name: 'document_number is a number',
    body: patched('enrollment.document_number', 52998224725),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.document_number', 'invalid_type']],
  },
  {
    name: 'document_number is null',
    body: patched('enrollment.document_number', null),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.document_number', 'invalid_type']],
  },
  {
    name: 'full_name is a number',
    body: patched('enrollment.full_name', 5),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.full_name', 'invalid_type']],
  },
  {
    name: 'email is a boolean',
    body: patched('enrollment.email', true),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.email', 'invalid_type']],
  },
  {
    name: 'phone is a number',
    body: patched('enrollment.phone', 5511987654321),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.phone', 'invalid_type']],
  },
  {
    name: 'birthdate is an object',
    body: patched('enrollment.birthdate', { y: 1990 }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.birthdate', 'invalid_type']],
  },
  {
    name: 'address is a string',
    body: patched('enrollment.address', 'Rua A, 1'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address', 'invalid_type']],
  },
  {
    name: 'address is an array',
    body: patched('enrollment.address', []),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address', 'invalid_type']],
  },
  {
    name: 'address.city is a number',
    body: patched('enrollment.address', { city: 3 }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address.city', 'invalid_type']],
  },
  {
    name: 'consent is an array',
    body: patched('consent', []),
    status: 422,
    code: 'validation_failed',
    fields: [['consent', 'invalid_type']],
  },
  {
    name: 'granted_at is a number',
    body: patched('consent.granted_at', 1763812800),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_type']],
  },
  {
    name: 'consents is an object',
    body: patched('consent.consents', { marketing: true }),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents', 'invalid_type']],
  },
  {
    name: 'consents[].granted is a string',
    body: patched('consent.consents', [{ consent_type: 'marketing', granted: 'yes' }]),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents.0.granted', 'invalid_type']],
  },
  {
    name: 'evidence.access_key is a number',
    body: patched('evidence.access_key', 3.5e43),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.access_key', 'invalid_type']],
  },
  {
    name: 'instant_win is a boolean',
    world: () => declared,
    body: patched('instant_win', true),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win', 'invalid_type']],
  },
  {
    name: 'instant_win.won is a string',
    world: () => declared,
    body: patched('instant_win', { won: 'true' }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.won', 'invalid_type']],
  },
  {
    name: 'instant_win.prize_definition_id is a number',
    world: () => declared,
    body: patched('instant_win', { won: true, prize_definition_id: 7 }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.prize_definition_id', 'invalid_type']],
  },
  {
    name: 'a string sent as an object with its own "toString" key',
    body: patched('enrollment.document_number', { toString: null }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.document_number', 'invalid_type']],
  },
  {
    name: 'a string sent as an object with its own "valueOf" and "toString" keys',
    world: () => declared,
    body: patched('instant_win', { won: true, prize_definition_id: { valueOf: 1, toString: 'x' } }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.prize_definition_id', 'invalid_type']],
  },
  // consents[] enum and duplicates
  {
    name: 'consents[] with a consent_type outside the enum',
    body: patched('consent.consents', [
      { consent_type: 'marketing', granted: true },
      { consent_type: 'newsletter', granted: true },
    ]),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents.1.consent_type', 'invalid_value']],
  },
  {
    name: 'consents[] with an upper-case consent_type',
    body: patched('consent.consents', [{ consent_type: 'MARKETING', granted: true }]),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents.0.consent_type', 'invalid_value']],
  },
  {
    name: 'consents[] naming one type twice',
    body: patched('consent.consents', [
      { consent_type: 'marketing', granted: true },
      { consent_type: 'marketing', granted: false },
    ]),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.consents.1.consent_type', 'duplicate']],
  },
  // documents
  {
    name: 'CPF with a wrong check digit',
    body: patched('enrollment.document_number', '529.982.247-24'),
    status: 422,
    code: 'invalid_document',
    fields: [['enrollment.document_number', 'invalid_document']],
  },
  {
    name: 'CPF of one repeated digit',
    body: patched('enrollment.document_number', '111.111.111-11'),
    status: 422,
    code: 'invalid_document',
    fields: [['enrollment.document_number', 'invalid_document']],
  },
  {
    name: 'document of 10 digits',
    body: patched('enrollment.document_number', '5299822472'),
    status: 422,
    code: 'invalid_document',
    fields: [['enrollment.document_number', 'invalid_document']],
  },
  {
    name: 'empty document_number',
    body: patched('enrollment.document_number', ''),
    status: 422,
    code: 'invalid_document',
    fields: [['enrollment.document_number', 'invalid_document']],
  },
  {
    name: 'CNPJ with a wrong check digit',
    world: () => companies,
    body: patched('enrollment.document_number', '11.222.333/0001-82'),
    status: 422,
    code: 'invalid_document',
    fields: [['enrollment.document_number', 'invalid_document']],
  },
  {
    name: 'alphanumeric CNPJ with a wrong check digit',
    world: () => companies,
    body: patched('enrollment.document_number', '12.ABC.345/01DE-36'),
    status: 422,
    code: 'invalid_document',
    fields: [['enrollment.document_number', 'invalid_document']],
  },
  {
    name: 'valid classic CNPJ when the campaign does not allow companies',
    body: patched('enrollment.document_number', CNPJ_CLASSIC),
    status: 422,
    code: 'companies_not_allowed',
    fields: [['enrollment.document_number', 'companies_not_allowed']],
  },
  {
    name: 'valid alphanumeric CNPJ when the campaign does not allow companies',
    body: patched('enrollment.document_number', CNPJ_ALPHA),
    status: 422,
    code: 'companies_not_allowed',
    fields: [['enrollment.document_number', 'companies_not_allowed']],
  },
  // enrollment fields
  {
    name: 'email without a domain dot',
    body: patched('enrollment.email', 'maria@example'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.email', 'invalid_email']],
  },
  {
    name: 'email without @',
    body: patched('enrollment.email', 'maria.example.com'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.email', 'invalid_email']],
  },
  {
    name: 'email with a space',
    body: patched('enrollment.email', 'maria silva@example.com'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.email', 'invalid_email']],
  },
  {
    name: 'phone too short',
    body: patched('enrollment.phone', '12345'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.phone', 'invalid_phone']],
  },
  {
    name: 'phone with letters',
    body: patched('enrollment.phone', '55119876ABCD'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.phone', 'invalid_phone']],
  },
  {
    name: 'phone of a range never assigned (55 11 8xxxx-xxxx)',
    body: patched('enrollment.phone', '5511887654321'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.phone', 'invalid_phone']],
  },
  {
    name: 'phone of 16 digits',
    body: patched('enrollment.phone', '5511987654321000'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.phone', 'invalid_phone']],
  },
  {
    name: 'birthdate that is not a real date',
    body: patched('enrollment.birthdate', '1990-02-30'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.birthdate', 'invalid_date']],
  },
  {
    name: 'birthdate in DD/MM/YYYY',
    body: patched('enrollment.birthdate', '30/01/1990'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.birthdate', 'invalid_date']],
  },
  {
    name: 'birthdate with a time',
    body: patched('enrollment.birthdate', '1990-01-30T00:00:00Z'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.birthdate', 'invalid_date']],
  },
  {
    name: 'birthdate today (2026-11-22 in Brazil)',
    body: patched('enrollment.birthdate', '2026-11-22'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.birthdate', 'not_in_past']],
  },
  {
    name: 'birthdate in the future',
    body: patched('enrollment.birthdate', '2030-01-01'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.birthdate', 'not_in_past']],
  },
  {
    name: 'full_name of 2 characters',
    body: patched('enrollment.full_name', 'Jo'),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.full_name', 'too_short']],
  },
  {
    name: 'full_name of 2 characters padded with spaces',
    body: patched('enrollment.full_name', '  Jo  '),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.full_name', 'too_short']],
  },
  // Field maxima (docs/api.md#errors: documented maxima, too_long), in code points.
  {
    name: 'full_name of 201 characters',
    body: patched('enrollment.full_name', 'a'.repeat(201)),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.full_name', 'too_long']],
  },
  {
    name: 'full_name of 201 astral characters',
    body: patched('enrollment.full_name', '𝒜'.repeat(201)),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.full_name', 'too_long']],
  },
  {
    name: 'full_name of 64 KiB',
    body: patched('enrollment.full_name', 'x'.repeat(60_000)),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.full_name', 'too_long']],
  },
  {
    name: 'email of 255 characters',
    body: patched('enrollment.email', `${'a'.repeat(243)}@example.com`),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.email', 'too_long']],
  },
  {
    name: 'phone of 33 characters',
    body: patched('enrollment.phone', `55 11 98765-4321${' '.repeat(10)}0000000`),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.phone', 'too_long']],
  },
  {
    name: 'address lines, neighborhood, city and zipcode past their maxima',
    body: patched('enrollment.address', {
      address_line_1: 'r'.repeat(201),
      address_line_2: 'r'.repeat(201),
      neighborhood: 'b'.repeat(101),
      city: 'c'.repeat(101),
      zipcode: '0'.repeat(17),
    }),
    status: 422,
    code: 'validation_failed',
    fields: [
      ['enrollment.address.address_line_1', 'too_long'],
      ['enrollment.address.address_line_2', 'too_long'],
      ['enrollment.address.neighborhood', 'too_long'],
      ['enrollment.address.city', 'too_long'],
      ['enrollment.address.zipcode', 'too_long'],
    ],
  },
  {
    name: 'term_version of 101 characters',
    body: patched('consent.term_version', 'v'.repeat(101)),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.term_version', 'too_long']],
  },
  {
    name: 'state that is not a UF',
    body: patched('enrollment.address', { state: 'XX' }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address.state', 'invalid_state']],
  },
  {
    name: 'state spelled out',
    body: patched('enrollment.address', { state: 'São Paulo' }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address.state', 'invalid_state']],
  },
  {
    name: 'country of three letters',
    body: patched('enrollment.address', { country: 'BRA' }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address.country', 'invalid_country']],
  },
  {
    name: 'country not assigned by ISO 3166',
    body: patched('enrollment.address', { country: 'ZZ' }),
    status: 422,
    code: 'validation_failed',
    fields: [['enrollment.address.country', 'invalid_country']],
  },
  // consent fields
  {
    name: 'granted_at without a timezone',
    body: patched('consent.granted_at', '2026-11-22T09:00:00'),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_date_time']],
  },
  {
    name: 'granted_at as a date only',
    body: patched('consent.granted_at', '2026-11-22'),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_date_time']],
  },
  {
    name: 'granted_at with a space instead of T',
    body: patched('consent.granted_at', '2026-11-22 09:00:00Z'),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_date_time']],
  },
  {
    name: 'granted_at on a day that does not exist',
    body: patched('consent.granted_at', '2026-02-30T10:00:00Z'),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_date_time']],
  },
  {
    name: 'granted_at at hour 25',
    body: patched('consent.granted_at', '2026-11-22T25:00:00Z'),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_date_time']],
  },
  {
    name: 'granted_at in free text',
    body: patched('consent.granted_at', 'yesterday'),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.granted_at', 'invalid_date_time']],
  },
  ...['256.1.1.1', '1.2.3', '203.0.113.7/24', 'localhost', '::g', '2001:db8::1::2', ''].map((ip): RejectCase => ({
    name: `ip_address ${JSON.stringify(ip)}`,
    body: patched('consent.ip_address', ip),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.ip_address', 'invalid_ip']],
  })),
  {
    name: 'empty user_agent',
    body: patched('consent.user_agent', '  '),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.user_agent', 'required']],
  },
  {
    name: 'empty term_version',
    body: patched('consent.term_version', ''),
    status: 422,
    code: 'validation_failed',
    fields: [['consent.term_version', 'required']],
  },
  // evidence
  {
    name: 'evidence.type receipt',
    body: patched('evidence.type', 'receipt'),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.type', 'unsupported_evidence_type']],
  },
  {
    name: 'evidence.type in upper case',
    body: patched('evidence.type', 'FISCAL_KEY'),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.type', 'unsupported_evidence_type']],
  },
  {
    name: 'access_key of 43 digits',
    body: patched('evidence.access_key', ACCESS_KEY.slice(0, 43)),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.access_key', 'invalid_access_key']],
  },
  {
    name: 'access_key of 51 digits',
    body: patched('evidence.access_key', `${ACCESS_KEY}1234567`),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.access_key', 'invalid_access_key']],
  },
  {
    name: 'access_key with letters',
    body: patched('evidence.access_key', `${ACCESS_KEY.slice(0, 40)}ABCD`),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.access_key', 'invalid_access_key']],
  },
  {
    name: 'access_key with dashes',
    body: patched('evidence.access_key', `${ACCESS_KEY.slice(0, 20)}-${ACCESS_KEY.slice(20)}`),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.access_key', 'invalid_access_key']],
  },
  {
    name: 'empty access_key',
    body: patched('evidence.access_key', ''),
    status: 422,
    code: 'validation_failed',
    fields: [['evidence.access_key', 'invalid_access_key']],
  },
  // instant_win shape and prize
  {
    name: 'instant_win won true without a prize',
    world: () => declared,
    body: patched('instant_win', { won: true }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.prize_definition_id', 'required']],
  },
  {
    name: 'instant_win won true with a null prize',
    world: () => declared,
    body: patched('instant_win', { won: true, prize_definition_id: null }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.prize_definition_id', 'required']],
  },
  {
    name: 'instant_win won false with a prize',
    world: () => declared,
    body: patched('instant_win', { won: false, prize_definition_id: '00000000-0000-4000-8000-000000000000' }),
    status: 422,
    code: 'validation_failed',
    fields: [['instant_win.prize_definition_id', 'not_allowed']],
  },
  {
    name: 'instant_win prize that is not a uuid',
    world: () => declared,
    body: patched('instant_win', { won: true, prize_definition_id: 'voucher-50' }),
    status: 422,
    code: 'unknown_prize',
    fields: [['instant_win.prize_definition_id', 'unknown_prize']],
  },
  {
    name: 'instant_win prize unknown uuid',
    world: () => declared,
    body: patched('instant_win', { won: true, prize_definition_id: '00000000-0000-4000-8000-000000000000' }),
    status: 422,
    code: 'unknown_prize',
    fields: [['instant_win.prize_definition_id', 'unknown_prize']],
  },
  {
    name: 'instant_win prize of another campaign',
    world: () => declared,
    body: () => patched('instant_win', { won: true, prize_definition_id: otherCampaignPrizeId }),
    status: 422,
    code: 'unknown_prize',
    fields: [['instant_win.prize_definition_id', 'unknown_prize']],
  },
  {
    name: 'instant_win live prize sent with a test key',
    world: () => declared,
    mode: 'test',
    body: () => patched('instant_win', { won: true, prize_definition_id: livePrizeId }),
    status: 422,
    code: 'unknown_prize',
    fields: [['instant_win.prize_definition_id', 'unknown_prize']],
  },
  {
    name: 'instant_win test prize sent with a live key',
    world: () => declared,
    body: () => patched('instant_win', { won: true, prize_definition_id: testPrizeId }),
    status: 422,
    code: 'unknown_prize',
    fields: [['instant_win.prize_definition_id', 'unknown_prize']],
  },
  {
    name: 'instant_win (a loss) on a campaign without a declared mechanic',
    body: patched('instant_win', { won: false }),
    status: 422,
    code: 'instant_win_not_allowed',
    fields: [['instant_win', 'instant_win_not_allowed']],
  },
  {
    name: 'instant_win (a win) on a campaign without a declared mechanic',
    body: () => patched('instant_win', { won: true, prize_definition_id: livePrizeId }),
    status: 422,
    code: 'instant_win_not_allowed',
    fields: [['instant_win', 'instant_win_not_allowed']],
  },
  // several violations at once: all listed, the top-level code is the generic one
  {
    name: 'several violations are all listed',
    body: patched(
      'consent',
      DELETE,
      patched('enrollment.phone', '1', patched('enrollment.email', 'x', patched('enrollment.document_number', '529.982.247-24'))),
    ),
    status: 422,
    code: 'validation_failed',
    // In the order of the body's fields.
    fields: [
      ['enrollment.document_number', 'invalid_document'],
      ['enrollment.email', 'invalid_email'],
      ['enrollment.phone', 'invalid_phone'],
      ['consent', 'required'],
    ],
  },
];

describe('refused submissions: status, code, errors[] and no row written', () => {
  for (const c of rejects) {
    test(`${c.name} -> ${c.status} ${c.code}`, async () => {
      const world = (c.world ?? (() => plain))();
      const before = rowCounts();
      const body = typeof c.body === 'function' ? (c.body as () => unknown)() : c.body;
      const res = await s.request('POST', '/v1/entries', {
        key: c.mode === 'test' ? world.testKey : world.liveKey,
        body,
        raw: c.raw,
        headers: c.headers,
        idempotencyKey: c.idempotencyKey === undefined ? nextKey() : c.idempotencyKey,
      });
      assertProblem(res, c.status, c.code, c.fields);
      assert.deepEqual(rowCounts(), before, 'a refused request writes nothing');
    });
  }

  test('a body over the limit without Content-Length (chunked) is still 413', async () => {
    const chunk = new TextEncoder().encode(`{"padding":"${'x'.repeat(16 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await s.fetch('/v1/entries', {
      method: 'POST',
      headers: { authorization: `Bearer ${plain.liveKey}`, 'idempotency-key': nextKey(), 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.equal((await res.json()).code, 'payload_too_large');
  });

  test('invalid UTF-8 in the body is 400 invalid_json', async () => {
    const res = await s.fetch('/v1/entries', {
      method: 'POST',
      headers: { authorization: `Bearer ${plain.liveKey}`, 'idempotency-key': nextKey(), 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, 'invalid_json');
  });
});

async function accept(
  body: unknown,
  world: World = plain,
  mode: 'live' | 'test' = 'live',
): Promise<{ id: string; status: string; res: TestResponse }> {
  const res = await s.request('POST', '/v1/entries', {
    key: mode === 'live' ? world.liveKey : world.testKey,
    body,
    idempotencyKey: nextKey(),
  });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(Object.keys(res.body).sort(), ['entry_id', 'message', 'status']);
  assert.match(res.body.entry_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return { id: res.body.entry_id, status: res.body.status, res };
}

// A fresh participant per accepted case, so enrollments never interfere with each other.
let person = 100;
const fresh = (patch: Parameters<typeof entryBody>[0] = {}): Record<string, unknown> => entryBody(patch, ++person);

function storedEnrollmentOf(entryId: string): Record<string, unknown> {
  return s.ctx.db.prepare('SELECT n.* FROM entries e JOIN enrollments n ON n.id = e.enrollment_id WHERE e.id = ?').get(entryId) as Record<
    string,
    unknown
  >;
}

describe('accepted submissions and their normalisation', () => {
  test('Idempotency-Key of exactly 128 characters and of 1 character are accepted', async () => {
    for (const key of ['k'.repeat(128), 'z']) {
      const res = await s.request('POST', '/v1/entries', { key: plain.liveKey, body: fresh(), idempotencyKey: key });
      assert.equal(res.status, 202, res.text);
    }
  });

  test('Content-Type with a charset parameter and in upper case is accepted', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      const res = await s.request('POST', '/v1/entries', {
        key: plain.liveKey,
        raw: JSON.stringify(fresh()),
        headers: { 'content-type': type },
        idempotencyKey: nextKey(),
      });
      assert.equal(res.status, 202, res.text);
    }
  });

  test('an accepted entry writes the entry, enrollment, consent with its choices, a process job and entry.received', async () => {
    const before = rowCounts();
    const { id, status, res } = await accept(fresh());
    assert.equal(status, 'PENDING');
    assert.equal(res.body.message, 'Entry accepted for processing.');
    const after = rowCounts();
    assert.deepEqual(after, {
      ...before,
      entries: before.entries + 1,
      enrollments: before.enrollments + 1,
      consents: before.consents + 1,
      jobs: before.jobs + 1,
      webhook_deliveries: before.webhook_deliveries + 1,
    });
    const choices = JSON.parse(s.ctx.db.prepare('SELECT choices FROM consents WHERE entry_id = ?').pluck().get(id) as string) as Array<{
      consent_type: string;
    }>;
    assert.deepEqual(
      choices.map((c) => c.consent_type).sort(),
      ['privacy_policy', 'regulation', 'transactional'],
      'the three implicit choices',
    );
    const job = s.ctx.db.prepare('SELECT kind FROM jobs WHERE entry_id = ?').all(id);
    assert.deepEqual(job, [{ kind: 'process' }]);
    const events = s.ctx.db.prepare('SELECT event_type FROM webhook_deliveries WHERE entry_id = ?').all(id);
    assert.deepEqual(events, [{ event_type: 'entry.received' }]);
  });

  test('a consent granted up to 5 minutes ahead of the server clock is accepted (a partner clock a little fast)', async () => {
    await accept(fresh({ consent: { granted_at: '2026-11-22T09:04:59-03:00' } }));
  });

  test('null optional fields are treated as omitted', async () => {
    const { id } = await accept(
      fresh({
        enrollment: { full_name: null, email: null, phone: null, birthdate: null, address: null },
        consent: { consents: null },
        instant_win: null,
      }),
    );
    const n = storedEnrollmentOf(id);
    assert.equal(n.full_name, null);
    assert.equal(n.country, null, 'no address sent: no country default');
  });

  test('CPF punctuation is stripped before storing', async () => {
    const { id } = await accept(fresh({ enrollment: { document_number: ' 390.533.447-05 ' } }));
    assert.equal(storedEnrollmentOf(id).document_number, '39053344705');
    assert.equal(storedEnrollmentOf(id).document_type, 'cpf');
  });

  const cnpjs: Array<[string, string]> = [
    [CNPJ_CLASSIC, '11222333000181'],
    ['11222333000181', '11222333000181'],
    [CNPJ_ALPHA, '12ABC34501DE35'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
  ];
  for (const [raw, stored] of cnpjs) {
    test(`CNPJ ${raw} is accepted when the campaign allows companies and stored as ${stored}`, async () => {
      const { id, status } = await accept(fresh({ enrollment: { document_number: raw } }), companies);
      assert.equal(status, 'PENDING');
      assert.equal(storedEnrollmentOf(id).document_number, stored);
      assert.equal(storedEnrollmentOf(id).document_type, 'cnpj');
    });
  }

  const phones: Array<[string, string]> = [
    ['5511987654321', '5511987654321'],
    ['+55 (11) 98765-4321', '5511987654321'],
    ['55 11 98765.4321', '5511987654321'],
    ['1 (212) 555-0123', '12125550123'],
    ['447911123456', '447911123456'],
    ['351 912 345 678', '351912345678'],
  ];
  for (const [raw, stored] of phones) {
    test(`phone ${raw} is accepted and stored as ${stored}`, async () => {
      const { id } = await accept(fresh({ enrollment: { phone: raw } }), makeCampaign(s.ctx));
      assert.equal(storedEnrollmentOf(id).phone, stored);
    });
  }

  test('address: UF and country upper-cased, country defaults to BR when an address is sent, whitespace trimmed', async () => {
    const a = await accept(fresh({ enrollment: { address: { city: '  Campinas ', state: 'sp' } } }));
    assert.deepEqual(pick(storedEnrollmentOf(a.id), ['city', 'state', 'country']), { city: 'Campinas', state: 'SP', country: 'BR' });
    const b = await accept(fresh({ enrollment: { address: { city: 'Lisboa', country: 'pt' } } }));
    assert.deepEqual(pick(storedEnrollmentOf(b.id), ['city', 'state', 'country']), { city: 'Lisboa', state: null, country: 'PT' });
    const c = await accept(fresh({ enrollment: { address: {} } }));
    assert.equal(storedEnrollmentOf(c.id).country, 'BR');
  });

  test('every text field at its maximum is accepted and stored whole; a user_agent over 1024 characters is truncated, not refused', async () => {
    const long = {
      full_name: 'N'.repeat(200),
      email: `${'e'.repeat(242)}@example.com`,
      address: {
        address_line_1: 'L'.repeat(200),
        address_line_2: 'M'.repeat(200),
        neighborhood: 'B'.repeat(100),
        city: 'C'.repeat(100),
        zipcode: '0'.repeat(16),
      },
    };
    const { id } = await accept(fresh({ enrollment: long, consent: { term_version: 'v'.repeat(100), user_agent: 'u'.repeat(5_000) } }));
    const stored = storedEnrollmentOf(id);
    assert.deepEqual(pick(stored, ['full_name', 'email', 'address_line_1', 'address_line_2', 'neighborhood', 'city', 'zipcode']), {
      full_name: long.full_name,
      email: long.email,
      ...long.address,
    });
    const consent = s.ctx.db.prepare('SELECT term_version, user_agent FROM consents WHERE entry_id = ?').get(id) as {
      term_version: string;
      user_agent: string;
    };
    assert.equal(consent.term_version.length, 100);
    assert.equal(consent.user_agent.length, 1024);
  });

  test('full_name of exactly 3 characters, a valid email and a past birthdate are stored', async () => {
    const { id } = await accept(fresh({ enrollment: { full_name: 'Ana', email: 'ana+promo@example.com.br', birthdate: '2026-11-21' } }));
    assert.deepEqual(pick(storedEnrollmentOf(id), ['full_name', 'email', 'birthdate']), {
      full_name: 'Ana',
      email: 'ana+promo@example.com.br',
      birthdate: '2026-11-21',
    });
  });

  for (const ip of ['203.0.113.7', '0.0.0.0', '2001:db8::1', '::1', '::ffff:192.0.2.1', 'fe80::1%eth0']) {
    test(`ip_address ${ip} is accepted`, async () => {
      const { id } = await accept(fresh({ consent: { ip_address: ip } }));
      assert.equal(
        (s.ctx.db.prepare('SELECT ip_address FROM consents WHERE entry_id = ?').get(id) as { ip_address: string }).ip_address,
        ip,
      );
    });
  }

  for (const g of ['2026-11-22T09:00:00Z', '2026-11-22T09:00:00.123-03:00', '2026-11-22T09:00-03:00', '2026-11-22T09:00:00+0530']) {
    test(`granted_at ${g} is accepted and stored as sent`, async () => {
      const { id } = await accept(fresh({ consent: { granted_at: g } }));
      assert.equal(
        (s.ctx.db.prepare('SELECT granted_at FROM consents WHERE entry_id = ?').get(id) as { granted_at: string }).granted_at,
        g,
      );
    });
  }

  for (const length of [45, 46, 47, 48, 49, 50]) {
    test(`an access key of ${length} digits is accepted as PENDING (no layout to check)`, async () => {
      const key = (ACCESS_KEY + '9'.repeat(10)).slice(0, length);
      const { id, status } = await accept(fresh({ evidence: { access_key: key } }));
      assert.equal(status, 'PENDING');
      assert.equal((s.ctx.db.prepare('SELECT access_key FROM entries WHERE id = ?').get(id) as { access_key: string }).access_key, key);
    });
  }

  test('whitespace inside an access key is stripped', async () => {
    const spaced = ACCESS_KEY.replace(/(\d{4})/g, '$1 ');
    const { id, status } = await accept(fresh({ evidence: { access_key: spaced } }));
    assert.equal(status, 'PENDING');
    assert.equal(
      (s.ctx.db.prepare('SELECT access_key FROM entries WHERE id = ?').get(id) as { access_key: string }).access_key,
      ACCESS_KEY,
    );
  });

  const badCheckDigit = ACCESS_KEY.slice(0, 43) + String((Number(ACCESS_KEY[43]) + 1) % 10);
  const failFast: Array<[string, string, string[]]> = [
    ['a wrong check digit', badCheckDigit, ['access_key_invalid_check_digit']],
    ['model 99', makeAccessKey({ yymm: '2611', model: '99' }), ['access_key_invalid_model']],
    ['state code 00', makeAccessKey({ yymm: '2611', uf: '00' }), ['access_key_invalid_state']],
    [
      'model 01 and state 99',
      makeAccessKey({ yymm: '2611', model: '01', uf: '99' }),
      ['access_key_invalid_model', 'access_key_invalid_state'],
    ],
  ];
  for (const [what, key, codes] of failFast) {
    test(`a 44-digit access key with ${what} gives 202 REJECTED with reasons, shown by GET`, async () => {
      const before = rowCounts();
      const { id, status, res } = await accept(fresh({ evidence: { access_key: key } }));
      assert.equal(status, 'REJECTED');
      assert.match(res.body.message, /rejected/i);
      const got = await s.request('GET', `/v1/entries/${id}`, { key: plain.liveKey });
      assert.equal(got.status, 200);
      assert.equal(got.body.status, 'REJECTED');
      assert.deepEqual(
        got.body.rejection_reasons.map((r: { code: string }) => r.code),
        codes,
      );
      for (const r of got.body.rejection_reasons) assert.ok(r.message.length > 0);
      assert.equal(got.body.processed_at, '2026-11-22T12:00:00.000Z');
      // The entry exists, but it is not queued for processing: received and completed are outboxed.
      const after = rowCounts();
      assert.equal(after.entries, before.entries + 1);
      assert.equal(after.jobs, before.jobs);
      const events = s.ctx.db.prepare('SELECT event_type FROM webhook_deliveries WHERE entry_id = ? ORDER BY seq').all(id);
      assert.deepEqual(events, [{ event_type: 'entry.received' }, { event_type: 'entry.completed' }]);
    });
  }

  test('a declared win with a prize of the campaign and mode is accepted and recorded as a pending award', async () => {
    const live = await accept(fresh({ instant_win: { won: true, prize_definition_id: livePrizeId } }), declared);
    const test = await accept(fresh({ instant_win: { won: true, prize_definition_id: testPrizeId.toUpperCase() } }), declared, 'test');
    const loss = await accept(fresh({ instant_win: { won: false } }), declared);
    const got = await s.request('GET', `/v1/entries/${live.id}`, { key: declared.liveKey });
    assert.deepEqual(got.body.award, { entry_id: live.id, won: true, prize_definition_id: livePrizeId, status: 'pending' });
    const gotTest = await s.request('GET', `/v1/entries/${test.id}`, { key: declared.testKey });
    assert.equal(gotTest.body.award.prize_definition_id, testPrizeId);
    const gotLoss = await s.request('GET', `/v1/entries/${loss.id}`, { key: declared.liveKey });
    assert.equal(gotLoss.body.award, null, 'a declared loss creates no award');
  });
});

describe('never a 5xx', () => {
  test('arbitrary JSON in any part of the body gets a 2xx or 4xx answer', async () => {
    const parts = [
      'enrollment',
      'consent',
      'evidence',
      'instant_win',
      'enrollment.document_number',
      'enrollment.address',
      'enrollment.phone',
      'enrollment.birthdate',
      'enrollment.full_name',
      'enrollment.email',
      'enrollment.address.city',
      'enrollment.address.state',
      'enrollment.address.country',
      'consent.consents',
      'consent.consents.0',
      'consent.granted_at',
      'consent.ip_address',
      'consent.user_agent',
      'consent.term_version',
      'evidence.type',
      'evidence.access_key',
      'instant_win.won',
      'instant_win.prize_definition_id',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...parts),
        fc.jsonValue(),
        fc.constantFrom(plain, declared, companies),
        async (path, value, world) => {
          const res = await s.request('POST', '/v1/entries', {
            key: world.liveKey,
            body: patched(path, value, fresh()),
            idempotencyKey: nextKey(),
          });
          assert.ok([202, 400, 422].includes(res.status), `${path}=${JSON.stringify(value)} -> ${res.status} ${res.text}`);
        },
      ),
      { numRuns: Number(process.env.CES_FUZZ_RUNS ?? 200), seed: propertySeed(109) },
    );
  });

  test('odd but well-formed JSON documents are 4xx', async () => {
    const raws = [
      '{"__proto__": {"enrollment": 1}}',
      '{"constructor": {"prototype": {}}}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
      '"\\u0000"',
      '1e400',
    ];
    for (const raw of raws) {
      const res = await s.request('POST', '/v1/entries', { key: plain.liveKey, raw, idempotencyKey: nextKey() });
      assert.ok(res.status >= 400 && res.status < 500, `${raw.slice(0, 40)} -> ${res.status} ${res.text}`);
    }
  });
});

function pick(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, obj[k]]));
}
