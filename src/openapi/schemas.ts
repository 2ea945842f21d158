// Structs of what ces sends: response bodies, the problem+json error, and the webhook event
// envelopes. They feed the OpenAPI document through the same converter as the request structs, and
// the tests assert real responses and deliveries against them (object() refuses unknown keys, so
// a field added to a response without documenting it fails the suite).
import { array, boolean, enums, literal, nullable, number, object, optional, string, type Struct } from 'superstruct';
import { describedInteger, describedString, describedUnion, uuidString } from '../validation/described.ts';
import { ENTRY_STATUSES } from '../entries/entries.repo.ts';
import { REJECTION_REASON_CODES } from '../entries/rejection-reasons.ts';
import { FIELD_ERROR_CODES, OPERATOR_FIELD_ERROR_CODES } from '../kernel/errors.ts';
import { AWARD_STATUSES } from '../mechanics/awards.repo.ts';
import { BACKLOG_COUNT_CAP } from '../metrics/metrics.repo.ts';
import { ATTACHMENT_MEDIA_TYPES, MAX_ATTACHMENT_BYTES } from '../winners/attachments.ts';
import { WINNER_EVENT_KINDS, WINNER_STATUSES } from '../winners/status.ts';

const BACKLOG_COUNTED = `Counted up to ${BACKLOG_COUNT_CAP}: that figure reads "at least".`;

/** The codes of errors[] a response can carry: every field code but those of operator input. */
const API_FIELD_ERROR_CODES = FIELD_ERROR_CODES.filter((c) => !OPERATOR_FIELD_ERROR_CODES.includes(c));

const dateTime = (description?: string) => describedString({ format: 'date-time', description });
const brasiliaDate = (description: string) => describedString({ format: 'date', description: `${description} A day in Brasília time.` });
const sha256Hex = (description: string) => describedString({ pattern: /^[0-9a-f]{64}$/, description });

export const ProblemStruct = object({
  type: describedString({ format: 'uri', description: 'Identifies the problem kind; https://ces.dev/problems/<code with dashes>.' }),
  title: string(),
  status: describedInteger({ minimum: 400, maximum: 599 }),
  detail: describedString({ description: 'Human-readable explanation for this occurrence.' }),
  code: describedString({
    pattern: /^[a-z][a-z0-9_]*$/,
    description: 'Stable machine-readable identifier; the codes each endpoint can return are listed on its responses.',
  }),
  errors: optional(
    array(
      object({
        field: describedString({
          description:
            'Dotted path of the offending field ("enrollment.email", "numbers[0].series"), a header name, or "" for the whole body.',
        }),
        code: enums(API_FIELD_ERROR_CODES),
        message: string(),
      }),
    ),
  ),
});

export const EntryAcceptedStruct = object({
  entry_id: uuidString('Id of the created entry, or on a replay the existing one; equals data.entry_id of webhook events.'),
  status: enums(ENTRY_STATUSES),
  message: string(),
});

export const RejectionReasonStruct = object({ code: enums(REJECTION_REASON_CODES), message: string() });

export const LuckyNumberStruct = object({
  series: describedString({ pattern: /^[0-9]+$/, description: 'Non-negative integer string, 0 to series_count - 1.' }),
  order_number: describedString({ pattern: /^[0-9]{5}$/, description: 'Exactly 5 digits.' }),
});

// The outcome of each mechanic (docs/api.md#events: mechanic entries of entry.evaluated), one schema per
// mechanic_type so a generated client narrows `outcome` on it (src/mechanics/evaluate.ts writes them).
export const LuckyNumbersResultStruct = object({
  mechanic_type: literal('lucky_numbers'),
  status: enums(['APPROVED', 'REJECTED']),
  outcome: describedUnion([
    object({
      quantity: describedInteger({ minimum: 1, description: 'Manual mode: how many numbers to submit (POST …/lucky-numbers).' }),
      series_count: describedInteger({ minimum: 1 }),
    }),
    object({ numbers: array(LuckyNumberStruct) }),
    object({
      reason: literal('pool_exhausted'),
      quantity: describedInteger({ minimum: 1 }),
      available: describedInteger({ minimum: 0 }),
      pool_size: describedInteger({ minimum: 1 }),
    }),
  ]),
});

export const InstantPrizeResultStruct = object({
  mechanic_type: literal('instant_prize'),
  status: enums(['APPROVED', 'REJECTED']),
  outcome: describedUnion([
    object({
      won: boolean(),
      prize_definition_id: uuidString(),
      prize_name: nullable(string()),
      award_status: enums(['PENDING', 'AWARDED', 'REVOKED', 'DECLINED', 'VOIDED']),
    }),
    object({ won: literal(false) }),
  ]),
});

export const MechanicResultStruct = describedUnion([LuckyNumbersResultStruct, InstantPrizeResultStruct], {
  discriminator: 'mechanic_type',
});

