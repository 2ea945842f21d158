// Written by `npm run openapi:examples` from the session of test/openapi-examples.test.ts, which
// checks on every run that the server still answers exactly this. Do not edit by hand.

export interface Example {
  summary: string;
  value: unknown;
}

export const EXAMPLES: Record<string, Example> = {
  'updateWebhookConfig.request': {
    summary: 'Create the configuration',
    value: {
      endpoint_url: 'https://crm.example.com/webhooks/ces',
    },
  },
  'updateWebhookConfig.201': {
    summary: 'Created: the only answer with the secret',
    value: {
      endpoint_url: 'https://crm.example.com/webhooks/ces',
      is_active: true,
      updated_at: '2026-11-22T12:00:00.000Z',
      hmac_secret: 'whsec_p/sZu0cZCTLOKqJ01IJRWDRSV4tkFR55qkWIvHwjwTw=',
    },
  },
  'updateWebhookConfig.request.pause': {
    summary: 'Pause deliveries',
    value: {
      is_active: false,
    },
  },
  'updateWebhookConfig.200': {
    summary: 'Updated',
    value: {
      endpoint_url: 'https://crm.example.com/webhooks/ces',
      is_active: false,
      updated_at: '2026-11-22T12:00:00.000Z',
    },
  },
  'getWebhookConfig.200': {
    summary: 'The configuration',
    value: {
      endpoint_url: 'https://crm.example.com/webhooks/ces',
      is_active: false,
      updated_at: '2026-11-22T12:00:00.000Z',
    },
  },
  'listPrizes.200': {
    summary: "The live mode's pool",
    value: [
      {
        id: '0e05aa9d-39e1-4677-8306-41419833e5fc',
        name: 'Cartão-presente R$ 200',
        type: 'cartao-presente',
        unit_value: 200,
        initial_stock: 20,
        current_stock: 20,
      },
      {
        id: 'f19d7859-eeaf-41ac-b4d6-7eb567442f96',
        name: 'Vale-compras R$ 50',
        type: 'vale-compras',
        unit_value: 50,
        initial_stock: 100,
        current_stock: 100,
      },
    ],
  },
  'createEntry.request': {
    summary: 'A participant who won an instant prize',
    value: {
      enrollment: {
        document_number: '529.982.247-25',
        full_name: 'Maria da Silva',
        email: 'maria.silva@example.com',
        phone: '+55 11 98765-4321',
        birthdate: '1990-05-17',
        address: {
          address_line_1: 'Rua das Flores, 123',
          neighborhood: 'Centro',
          city: 'São Paulo',
          state: 'SP',
          zipcode: '01001-000',
          country: 'BR',
        },
      },
      consent: {
        granted_at: '2026-11-22T08:55:12-03:00',
        ip_address: '203.0.113.7',
        user_agent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
        term_version: 'regulamento-v3',
        consents: [
          {
            consent_type: 'marketing',
            granted: true,
          },
          {
            consent_type: 'data_sharing',
            granted: false,
          },
        ],
      },
      evidence: {
        type: 'fiscal_key',
        access_key: '35261111222333000181650010000123451123456780',
      },
      instant_win: {
        won: true,
        prize_definition_id: 'f19d7859-eeaf-41ac-b4d6-7eb567442f96',
      },
    },
  },
  'createEntry.202': {
    summary: 'Accepted',
    value: {
      entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
      status: 'PENDING',
      message: 'Entry accepted for processing.',
    },
  },
  'createEntry.202.replay': {
    summary: 'A replay (header Idempotent-Replayed: true): the first entry, the new body ignored',
    value: {
      entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
      status: 'PENDING',
      message: 'An entry already exists for this Idempotency-Key; this is a replay and the new payload was ignored.',
    },
  },
  'createEntry.422': {
    summary: 'Every violation at once',
    value: {
      type: 'https://ces.dev/problems/validation-failed',
      title: 'Unprocessable Content',
      status: 422,
      detail:
        'The entry is invalid: enrollment.document_number: document_number has the 11 digits of a CPF but its check digits do not match.; enrollment.email: email is not a valid email address; consent.granted_at: granted_at must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T14:03:00-03:00); evidence.access_key: access_key must be 44 to 50 digits; enrollment.emial: enrollment.emial is not a field of this body',
      code: 'validation_failed',
      errors: [
        {
          field: 'enrollment.document_number',
          code: 'invalid_document',
          message: 'document_number has the 11 digits of a CPF but its check digits do not match.',
        },
        {
          field: 'enrollment.email',
          code: 'invalid_email',
          message: 'email is not a valid email address',
        },
        {
          field: 'consent.granted_at',
          code: 'invalid_date_time',
          message: 'granted_at must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T14:03:00-03:00)',
        },
        {
          field: 'evidence.access_key',
          code: 'invalid_access_key',
          message: 'access_key must be 44 to 50 digits',
        },
        {
          field: 'enrollment.emial',
          code: 'unknown_field',
          message: 'enrollment.emial is not a field of this body',
        },
      ],
    },
  },
  'getEntry.401': {
    summary: 'A key that is not valid',
    value: {
      type: 'https://ces.dev/problems/invalid-api-key',
      title: 'Unauthorized',
      status: 401,
      detail: 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.',
      code: 'invalid_api_key',
    },
  },
  'getHealth.200': {
    summary: 'Healthy',
    value: {
      status: 'ok',
      db: 'ok',
      tick: {
        last_tick_at: '2026-11-22T12:00:07.000Z',
        alive: true,
        interval_ms: 200,
        last_error: null,
      },
      backlog: {
        jobs: 0,
        deliveries_pending: 0,
        deliveries_failed: 0,
      },
      wal: {
        bytes: 4124152,
        alarm_bytes: 536870912,
        over_alarm: false,
      },
      erasures: {
        pending: 0,
        oldest_anonymized_at: null,
      },
      integrity: {
        state: 'not_needed',
        reason: null,
      },
      versions: {
        ces: '0.1.0',
        node: '20.20.2',
        sqlite: '3.53.2',
        platform: 'linux',
        arch: 'x64',
        binary: false,
      },
    },
  },
  'getEntry.200': {
    summary: 'Approved and evaluated: manual lucky numbers due, the declared win awarded',
    value: {
      entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
      enrollment_id: '01a20320-a200-7aed-bf92-a3ea70b117b6',
      livemode: true,
      status: 'APPROVED',
      rejection_reasons: [],
      mechanics: [
        {
          mechanic_type: 'lucky_numbers',
          status: 'APPROVED',
          outcome: {
            quantity: 2,
            series_count: 10,
          },
        },
        {
          mechanic_type: 'instant_prize',
          status: 'APPROVED',
          outcome: {
            won: true,
            prize_definition_id: 'f19d7859-eeaf-41ac-b4d6-7eb567442f96',
            prize_name: 'Vale-compras R$ 50',
            award_status: 'AWARDED',
          },
        },
      ],
      award: {
        entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
        won: true,
        prize_definition_id: 'f19d7859-eeaf-41ac-b4d6-7eb567442f96',
        status: 'awarded',
      },
      lucky_numbers: [],
      created_at: '2026-11-22T12:00:00.000Z',
      processed_at: '2026-11-22T12:00:07.000Z',
      evaluated_at: '2026-11-22T12:00:07.000Z',
    },
  },
  'submitLuckyNumbers.request': {
    summary: 'The two numbers outcome.quantity asks for',
    value: {
      numbers: [
        {
          series: '3',
          order_number: '57700',
        },
        {
          series: '9',
          order_number: '04512',
        },
      ],
    },
  },
  'submitLuckyNumbers.201': {
    summary: 'Assigned',
    value: {
      entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
      assigned_count: 2,
      status: 'ASSIGNED',
    },
  },
  'reassignInstantPrize.request': {
    summary: 'Another prize for the same entry',
    value: {
      prize_definition_id: '0e05aa9d-39e1-4677-8306-41419833e5fc',
    },
  },
  'reassignInstantPrize.200': {
    summary: 'The new award',
    value: {
      entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
      won: true,
      prize_definition_id: '0e05aa9d-39e1-4677-8306-41419833e5fc',
      status: 'awarded',
    },
  },
  'revokeInstantPrize.request': {
    summary: 'With a reason for the history',
    value: {
      reason: 'Cupom fiscal cancelado pelo lojista',
    },
  },
  'revokeInstantPrize.200': {
    summary: 'The award, revoked',
    value: {
      entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
      won: true,
      prize_definition_id: '0e05aa9d-39e1-4677-8306-41419833e5fc',
      status: 'revoked',
    },
  },
  'event.entry.received': {
    summary: 'A entry.received event',
    value: {
      id: 'evt_01a20320a2007bbd977f3a37801bae61',
      event_type: 'entry.received',
      created_at: '2026-11-22T12:00:00.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
        enrollment_id: '01a20320-a200-7aed-bf92-a3ea70b117b6',
        status: 'PENDING',
      },
    },
  },
  'event.entry.completed': {
    summary: 'A entry.completed event',
    value: {
      id: 'evt_01a20320bd587441a7c41b8a9578e7c4',
      event_type: 'entry.completed',
      created_at: '2026-11-22T12:00:07.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
        enrollment_id: '01a20320-a200-7aed-bf92-a3ea70b117b6',
        status: 'APPROVED',
        rejection_reasons: [],
      },
    },
  },
  'event.entry.evaluated': {
    summary: 'A entry.evaluated event',
    value: {
      id: 'evt_01a20320bd587a3884407f33aa127286',
      event_type: 'entry.evaluated',
      created_at: '2026-11-22T12:00:07.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
        enrollment_id: '01a20320-a200-7aed-bf92-a3ea70b117b6',
        mechanics: [
          {
            mechanic_type: 'lucky_numbers',
            status: 'APPROVED',
            outcome: {
              quantity: 2,
              series_count: 10,
            },
          },
          {
            mechanic_type: 'instant_prize',
            status: 'APPROVED',
            outcome: {
              won: true,
              prize_definition_id: 'f19d7859-eeaf-41ac-b4d6-7eb567442f96',
              prize_name: 'Vale-compras R$ 50',
              award_status: 'AWARDED',
            },
          },
        ],
      },
    },
  },
  'event.award.updated': {
    summary: 'A award.updated event',
    value: {
      id: 'evt_01a208eccf387380bdac53ab20b0490b',
      event_type: 'award.updated',
      created_at: '2026-11-23T15:01:07.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        entry_id: '01a2087e-f238-7b10-b45e-96b3a6c0fc20',
        enrollment_id: '01a2087e-f238-77f2-b3dc-7e6e1be3482f',
        award: {
          entry_id: '01a2087e-f238-7b10-b45e-96b3a6c0fc20',
          won: true,
          prize_definition_id: 'f19d7859-eeaf-41ac-b4d6-7eb567442f96',
          status: 'revoked',
        },
      },
    },
  },
  'event.draw.published': {
    summary: 'A draw.published event',
    value: {
      id: 'evt_01a223f52c80743aa95808c068673207',
      event_type: 'draw.published',
      created_at: '2026-11-28T21:00:00.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        draw_id: 'a070d15b-d9a8-4ab2-a058-fc2f05c527da',
        name: 'Sorteio de novembro',
        extraction: {
          number: 6012,
          date: '2026-11-28',
          prizes: ['12305', '05437', '13526', '02329', '15458'],
        },
        winners: [
          {
            position: 1,
            series: 3,
            element: 57700,
            entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
          },
        ],
        record_sha256: 'c7dbc1eff2105414f70326bbe4e4ee528aa40c7bc2b0775a108e86f70d42db1f',
      },
    },
  },
  'event.ping': {
    summary: 'A ping event',
    value: {
      id: 'evt_01a223f52c807e6f84e1b42ba12110fd',
      event_type: 'ping',
      created_at: '2026-11-28T21:00:00.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        message: 'Test event from ces, sent by an operator to check this endpoint. Answer 2xx to acknowledge.',
      },
    },
  },
  'event.winner.updated': {
    summary: 'A winner.updated event',
    value: {
      id: 'evt_01a22c9cc0007c48a45910d3f9ff754f',
      event_type: 'winner.updated',
      created_at: '2026-11-30T13:20:00.000Z',
      livemode: true,
      campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
      data: {
        id: '1f1ecc3c-94fa-480f-a997-ff568ca467fb',
        campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
        livemode: true,
        source: 'draw',
        draw_id: 'a070d15b-d9a8-4ab2-a058-fc2f05c527da',
        position: 1,
        entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
        participant: {
          name: 'M*** d*** S***',
          document: '***.982.247-**',
          city: 'São Paulo',
          state: 'SP',
        },
        prize: {
          description: 'Moto 0 km',
          value: '15990.00',
        },
        status: 'notified',
        awarded_at: '2026-11-28T21:00:00.000Z',
        deadlines: {
          notify_by: '2026-12-08',
          deliver_by: '2026-12-28',
          prescribes_at: '2027-05-27',
        },
        overdue: [],
        events: [
          {
            event: 'awarded',
            note: null,
            from_status: null,
            to_status: 'awarded',
            actor: 'system',
            at: '2026-11-28T21:00:00.000Z',
            attachments: [],
          },
          {
            event: 'notified',
            note: 'Avisada por e-mail e por carta registrada (AR)',
            from_status: 'awarded',
            to_status: 'notified',
            actor: 'dashboard:ana',
            at: '2026-11-30T13:20:00.000Z',
            attachments: [
              {
                id: 1,
                filename: 'aviso-premiacao.pdf',
                media_type: 'application/pdf',
                size: 74,
                sha256: '124d6cefc686f7df4dfed16492af07ec14d0e917326bdebcba108e399a0232b8',
              },
            ],
          },
        ],
      },
    },
  },
  'listEvents.200': {
    summary: 'The newest two events',
    value: {
      data: [
        {
          id: 'evt_01a22c9cc0007c48a45910d3f9ff754f',
          event_type: 'winner.updated',
          created_at: '2026-11-30T13:20:00.000Z',
          livemode: true,
          campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
          data: {
            id: '1f1ecc3c-94fa-480f-a997-ff568ca467fb',
            campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
            livemode: true,
            source: 'draw',
            draw_id: 'a070d15b-d9a8-4ab2-a058-fc2f05c527da',
            position: 1,
            entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
            participant: {
              name: 'M*** d*** S***',
              document: '***.982.247-**',
              city: 'São Paulo',
              state: 'SP',
            },
            prize: {
              description: 'Moto 0 km',
              value: '15990.00',
            },
            status: 'notified',
            awarded_at: '2026-11-28T21:00:00.000Z',
            deadlines: {
              notify_by: '2026-12-08',
              deliver_by: '2026-12-28',
              prescribes_at: '2027-05-27',
            },
            overdue: [],
            events: [
              {
                event: 'awarded',
                note: null,
                from_status: null,
                to_status: 'awarded',
                actor: 'system',
                at: '2026-11-28T21:00:00.000Z',
                attachments: [],
              },
              {
                event: 'notified',
                note: 'Avisada por e-mail e por carta registrada (AR)',
                from_status: 'awarded',
                to_status: 'notified',
                actor: 'dashboard:ana',
                at: '2026-11-30T13:20:00.000Z',
                attachments: [
                  {
                    id: 1,
                    filename: 'aviso-premiacao.pdf',
                    media_type: 'application/pdf',
                    size: 74,
                    sha256: '124d6cefc686f7df4dfed16492af07ec14d0e917326bdebcba108e399a0232b8',
                  },
                ],
              },
            ],
          },
        },
        {
          id: 'evt_01a223f52c80743aa95808c068673207',
          event_type: 'draw.published',
          created_at: '2026-11-28T21:00:00.000Z',
          livemode: true,
          campaign_id: 'acd6bf0c-6a58-43ee-8fa9-52ba926bb80c',
          data: {
            draw_id: 'a070d15b-d9a8-4ab2-a058-fc2f05c527da',
            name: 'Sorteio de novembro',
            extraction: {
              number: 6012,
              date: '2026-11-28',
              prizes: ['12305', '05437', '13526', '02329', '15458'],
            },
            winners: [
              {
                position: 1,
                series: 3,
                element: 57700,
                entry_id: '01a20320-a200-77c3-8432-4c3e3d09a489',
              },
            ],
            record_sha256: 'c7dbc1eff2105414f70326bbe4e4ee528aa40c7bc2b0775a108e86f70d42db1f',
          },
        },
      ],
      has_more: true,
    },
  },
};
