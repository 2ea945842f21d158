// The components of the OpenAPI document: the schemas, converted from the structs of what is sent
// and received (the request structs validate requests; ./schemas.ts holds the rest), the webhook
// events and the schema of their list, and the shared parameters, headers and security scheme.
import type { Struct } from 'superstruct';
import { EntrySubmissionStruct } from '../entries/submission.ts';
import { ReassignBodyStruct, RevokeBodyStruct } from '../mechanics/instant-prize.ts';
import { LuckyNumbersBodyStruct } from '../mechanics/manual-lucky-numbers.ts';
import { WebhookPatchStruct } from '../webhooks/webhook-config.ts';
import { structToJsonSchema, type JsonSchema } from './json-schema.ts';
import { annotate, ENTRY_SUBMISSION_NOTES } from './notes.ts';
import {
  AwardStruct,
  InstantPrizeResultStruct,
  LuckyNumberStruct,
  LuckyNumbersResultStruct,
  MechanicResultStruct,
  RejectionReasonStruct,
  EntryAcceptedStruct,
  EntryCompletedEventStruct,
  EntryEvaluatedEventStruct,
  DrawPublishedEventStruct,
  AwardUpdatedEventStruct,
  EntryReceivedEventStruct,
  EntryStruct,
  HealthStruct,
  LuckyNumbersAssignedStruct,
  PingEventStruct,
  PrizeStruct,
  ProblemStruct,
  WebhookConfigCreatedStruct,
  WebhookConfigStruct,
  WinnerUpdatedEventStruct,
} from './schemas.ts';

const SCHEMA_STRUCTS: Record<string, Struct<any, any>> = {
  Problem: ProblemStruct,
  EntryAccepted: EntryAcceptedStruct,
  Entry: EntryStruct,
  Award: AwardStruct,
  RejectionReason: RejectionReasonStruct,
  LuckyNumber: LuckyNumberStruct,
  MechanicResult: MechanicResultStruct,
  LuckyNumbersResult: LuckyNumbersResultStruct,
  InstantPrizeResult: InstantPrizeResultStruct,
  Prize: PrizeStruct,
  LuckyNumbersSubmission: LuckyNumbersBodyStruct,
  LuckyNumbersAssigned: LuckyNumbersAssignedStruct,
  RevokeRequest: RevokeBodyStruct,
  ReassignRequest: ReassignBodyStruct,
  WebhookConfig: WebhookConfigStruct,
  WebhookConfigCreated: WebhookConfigCreatedStruct,
  WebhookPatch: WebhookPatchStruct,
  Health: HealthStruct,
  EntryReceivedEvent: EntryReceivedEventStruct,
  EntryCompletedEvent: EntryCompletedEventStruct,
  EntryEvaluatedEvent: EntryEvaluatedEventStruct,
  AwardUpdatedEvent: AwardUpdatedEventStruct,
  DrawPublishedEvent: DrawPublishedEventStruct,
  WinnerUpdatedEvent: WinnerUpdatedEventStruct,
  PingEvent: PingEventStruct,
};

/** The webhook events, in the order the document lists them. */
export const EVENTS: Array<{ name: string; schema: string; summary: string }> = [
  {
    name: 'entry.received',
    schema: 'EntryReceivedEvent',
    summary: 'Sent immediately after an entry is accepted (status PENDING, or REJECTED when it failed fast).',
  },
  {
    name: 'entry.completed',
    schema: 'EntryCompletedEvent',
    summary: 'Sent when fiscal validation and fraud checks finish: APPROVED or REJECTED with reasons.',
  },
  { name: 'entry.evaluated', schema: 'EntryEvaluatedEvent', summary: 'Sent after the mechanics are evaluated; approved entries only.' },
  {
    name: 'award.updated',
    schema: 'AwardUpdatedEvent',
    summary:
      "Sent when an operator changes an entry's award after its evaluation (an operator's revoke): `award` is the current state, as GET /v1/entries/{entry_id} shows it. The API's own revoke and reassign send none: their answer carries the award.",
  },
  {
    name: 'draw.published',
    schema: 'DrawPublishedEvent',
    summary:
      "Sent when the operator publishes a draw (apuração) of the campaign's lucky numbers: the extraction used and the winners, final. Not tied to an entry.",
  },
  {
    name: 'winner.updated',
    schema: 'WinnerUpdatedEvent',
    summary:
      "Sent when an operator records a step on a winner (notified, a failed contact, documents received, delivered, declined) and when a prize not delivered within 180 days prescribes: `data` is the winner as it is now, with its deadlines and its history, the participant masked. Not sent when a winner opens (entry.evaluated and draw.published tell it) nor when an instant prize is taken back (award.updated tells an operator's revoke; the API's own revoke sends none).",
  },
  {
    name: 'ping',
    schema: 'PingEvent',
    summary: 'The test event an operator sends to check the endpoint and its signature check.',
  },
];

/** The document's `components`: schemas first, in the order above, then what operations share. */
export function buildComponents(): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  const components = new Map(Object.entries(SCHEMA_STRUCTS).map(([name, struct]) => [struct, name]));
  for (const [name, struct] of Object.entries(SCHEMA_STRUCTS)) schemas[name] = structToJsonSchema(struct, components);
  schemas.EntrySubmission = annotate(structToJsonSchema(EntrySubmissionStruct), ENTRY_SUBMISSION_NOTES);
  schemas.PrizeList = { type: 'array', items: { $ref: '#/components/schemas/Prize' } };
  const listed = EVENTS.filter((e) => e.name !== 'ping');
  schemas.EventList = {
    type: 'object',
    properties: {
      data: {
        type: 'array',
        items: {
          oneOf: listed.map((e) => ({ $ref: `#/components/schemas/${e.schema}` })),
          discriminator: {
            propertyName: 'event_type',
            mapping: Object.fromEntries(listed.map((e) => [e.name, `#/components/schemas/${e.schema}`])),
          },
        },
      },
      has_more: { type: 'boolean', description: 'True when older events follow this page.' },
    },
    required: ['data', 'has_more'],
    additionalProperties: false,
  };

  return {
    schemas,
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'A campaign-scoped API key: `service_live_…` or `service_test_…`.' },
    },
    parameters: {
      EntryId: {
        in: 'path',
        name: 'entry_id',
        required: true,
        schema: { type: 'string', format: 'uuid' },
        description: 'The id from the 202 response and from `data.entry_id` of events.',
      },
      IdempotencyKey: {
        in: 'header',
        name: 'Idempotency-Key',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: 128 },
        description: 'Scope: (campaign, mode, key). A UUID is recommended. Missing: 422 idempotency_key_missing.',
      },
      RequestId: {
        in: 'header',
        name: 'X-Request-Id',
        required: false,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
        description: 'Echoed in the response and the server log; generated when absent or not matching.',
      },
    },
    headers: {
      RequestId: { description: 'The request id (echoed or generated); quote it when reporting a problem.', schema: { type: 'string' } },
      IdempotentReplayed: {
        description:
          "Present, with the value `true`, only when this 202 answers a replay of an Idempotency-Key already committed: the entry is the first one and this request's body was ignored. Absent on a new entry.",
        schema: { type: 'string', enum: ['true'] },
      },
      RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^[0-9]+$' } },
      WwwAuthenticate: {
        description:
          'The bearer challenge (RFC 6750): `Bearer realm="ces"` when no bearer key was sent, `Bearer realm="ces", error="invalid_token"` for a key that is refused (`Bearer realm="metrics"` on GET /metrics).',
        schema: { type: 'string' },
      },
    },
  };
}