export const AwardStruct = object({
  entry_id: uuidString(),
  won: boolean(),
  prize_definition_id: nullable(uuidString()),
  status: enums(AWARD_STATUSES),
});

export const EntryStruct = object({
  entry_id: uuidString(),
  enrollment_id: uuidString(),
  livemode: boolean(),
  status: enums(ENTRY_STATUSES),
  rejection_reasons: array(RejectionReasonStruct),
  mechanics: nullable(array(MechanicResultStruct)),
  award: nullable(AwardStruct),
  lucky_numbers: array(LuckyNumberStruct),
  created_at: dateTime(),
  processed_at: nullable(dateTime()),
  evaluated_at: nullable(dateTime()),
});

export const PrizeStruct = object({
  id: uuidString('Use as prize_definition_id.'),
  name: string(),
  type: string(),
  unit_value: number(),
  initial_stock: describedInteger({ minimum: 0 }),
  current_stock: describedInteger({ minimum: 0 }),
});

export const LuckyNumbersAssignedStruct = object({
  entry_id: uuidString(),
  assigned_count: describedInteger({ minimum: 1 }),
  status: literal('ASSIGNED'),
});

export const WebhookConfigStruct = object({
  endpoint_url: describedString({ format: 'uri' }),
  is_active: boolean(),
  updated_at: dateTime(),
});

export const WebhookConfigCreatedStruct = object({
  endpoint_url: describedString({ format: 'uri' }),
  is_active: boolean(),
  updated_at: dateTime(),
  hmac_secret: describedString({
    pattern: /^whsec_[A-Za-z0-9+/]{43}=$/,
    description: 'Signing secret, shown only in this response: "whsec_" + base64 of 32 random bytes; the HMAC key is those bytes.',
  }),
});

export const HealthStruct = object({
  status: enums(['ok', 'degraded', 'unavailable']),
  db: enums(['ok', 'error']),
  tick: object({
    last_tick_at: nullable(dateTime()),
    alive: boolean(),
    interval_ms: describedInteger({ minimum: 1 }),
    last_error: nullable(string()),
  }),
  backlog: nullable(
    object({
      jobs: describedInteger({ minimum: 0, maximum: BACKLOG_COUNT_CAP, description: BACKLOG_COUNTED }),
      deliveries_pending: describedInteger({ minimum: 0, maximum: BACKLOG_COUNT_CAP, description: BACKLOG_COUNTED }),
      deliveries_failed: describedInteger({ minimum: 0, maximum: BACKLOG_COUNT_CAP, description: BACKLOG_COUNTED }),
    }),
  ),
  wal: nullable(
    object({
      bytes: describedInteger({ minimum: 0, description: "Size of the database's -wal file." }),
      alarm_bytes: describedInteger({ minimum: 1, description: 'CES_WAL_ALARM_MB in bytes.' }),
      over_alarm: boolean(),
    }),
  ),
  erasures: nullable(
    object({
      pending: describedInteger({
        minimum: 0,
        description:
          'Anonymisations whose older page images are still in the database files, waiting for a reader holding a snapshot to end.',
      }),
      oldest_anonymized_at: nullable(dateTime()),
    }),
  ),
  integrity: object({
    state: enums(['not_needed', 'checking', 'ok', 'failed']),
    reason: nullable(
      describedString({
        description:
          'Why the full integrity check of a database file this server had not opened before failed (then status is unavailable), or why it stopped.',
      }),
    ),
  }),
  versions: object({
    ces: describedString({ description: 'The release of ces.' }),
    node: describedString({ description: 'The Node.js version, without the leading v.' }),
    sqlite: describedString({ description: 'The SQLite library ces runs on, as compiled into better-sqlite3.' }),
    platform: describedString({ description: "Node's process.platform, e.g. linux." }),
    arch: describedString({ description: "Node's process.arch, e.g. x64." }),
    // True when ces runs as the single executable; false for the bundle or the sources on an installed Node.
    binary: boolean(),
  }),
});

// Webhook events (docs/api.md#events).
const envelope = <T extends string, D extends Struct<any, any>>(eventType: T, data: D) =>
  object({
    id: describedString({
      pattern: /^evt_[0-9a-f]{32}$/,
      description: 'Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it.',
    }),
    event_type: literal(eventType),
    created_at: dateTime('When the event happened (not when this attempt was sent).'),
    livemode: boolean(),
    campaign_id: uuidString(),
    data,
  });

export const EntryReceivedEventStruct = envelope(
  'entry.received',
  object({
    entry_id: uuidString(),
    enrollment_id: uuidString(),
    status: enums(['PENDING', 'REJECTED']),
  }),
);

export const EntryCompletedEventStruct = envelope(
  'entry.completed',
  object({
    entry_id: uuidString(),
    enrollment_id: uuidString(),
    status: enums(['APPROVED', 'REJECTED']),
    rejection_reasons: array(RejectionReasonStruct),
  }),
);

