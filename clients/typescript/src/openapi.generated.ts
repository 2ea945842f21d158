// Generated from `ces openapi` by openapi-typescript (clients/typescript/scripts/generate-types.ts).
// Do not edit: run `npm run generate -w @ces/client` after changing the API; a test fails while
// this file differs from what the server documents.
export interface paths {
  '/v1/entries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit an entry for asynchronous processing
     * @description Validates, deduplicates on (campaign, mode, Idempotency-Key), stores and queues the entry; `entry.received` follows at once. A replay of a committed key answers 202 with the original entry and ignores the new payload. An access key with a bad check digit, model or state answers 202 with status REJECTED.
     */
    post: operations['createEntry'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the key's campaign and mode's events, newest first
     * @description The events of the webhook envelope, exactly as sent (or as they would have been: events recorded while the webhook was paused or not configured are listed too), so a client can reconcile after an outage. Kept as long as the outbox keeps them (CES_RETENTION_DAYS). Page with `starting_after` = the last id of the previous page while `has_more` is true. The test events (`ping`) an operator sends to check the endpoint are not listed.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/entries/{entry_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one entry with its status, mechanics outcome, award and lucky numbers
     * @description `status` is the entry's current status. `mechanics` is the outcome of its evaluation as it was then (the `entry.evaluated` data), null before it; `award` is the current state of its instant-prize award, so an operator's later revoke shows here (and in `award.updated`), not in `mechanics`. `lucky_numbers` lists every number it holds. An id of another campaign or mode is 404.
     */
    get: operations['getEntry'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/entries/{entry_id}/lucky-numbers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit externally generated lucky numbers (manual mode)
     * @description Only after `entry.evaluated`; exactly `outcome.quantity` numbers, each series 0 to `series_count - 1`. The first accepted submission is final.
     */
    post: operations['submitLuckyNumbers'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/prizes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the campaign's prize pool for the key's mode
     * @description The prizes of the key's campaign in the key's mode with their stock; `id` is what `instant_win.prize_definition_id` and a reassign name. A win is never blocked by an empty pool: its stock stays 0.
     */
    get: operations['listPrizes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/entries/{entry_id}/instant-prize/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke the entry's instant-prize award (idempotent; no webhook)
     * @description Acts on the entry's latest award: `awarded` becomes `revoked` and its unit returns to stock; an award already revoked answers 200 unchanged. `reason` is recorded in the award's history. INTEGRATOR_DECLARED campaigns only; an award still pending (its entry not evaluated yet) cannot be revoked.
     */
    post: operations['revokeInstantPrize'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/entries/{entry_id}/instant-prize/reassign': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke the award and register it again, with another prize or on another entry (no webhook)
     * @description Revokes the entry's award if it is `awarded` (its unit returns) and registers a new `awarded` award of `prize_definition_id`, on the same entry or on `target_entry_id`: an APPROVED entry of the campaign and mode that holds no award. A pending source is revoked without a unit to return, and the new award is `awarded` at once.
     */
    post: operations['reassignInstantPrize'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the campaign's webhook configuration (never the secret)
     * @description The endpoint and whether deliveries are active; 404 until one is configured. The signing secret is shown once, in the 201 of the PATCH that created the configuration.
     */
    get: operations['getWebhookConfig'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Create or update the webhook configuration
     * @description Creating requires `endpoint_url` and answers 201 with `hmac_secret`, shown only then. Updating answers 200 without it; omitted fields are unchanged. The campaign's operator decides which keys may: any (the default), live keys only, or none, a setting of the campaign; a key it does not allow gets 403 `webhook_config_locked`. GET stays open to every key of the campaign.
     */
    patch: operations['updateWebhookConfig'];
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness and readiness: database reachable, background tick alive, backlog sizes
     * @description 503 when the database does not answer or the tick has not finished a run for more than 10 tick intervals. 200 with status `degraded` when it works but, with CES_CHECKPOINTS=external, its WAL is over CES_WAL_ALARM_MB (nothing is checkpointing it: is Litestream running?). `versions` says what the server runs on: the release of ces, Node.js, SQLite and the platform.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics (text format 0.0.4)
     * @description Controlled by CES_METRICS_TOKEN: unset or empty = open; `off` = this endpoint answers 404; any other value = requires `Authorization: Bearer <that value>` (not an API key).
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document
     * @description This OpenAPI 3.1 document, as the service prints it. No API key.
     */
    get: operations['getOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'entry.received': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sent immediately after an entry is accepted (status PENDING, or REJECTED when it failed fast).
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_entry_received'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'entry.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sent when fiscal validation and fraud checks finish: APPROVED or REJECTED with reasons.
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_entry_completed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'entry.evaluated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sent after the mechanics are evaluated; approved entries only.
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_entry_evaluated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'award.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sent when an operator changes an entry's award after its evaluation (an operator's revoke): `award` is the current state, as GET /v1/entries/{entry_id} shows it. The API's own revoke and reassign send none: their answer carries the award.
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_award_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'draw.published': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sent when the operator publishes a draw (apuração) of the campaign's lucky numbers: the extraction used and the winners, final. Not tied to an entry.
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_draw_published'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'winner.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sent when an operator records a step on a winner (notified, a failed contact, documents received, delivered, declined) and when a prize not delivered within 180 days prescribes: `data` is the winner as it is now, with its deadlines and its history, the participant masked. Not sent when a winner opens (entry.evaluated and draw.published tell it) nor when an instant prize is taken back (award.updated tells an operator's revoke; the API's own revoke sends none).
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_winner_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  ping: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The test event an operator sends to check the endpoint and its signature check.
     * @description POSTed to the configured endpoint_url, signed per Standard Webhooks. Answer 2xx to acknowledge; anything else, a timeout or a connection error is retried on CES_WEBHOOK_RETRY_SCHEDULE. Delivery is at least once: deduplicate on the event id.
     */
    post: operations['event_ping'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    Problem: {
      /**
       * Format: uri
       * @description Identifies the problem kind; https://ces.dev/problems/<code with dashes>.
       */
      type: string;
      title: string;
      status: number;
      /** @description Human-readable explanation for this occurrence. */
      detail: string;
      /** @description Stable machine-readable identifier; the codes each endpoint can return are listed on its responses. */
      code: string;
      errors?: {
        /** @description Dotted path of the offending field ("enrollment.email", "numbers[0].series"), a header name, or "" for the whole body. */
        field: string;
        /** @enum {string} */
        code:
          | 'required'
          | 'invalid_type'
          | 'invalid_value'
          | 'unknown_field'
          | 'repeated'
          | 'too_long'
          | 'too_short'
          | 'duplicate'
          | 'not_allowed'
          | 'invalid_document'
          | 'invalid_email'
          | 'invalid_phone'
          | 'invalid_date'
          | 'not_in_past'
          | 'invalid_state'
          | 'invalid_country'
          | 'invalid_date_time'
          | 'in_future'
          | 'invalid_ip'
          | 'unsupported_evidence_type'
          | 'invalid_access_key'
          | 'unknown_prize'
          | 'email_taken'
          | 'phone_taken'
          | 'companies_not_allowed'
          | 'instant_win_not_allowed'
          | 'invalid_series'
          | 'invalid_order_number'
          | 'quantity_mismatch'
          | 'series_out_of_range'
          | 'duplicate_pairs'
          | 'pair_taken'
          | 'target_not_processed'
          | 'award_exists'
          | 'webhook_url_not_https'
          | 'unknown_event';
        message: string;
      }[];
    };
    EntryAccepted: {
      /**
       * Format: uuid
       * @description Id of the created entry, or on a replay the existing one; equals data.entry_id of webhook events.
       */
      entry_id: string;
      /** @enum {string} */
      status: 'PENDING' | 'APPROVED' | 'REJECTED';
      message: string;
    };
    Entry: {
      /** Format: uuid */
      entry_id: string;
      /** Format: uuid */
      enrollment_id: string;
      livemode: boolean;
      /** @enum {string} */
      status: 'PENDING' | 'APPROVED' | 'REJECTED';
      rejection_reasons: components['schemas']['RejectionReason'][];
      mechanics: components['schemas']['MechanicResult'][] | null;
      award: {
        /** Format: uuid */
        entry_id: string;
        won: boolean;
        /** Format: uuid */
        prize_definition_id: string | null;
        /** @enum {string} */
        status: 'pending' | 'awarded' | 'revoked' | 'declined' | 'voided';
      } | null;
      lucky_numbers: components['schemas']['LuckyNumber'][];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      processed_at: string | null;
      /** Format: date-time */
      evaluated_at: string | null;
    };
    Award: {
      /** Format: uuid */
      entry_id: string;
      won: boolean;
      /** Format: uuid */
      prize_definition_id: string | null;
      /** @enum {string} */
      status: 'pending' | 'awarded' | 'revoked' | 'declined' | 'voided';
    };
    RejectionReason: {
      /** @enum {string} */
      code:
        | 'access_key_invalid_check_digit'
        | 'access_key_invalid_model'
        | 'access_key_invalid_state'
        | 'access_key_invalid_month'
        | 'access_key_issued_in_future'
        | 'purchase_outside_period'
        | 'duplicate_receipt'
        | 'participant_limit_reached'
        | 'daily_limit_reached'
        | 'fiscal_verifier_rejected'
        | 'test_fiscal_rejected'
        | 'test_fraud_suspected';
      message: string;
    };
    LuckyNumber: {
      /** @description Non-negative integer string, 0 to series_count - 1. */
      series: string;
      /** @description Exactly 5 digits. */
      order_number: string;
    };
    MechanicResult: components['schemas']['LuckyNumbersResult'] | components['schemas']['InstantPrizeResult'];
    LuckyNumbersResult: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      mechanic_type: 'lucky_numbers';
      /** @enum {string} */
      status: 'APPROVED' | 'REJECTED';
      outcome:
        | {
            /** @description Manual mode: how many numbers to submit (POST …/lucky-numbers). */
            quantity: number;
            series_count: number;
          }
        | {
            numbers: components['schemas']['LuckyNumber'][];
          }
        | {
            /** @constant */
            reason: 'pool_exhausted';
            quantity: number;
            available: number;
            pool_size: number;
          };
    };
    InstantPrizeResult: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      mechanic_type: 'instant_prize';
      /** @enum {string} */
      status: 'APPROVED' | 'REJECTED';
      outcome:
        | {
            won: boolean;
            /** Format: uuid */
            prize_definition_id: string;
            prize_name: string | null;
            /** @enum {string} */
            award_status: 'PENDING' | 'AWARDED' | 'REVOKED' | 'DECLINED' | 'VOIDED';
          }
        | {
            /** @constant */
            won: false;
          };
    };
    Prize: {
      /**
       * Format: uuid
       * @description Use as prize_definition_id.
       */
      id: string;
      name: string;
      type: string;
      unit_value: number;
      initial_stock: number;
      current_stock: number;
    };
    LuckyNumbersSubmission: {
      numbers: {
        /** @description Non-negative integer string, 0 to series_count - 1 (outcome.series_count). */
        series: string;
        /** @description Exactly 5 digits, "00000" to "99999". */
        order_number: string;
      }[];
    };
    LuckyNumbersAssigned: {
      /** Format: uuid */
      entry_id: string;
      assigned_count: number;
      /** @constant */
      status: 'ASSIGNED';
    };
    RevokeRequest: {
      /** @description Free-text note recorded with the revocation. */
      reason?: string | null;
    };
    ReassignRequest: {
      /**
       * Format: uuid
       * @description Prize id (uuid) of the campaign and mode to register; an id that is not in the pool gives 422 unknown_prize.
       */
      prize_definition_id: string;
      /**
       * Format: uuid
       * @description Another entry of the campaign and mode to give the prize to.
       */
      target_entry_id?: string | null;
    };
    WebhookConfig: {
      /** Format: uri */
      endpoint_url: string;
      is_active: boolean;
      /** Format: date-time */
      updated_at: string;
    };
    WebhookConfigCreated: {
      /** Format: uri */
      endpoint_url: string;
      is_active: boolean;
      /** Format: date-time */
      updated_at: string;
      /** @description Signing secret, shown only in this response: "whsec_" + base64 of 32 random bytes; the HMAC key is those bytes. */
      hmac_secret: string;
    };
    WebhookPatch: {
      /**
       * Format: uri
       * @description An https:// URL with a host, at most 2048 characters once normalised by the WHATWG URL parser. Required when creating; omitted means unchanged. The server also takes IP addresses, userinfo and other ports than the pattern shows.
       */
      endpoint_url?: string;
      is_active?: boolean;
    };
    Health: {
      /** @enum {string} */
      status: 'ok' | 'degraded' | 'unavailable';
      /** @enum {string} */
      db: 'ok' | 'error';
      tick: {
        /** Format: date-time */
        last_tick_at: string | null;
        alive: boolean;
        interval_ms: number;
        last_error: string | null;
      };
      backlog: {
        /** @description Counted up to 100000: that figure reads "at least". */
        jobs: number;
        /** @description Counted up to 100000: that figure reads "at least". */
        deliveries_pending: number;
        /** @description Counted up to 100000: that figure reads "at least". */
        deliveries_failed: number;
      } | null;
      wal: {
        /** @description Size of the database's -wal file. */
        bytes: number;
        /** @description CES_WAL_ALARM_MB in bytes. */
        alarm_bytes: number;
        over_alarm: boolean;
      } | null;
      erasures: {
        /** @description Anonymisations whose older page images are still in the database files, waiting for a reader holding a snapshot to end. */
        pending: number;
        /** Format: date-time */
        oldest_anonymized_at: string | null;
      } | null;
      integrity: {
        /** @enum {string} */
        state: 'not_needed' | 'checking' | 'ok' | 'failed';
        /** @description Why the full integrity check of a database file this server had not opened before failed (then status is unavailable), or why it stopped. */
        reason: string | null;
      };
      versions: {
        /** @description The release of ces. */
        ces: string;
        /** @description The Node.js version, without the leading v. */
        node: string;
        /** @description The SQLite library ces runs on, as compiled into better-sqlite3. */
        sqlite: string;
        /** @description Node's process.platform, e.g. linux. */
        platform: string;
        /** @description Node's process.arch, e.g. x64. */
        arch: string;
        binary: boolean;
      };
    };
    EntryReceivedEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      event_type: 'entry.received';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        /** Format: uuid */
        entry_id: string;
        /** Format: uuid */
        enrollment_id: string;
        /** @enum {string} */
        status: 'PENDING' | 'REJECTED';
      };
    };
    EntryCompletedEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      event_type: 'entry.completed';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        /** Format: uuid */
        entry_id: string;
        /** Format: uuid */
        enrollment_id: string;
        /** @enum {string} */
        status: 'APPROVED' | 'REJECTED';
        rejection_reasons: components['schemas']['RejectionReason'][];
      };
    };
    EntryEvaluatedEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      event_type: 'entry.evaluated';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        /** Format: uuid */
        entry_id: string;
        /** Format: uuid */
        enrollment_id: string;
        mechanics: components['schemas']['MechanicResult'][];
      };
    };
    AwardUpdatedEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      event_type: 'award.updated';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        /** Format: uuid */
        entry_id: string;
        /** Format: uuid */
        enrollment_id: string;
        award: components['schemas']['Award'];
      };
    };
    DrawPublishedEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      event_type: 'draw.published';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        /**
         * Format: uuid
         * @description The draw (apuração), as the operator CLI and dashboard name it.
         */
        draw_id: string;
        name: string;
        extraction: {
          /** @description The Loteria Federal extraction (concurso) whose results were used. */
          number: number;
          /**
           * Format: date
           * @description The day of that extraction.
           */
          date: string;
          prizes: string[];
        };
        winners: {
          position: number;
          series: number;
          /** @description The lucky number's order_number. */
          element: number;
          /**
           * Format: uuid
           * @description The entry that holds the winning lucky number.
           */
          entry_id: string;
        }[];
        /** @description SHA-256 (hex) of the apuração record in Markdown, stored at publication and never rewritten: the record the operator hands out has this SHA-256. */
        record_sha256: string;
      };
    };
    WinnerUpdatedEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      event_type: 'winner.updated';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        /**
         * Format: uuid
         * @description The winner: one prize won. The same in every winner.updated of that prize.
         */
        id: string;
        /** Format: uuid */
        campaign_id: string;
        livemode: boolean;
        /** @enum {string} */
        source: 'draw' | 'instant';
        /**
         * Format: uuid
         * @description The draw (apuração) that gave the prize, as in draw.published; null for an instant prize.
         */
        draw_id: string | null;
        /** @description The position in the draw's winners; null for an instant prize. */
        position: number | null;
        /**
         * Format: uuid
         * @description The entry that won: GET /v1/entries/{entry_id} finds the participant.
         */
        entry_id: string;
        participant: {
          /** @description Masked, each word its first letter and *** ("M*** d*** S***"); null when not given or after the participant was anonymized. */
          name: string | null;
          /** @description Masked CPF ("***.982.247-**") or CNPJ ("**.ABC.345/****-**"); "***" after the participant was anonymized. */
          document: string;
          city: string | null;
          /** @description The UF, as the enrollment gave it. */
          state: string | null;
        };
        prize: {
          /** @description A draw position's prize in the regulation's words, or the instant prize's name; null when the draw gave none. */
          description: string | null;
          /** @description In reais, with a dot and two decimals ("15990.00"); null when not given. */
          value: string | null;
        };
        /** @enum {string} */
        status: 'awarded' | 'notified' | 'delivered' | 'declined' | 'disqualified' | 'prescribed';
        /**
         * Format: date-time
         * @description The apuração: when the draw ran, or when the instant prize was confirmed. The deadlines count from its day.
         */
        awarded_at: string;
        deadlines: {
          /**
           * Format: date
           * @description The last day to notify the winner. A day in Brasília time.
           */
          notify_by: string;
          /**
           * Format: date
           * @description The last day to deliver the prize. A day in Brasília time.
           */
          deliver_by: string;
          /**
           * Format: date
           * @description The last of the 180 days to deliver the prize (Lei 5.768/1971 art. 6); after it the prize is prescribed. A day in Brasília time.
           */
          prescribes_at: string;
        };
        overdue: ('notify_by' | 'deliver_by')[];
        events: {
          /** @enum {string} */
          event:
            'awarded' | 'notified' | 'contact_failed' | 'documents_received' | 'delivered' | 'declined' | 'disqualified' | 'prescribed';
          /** @description The operator's note on the step, or the rules' reason; null when there is none. */
          note: string | null;
          /** @enum {string|null} */
          from_status: 'awarded' | 'notified' | 'delivered' | 'declined' | 'disqualified' | 'prescribed' | null;
          /** @enum {string} */
          to_status: 'awarded' | 'notified' | 'delivered' | 'declined' | 'disqualified' | 'prescribed';
          /** @description Who took the step: "system" for the rules (the opening, a disqualification, a prescription), else the operator ("dashboard:<name>", "cli:<user>"). */
          actor: string;
          /** Format: date-time */
          at: string;
          attachments: {
            id: number;
            filename: string;
            /** @enum {string} */
            media_type: 'application/pdf' | 'image/jpeg' | 'image/png';
            /** @description In bytes. */
            size: number;
            /** @description SHA-256 (hex) of the file's bytes: a copy of it can be checked against it. */
            sha256: string;
          }[];
        }[];
      };
    };
    PingEvent: {
      /** @description Event id; equals the webhook-id header and stays the same across retries. Deduplicate on it. */
      id: string;
      /** @constant */
      event_type: 'ping';
      /**
       * Format: date-time
       * @description When the event happened (not when this attempt was sent).
       */
      created_at: string;
      livemode: boolean;
      /** Format: uuid */
      campaign_id: string;
      data: {
        message: string;
      };
    };
    EntrySubmission: {
      /** @description Participant identity. The first entry of a document creates the enrollment; later ones fill only its empty fields (a differing stored value is kept, silently). */
      enrollment: {
        /**
         * @description CPF (11 digits) or CNPJ (14 characters: 12 of 0-9 or A-Z, then 2 digits); the punctuation `. - /` and spaces are stripped, case is ignored, and the check digits are verified (422 invalid_document), which the pattern cannot state. CNPJ only when the campaign accepts companies.
         * @example 529.982.247-25
         * @example 12.ABC.345/01DE-35
         */
        document_number: string;
        /** @description At least 3 characters. Required when the campaign requires it and none is stored. At most 200 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted. */
        full_name?: string | null;
        /**
         * Format: email
         * @description Unique within the campaign and mode, ignoring case (422 email_taken). At most 254 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted.
         */
        email?: string | null;
        /**
         * @description E.164 without the leading +, country code included; a leading + and the separators `( ) . -` and spaces are stripped. The number must exist in its country's numbering plan (422 invalid_phone), which the pattern cannot state. Unique within the campaign and mode (422 phone_taken). At most 32 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted.
         * @example 5511987654321
         */
        phone?: string | null;
        /**
         * Format: date
         * @description A real date from 1900 on, before today in Brazil (422 not_in_past). Surrounding whitespace is ignored; a blank value counts as omitted.
         */
        birthdate?: string | null;
        address?: {
          /** @description At most 200 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted. */
          address_line_1?: string | null;
          /** @description At most 200 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted. */
          address_line_2?: string | null;
          /** @description At most 100 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted. */
          neighborhood?: string | null;
          /** @description An empty city does not satisfy a city requirement. At most 100 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted. */
          city?: string | null;
          /**
           * @description Two-letter Brazilian UF. Surrounding whitespace is ignored; a blank value counts as omitted. Case is ignored; stored upper-case.
           * @example SP
           * @enum {string|null}
           */
          state?:
            | 'AC'
            | 'AL'
            | 'AP'
            | 'AM'
            | 'BA'
            | 'CE'
            | 'DF'
            | 'ES'
            | 'GO'
            | 'MA'
            | 'MT'
            | 'MS'
            | 'MG'
            | 'PA'
            | 'PB'
            | 'PR'
            | 'PE'
            | 'PI'
            | 'RJ'
            | 'RN'
            | 'RS'
            | 'RO'
            | 'RR'
            | 'SC'
            | 'SP'
            | 'SE'
            | 'TO'
            | null;
          /** @description At most 16 characters (422 too_long). Surrounding whitespace is ignored; a blank value counts as omitted. */
          zipcode?: string | null;
          /**
           * @description Two-letter ISO 3166-1 code; BR when omitted. Surrounding whitespace is ignored; a blank value counts as omitted. Case is ignored; stored upper-case.
           * @enum {string|null}
           */
          country?:
            | 'AD'
            | 'AE'
            | 'AF'
            | 'AG'
            | 'AI'
            | 'AL'
            | 'AM'
            | 'AO'
            | 'AQ'
            | 'AR'
            | 'AS'
            | 'AT'
            | 'AU'
            | 'AW'
            | 'AX'
            | 'AZ'
            | 'BA'
            | 'BB'
            | 'BD'
            | 'BE'
            | 'BF'
            | 'BG'
            | 'BH'
            | 'BI'
            | 'BJ'
            | 'BL'
            | 'BM'
            | 'BN'
            | 'BO'
            | 'BQ'
            | 'BR'
            | 'BS'
            | 'BT'
            | 'BV'
            | 'BW'
            | 'BY'
            | 'BZ'
            | 'CA'
            | 'CC'
            | 'CD'
            | 'CF'
            | 'CG'
            | 'CH'
            | 'CI'
            | 'CK'
            | 'CL'
            | 'CM'
            | 'CN'
            | 'CO'
            | 'CR'
            | 'CU'
            | 'CV'
            | 'CW'
            | 'CX'
            | 'CY'
            | 'CZ'
            | 'DE'
            | 'DJ'
            | 'DK'
            | 'DM'
            | 'DO'
            | 'DZ'
            | 'EC'
            | 'EE'
            | 'EG'
            | 'EH'
            | 'ER'
            | 'ES'
            | 'ET'
            | 'FI'
            | 'FJ'
            | 'FK'
            | 'FM'
            | 'FO'
            | 'FR'
            | 'GA'
            | 'GB'
            | 'GD'
            | 'GE'
            | 'GF'
            | 'GG'
            | 'GH'
            | 'GI'
            | 'GL'
            | 'GM'
            | 'GN'
            | 'GP'
            | 'GQ'
            | 'GR'
            | 'GS'
            | 'GT'
            | 'GU'
            | 'GW'
            | 'GY'
            | 'HK'
            | 'HM'
            | 'HN'
            | 'HR'
            | 'HT'
            | 'HU'
            | 'ID'
            | 'IE'
            | 'IL'
            | 'IM'
            | 'IN'
            | 'IO'
            | 'IQ'
            | 'IR'
            | 'IS'
            | 'IT'
            | 'JE'
            | 'JM'
            | 'JO'
            | 'JP'
            | 'KE'
            | 'KG'
            | 'KH'
            | 'KI'
            | 'KM'
            | 'KN'
            | 'KP'
            | 'KR'
            | 'KW'
            | 'KY'
            | 'KZ'
            | 'LA'
            | 'LB'
            | 'LC'
            | 'LI'
            | 'LK'
            | 'LR'
            | 'LS'
            | 'LT'
            | 'LU'
            | 'LV'
            | 'LY'
            | 'MA'
            | 'MC'
            | 'MD'
            | 'ME'
            | 'MF'
            | 'MG'
            | 'MH'
            | 'MK'
            | 'ML'
            | 'MM'
            | 'MN'
            | 'MO'
            | 'MP'
            | 'MQ'
            | 'MR'
            | 'MS'
            | 'MT'
            | 'MU'
            | 'MV'
            | 'MW'
            | 'MX'
            | 'MY'
            | 'MZ'
            | 'NA'
            | 'NC'
            | 'NE'
            | 'NF'
            | 'NG'
            | 'NI'
            | 'NL'
            | 'NO'
            | 'NP'
            | 'NR'
            | 'NU'
            | 'NZ'
            | 'OM'
            | 'PA'
            | 'PE'
            | 'PF'
            | 'PG'
            | 'PH'
            | 'PK'
            | 'PL'
            | 'PM'
            | 'PN'
            | 'PR'
            | 'PS'
            | 'PT'
            | 'PW'
            | 'PY'
            | 'QA'
            | 'RE'
            | 'RO'
            | 'RS'
            | 'RU'
            | 'RW'
            | 'SA'
            | 'SB'
            | 'SC'
            | 'SD'
            | 'SE'
            | 'SG'
            | 'SH'
            | 'SI'
            | 'SJ'
            | 'SK'
            | 'SL'
            | 'SM'
            | 'SN'
            | 'SO'
            | 'SR'
            | 'SS'
            | 'ST'
            | 'SV'
            | 'SX'
            | 'SY'
            | 'SZ'
            | 'TC'
            | 'TD'
            | 'TF'
            | 'TG'
            | 'TH'
            | 'TJ'
            | 'TK'
            | 'TL'
            | 'TM'
            | 'TN'
            | 'TO'
            | 'TR'
            | 'TT'
            | 'TV'
            | 'TW'
            | 'TZ'
            | 'UA'
            | 'UG'
            | 'UM'
            | 'US'
            | 'UY'
            | 'UZ'
            | 'VA'
            | 'VC'
            | 'VE'
            | 'VG'
            | 'VI'
            | 'VN'
            | 'VU'
            | 'WF'
            | 'WS'
            | 'YE'
            | 'YT'
            | 'ZA'
            | 'ZM'
            | 'ZW'
            | null;
        } | null;
      };
      /** @description LGPD consent record; stored once per entry and never updated. */
      consent: {
        /**
         * Format: date-time
         * @description ISO 8601 date-time with a timezone, on a real calendar day; stored as sent. Seconds may be omitted and the offset written without a colon, which RFC 3339 (format date-time) does not allow. More than 5 minutes ahead of the server clock is 422 in_future.
         * @example 2026-11-20T14:03:00-03:00
         */
        granted_at: string;
        /** @description IPv4 or IPv6 address of the consenting user. Surrounding whitespace is ignored. */
        ip_address: string;
        /** @description Stored values over 1024 characters are truncated. Surrounding whitespace is ignored. */
        user_agent: string;
        /** @description Identifier of the accepted terms version. At most 100 characters (422 too_long). Surrounding whitespace is ignored. */
        term_version: string;
        /** @description Explicit per-category choices; regulation, privacy_policy and transactional are recorded implicitly when omitted. A consent_type may appear once (422 duplicate). */
        consents?: (
          | ({
              /** @enum {string} */
              consent_type: 'regulation' | 'privacy_policy' | 'marketing' | 'data_sharing' | 'image_use' | 'transactional' | 'other';
              granted: boolean;
            }[] &
              (unknown & unknown & unknown & unknown & unknown & unknown & unknown))
          | null
        ) &
          (unknown & unknown & unknown & unknown & unknown & unknown & unknown);
      };
      /** @description Proof of purchase. */
      evidence: {
        /**
         * @description Only "fiscal_key" is supported.
         * @constant
         */
        type: 'fiscal_key';
        /**
         * @description NF-e / NFC-e / SAT access key, 44 to 50 digits; whitespace anywhere is ignored. A 44-digit key with a bad check digit (mod 11 of the first 43 digits), model (55, 65, 59) or state code gives 202 with status REJECTED, not a 422.
         * @example 35261112345678000190550010000000011000000016
         */
        access_key: string;
      };
      /** @description Only for INTEGRATOR_DECLARED instant-prize campaigns (else 422 instant_win_not_allowed): the integrator decides the win, the service records it. `prize_definition_id` is a prize of the campaign and mode (GET /v1/prizes; else 422 unknown_prize), required when `won` is true and omitted when it is false (null or a blank value counts as omitted). */
      instant_win?:
        | {
            /** @constant */
            won: true;
            /**
             * Format: uuid
             * @description Surrounding whitespace is ignored; a blank value counts as omitted.
             */
            prize_definition_id: string;
          }
        | {
            /** @constant */
            won: false;
          }
        | null;
    };
    PrizeList: components['schemas']['Prize'][];
    EventList: {
      data: (
        | components['schemas']['EntryReceivedEvent']
        | components['schemas']['EntryCompletedEvent']
        | components['schemas']['EntryEvaluatedEvent']
        | components['schemas']['AwardUpdatedEvent']
        | components['schemas']['DrawPublishedEvent']
        | components['schemas']['WinnerUpdatedEvent']
      )[];
      /** @description True when older events follow this page. */
      has_more: boolean;
    };
  };
  responses: never;
  parameters: {
    /** @description The id from the 202 response and from `data.entry_id` of events. */
    EntryId: string;
    /** @description Scope: (campaign, mode, key). A UUID is recommended. Missing: 422 idempotency_key_missing. */
    IdempotencyKey: string;
    /** @description Echoed in the response and the server log; generated when absent or not matching. */
    RequestId: string;
  };
  requestBodies: never;
  headers: {
    /** @description The request id (echoed or generated); quote it when reporting a problem. */
    RequestId: string;
    /** @description Present, with the value `true`, only when this 202 answers a replay of an Idempotency-Key already committed: the entry is the first one and this request's body was ignored. Absent on a new entry. */
    IdempotentReplayed: 'true';
    /** @description Seconds to wait before retrying. */
    RetryAfter: string;
    /** @description The bearer challenge (RFC 6750): `Bearer realm="ces"` when no bearer key was sent, `Bearer realm="ces", error="invalid_token"` for a key that is refused (`Bearer realm="metrics"` on GET /metrics). */
    WwwAuthenticate: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  createEntry: {
    parameters: {
      query?: never;
      header: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
        /** @description Scope: (campaign, mode, key). A UUID is recommended. Missing: 422 idempotency_key_missing. */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EntrySubmission'];
      };
    };
    responses: {
      /** @description Accepted (or an idempotent replay). */
      202: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EntryAccepted'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`, `invalid_json`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request' | 'invalid_json';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `registration_closed`. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'registration_closed';
          };
        };
      };
      /** @description Problem; `code` is one of: `idempotency_conflict`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_conflict';
          };
        };
      };
      /** @description Problem; `code` is one of: `payload_too_large`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
          };
        };
      };
      /** @description Problem; `code` is one of: `unsupported_media_type`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Problem; `code` is one of: `validation_failed`, `invalid_document`, `idempotency_key_missing`, `idempotency_key_invalid`, `missing_required_field`, `email_taken`, `phone_taken`, `companies_not_allowed`, `unknown_prize`, `instant_win_not_allowed`. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'validation_failed'
              | 'invalid_document'
              | 'idempotency_key_missing'
              | 'idempotency_key_invalid'
              | 'missing_required_field'
              | 'email_taken'
              | 'phone_taken'
              | 'companies_not_allowed'
              | 'unknown_prize'
              | 'instant_win_not_allowed';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /** @description Events per page. */
        limit?: number;
        /** @description An event id: the page starts with the next older event. */
        starting_after?: string;
        /** @description Only events of this type. */
        type?: 'entry.received' | 'entry.completed' | 'entry.evaluated' | 'award.updated' | 'draw.published' | 'winner.updated';
        /** @description Only this entry's events. */
        entry_id?: string;
      };
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of events. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventList'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `validation_failed`. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getEntry: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path: {
        /** @description The id from the 202 response and from `data.entry_id` of events. */
        entry_id: components['parameters']['EntryId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Entry'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_found`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  submitLuckyNumbers: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path: {
        /** @description The id from the 202 response and from `data.entry_id` of events. */
        entry_id: components['parameters']['EntryId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LuckyNumbersSubmission'];
      };
    };
    responses: {
      /** @description Numbers assigned. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LuckyNumbersAssigned'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`, `invalid_json`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request' | 'invalid_json';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_found`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_evaluated`, `lucky_numbers_already_submitted`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_evaluated' | 'lucky_numbers_already_submitted';
          };
        };
      };
      /** @description Problem; `code` is one of: `payload_too_large`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
          };
        };
      };
      /** @description Problem; `code` is one of: `unsupported_media_type`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Problem; `code` is one of: `validation_failed`, `quantity_mismatch`, `mechanic_not_manual`, `entry_rejected`, `series_out_of_range`, `duplicate_pairs`, `pair_taken`. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'validation_failed'
              | 'quantity_mismatch'
              | 'mechanic_not_manual'
              | 'entry_rejected'
              | 'series_out_of_range'
              | 'duplicate_pairs'
              | 'pair_taken';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  listPrizes: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The prizes. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PrizeList'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  revokeInstantPrize: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path: {
        /** @description The id from the 202 response and from `data.entry_id` of events. */
        entry_id: components['parameters']['EntryId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['RevokeRequest'];
      };
    };
    responses: {
      /** @description The award, now revoked. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Award'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`, `invalid_json`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request' | 'invalid_json';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_found`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
          };
        };
      };
      /** @description Problem; `code` is one of: `payload_too_large`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
          };
        };
      };
      /** @description Problem; `code` is one of: `unsupported_media_type`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Problem; `code` is one of: `validation_failed`, `instant_prize_not_declared`, `award_not_final`, `award_not_revocable`. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'instant_prize_not_declared' | 'award_not_final' | 'award_not_revocable';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  reassignInstantPrize: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path: {
        /** @description The id from the 202 response and from `data.entry_id` of events. */
        entry_id: components['parameters']['EntryId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReassignRequest'];
      };
    };
    responses: {
      /** @description The newly registered award (status awarded). */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Award'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`, `invalid_json`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request' | 'invalid_json';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_found`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
          };
        };
      };
      /** @description Problem; `code` is one of: `award_exists`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'award_exists';
          };
        };
      };
      /** @description Problem; `code` is one of: `payload_too_large`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
          };
        };
      };
      /** @description Problem; `code` is one of: `unsupported_media_type`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Problem; `code` is one of: `validation_failed`, `instant_prize_not_declared`, `award_not_revocable`, `unknown_prize`, `target_not_processed`, `entry_rejected`. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'validation_failed'
              | 'instant_prize_not_declared'
              | 'award_not_revocable'
              | 'unknown_prize'
              | 'target_not_processed'
              | 'entry_rejected';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getWebhookConfig: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The configuration. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookConfig'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_found`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  updateWebhookConfig: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookPatch'];
      };
    };
    responses: {
      /** @description Updated. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookConfig'];
        };
      };
      /** @description Created; the only response that shows the signing secret. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookConfigCreated'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`, `invalid_json`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request' | 'invalid_json';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_api_key`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_api_key';
          };
        };
      };
      /** @description Problem; `code` is one of: `webhook_config_locked`. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'webhook_config_locked';
          };
        };
      };
      /** @description Problem; `code` is one of: `payload_too_large`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
          };
        };
      };
      /** @description Problem; `code` is one of: `unsupported_media_type`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Problem; `code` is one of: `validation_failed`, `webhook_url_not_https`. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'webhook_url_not_https';
          };
        };
      };
      /** @description Problem; `code` is one of: `rate_limited`, `auth_rate_limited`. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited' | 'auth_rate_limited';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Healthy, or degraded (status says which). */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Unhealthy; the body says which part failed. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The exposition. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'text/plain; version=0.0.4': string;
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `invalid_metrics_token`. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'WWW-Authenticate': components['headers']['WwwAuthenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_metrics_token';
          };
        };
      };
      /** @description Problem; `code` is one of: `not_found`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /** @description Problem; `code` is one of: `service_unavailable`. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Retry-After': components['headers']['RetryAfter'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getOpenApiDocument: {
    parameters: {
      query?: never;
      header?: {
        /** @description Echoed in the response and the server log; generated when absent or not matching. */
        'X-Request-Id'?: components['parameters']['RequestId'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': string;
        };
      };
      /** @description Problem; `code` is one of: `bad_request`. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'bad_request';
          };
        };
      };
      /** @description Problem; `code` is one of: `internal_error`. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
    };
  };
  event_entry_received: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EntryReceivedEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_entry_completed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EntryCompletedEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_entry_evaluated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EntryEvaluatedEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_award_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AwardUpdatedEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_draw_published: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DrawPublishedEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_winner_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WinnerUpdatedEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  event_ping: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (equals the body `id`). */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; reject values far from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of hmac_secret (after `whsec_`). During the grace period of a secret rotation, two such values separated by a space: the new secret's first, then the old one's; accept the delivery if either matches (Standard Webhooks libraries do). */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PingEvent'];
      };
    };
    responses: {
      /** @description Acknowledged; the event is not sent again. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not acknowledged; retried later. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