export const EntryEvaluatedEventStruct = envelope(
  'entry.evaluated',
  object({
    entry_id: uuidString(),
    enrollment_id: uuidString(),
    mechanics: array(MechanicResultStruct),
  }),
);

export const AwardUpdatedEventStruct = envelope(
  'award.updated',
  object({
    entry_id: uuidString(),
    enrollment_id: uuidString(),
    award: AwardStruct,
  }),
);

export const DrawPublishedEventStruct = envelope(
  'draw.published',
  object({
    draw_id: uuidString('The draw (apuração), as the operator CLI and dashboard name it.'),
    name: string(),
    extraction: object({
      number: describedInteger({ minimum: 1, description: 'The Loteria Federal extraction (concurso) whose results were used.' }),
      date: describedString({ format: 'date', description: 'The day of that extraction.' }),
      prizes: array(describedString({ pattern: /^[0-9]{5}$/, description: 'The 1st to 5th prizes, in order, as 5 digits.' })),
    }),
    winners: array(
      object({
        position: describedInteger({ minimum: 1 }),
        series: describedInteger({ minimum: 0, maximum: 99_999 }),
        element: describedInteger({ minimum: 0, maximum: 99_999, description: "The lucky number's order_number." }),
        entry_id: uuidString('The entry that holds the winning lucky number.'),
      }),
    ),
    record_sha256: sha256Hex(
      'SHA-256 (hex) of the apuração record in Markdown, stored at publication and never rewritten: the record the operator hands out has this SHA-256.',
    ),
  }),
);

// A winner as every listing shows it (src/winners/model.ts WinnerView), the participant masked.
export const WinnerUpdatedEventStruct = envelope(
  'winner.updated',
  object({
    id: uuidString('The winner: one prize won. The same in every winner.updated of that prize.'),
    campaign_id: uuidString(),
    livemode: boolean(),
    source: enums(['draw', 'instant']),
    draw_id: nullable(uuidString('The draw (apuração) that gave the prize, as in draw.published; null for an instant prize.')),
    position: nullable(describedInteger({ minimum: 1, description: "The position in the draw's winners; null for an instant prize." })),
    entry_id: uuidString('The entry that won: GET /v1/entries/{entry_id} finds the participant.'),
    participant: object({
      name: nullable(
        describedString({
          description:
            'Masked, each word its first letter and *** ("M*** d*** S***"); null when not given or after the participant was anonymized.',
        }),
      ),
      document: describedString({
        description: 'Masked CPF ("***.982.247-**") or CNPJ ("**.ABC.345/****-**"); "***" after the participant was anonymized.',
      }),
      city: nullable(string()),
      state: nullable(describedString({ description: 'The UF, as the enrollment gave it.' })),
    }),
    prize: object({
      description: nullable(
        describedString({
          description: "A draw position's prize in the regulation's words, or the instant prize's name; null when the draw gave none.",
        }),
      ),
      value: nullable(
        describedString({
          pattern: /^[0-9]+\.[0-9]{2}$/,
          description: 'In reais, with a dot and two decimals ("15990.00"); null when not given.',
        }),
      ),
    }),
    status: enums(WINNER_STATUSES),
    awarded_at: dateTime('The apuração: when the draw ran, or when the instant prize was confirmed. The deadlines count from its day.'),
    deadlines: object({
      notify_by: brasiliaDate('The last day to notify the winner.'),
      deliver_by: brasiliaDate('The last day to deliver the prize.'),
      prescribes_at: brasiliaDate(
        'The last of the 180 days to deliver the prize (Lei 5.768/1971 art. 6); after it the prize is prescribed.',
      ),
    }),
    overdue: array(
      describedString({
        enum: ['notify_by', 'deliver_by'],
        description: 'A deadline passed with its step not done, as of the day the event happened in Brasília.',
      }),
    ),
    events: array(
      object({
        event: enums(WINNER_EVENT_KINDS),
        note: nullable(describedString({ description: "The operator's note on the step, or the rules' reason; null when there is none." })),
        from_status: nullable(enums(WINNER_STATUSES)),
        to_status: enums(WINNER_STATUSES),
        actor: describedString({
          description:
            'Who took the step: "system" for the rules (the opening, a disqualification, a prescription), else the operator ("dashboard:<name>", "cli:<user>").',
        }),
        at: dateTime(),
        attachments: array(
          object({
            id: describedInteger({ minimum: 1 }),
            filename: string(),
            media_type: enums(ATTACHMENT_MEDIA_TYPES),
            size: describedInteger({ minimum: 1, maximum: MAX_ATTACHMENT_BYTES, description: 'In bytes.' }),
            sha256: sha256Hex("SHA-256 (hex) of the file's bytes: a copy of it can be checked against it."),
          }),
        ),
      }),
    ),
  }),
);

export const PingEventStruct = envelope(
  'ping',
  object({
    message: string(),
  }),
);
