// What a campaign is: its fields and the values its settings may take. Apart from campaigns.ts
// (the rules that create, change and read campaigns) so that campaigns.repo.ts, which those rules
// call, can name the type without importing them back: one file each way would be an import
// circle. campaigns.ts re-exports all of it, and stays the one file the rest of the code imports.
export const REQUIRED_FIELDS = ['full_name', 'email', 'phone', 'birthdate', 'city', 'state'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];
export const INSTANT_PRIZE_MODES = ['none', 'INTEGRATOR_DECLARED', 'WINDOW'] as const;
export const LUCKY_NUMBER_MODES = ['none', 'auto', 'manual'] as const;
/** Which API keys may change the webhook configuration (PATCH /v1/webhook); GET stays open to all. */
export const WEBHOOK_API_ACCESS = ['any', 'live', 'none'] as const;
export type WebhookApiAccess = (typeof WEBHOOK_API_ACCESS)[number];
/** How the plan counts its deadline to notify a winner: calendar days, or business days (src/tools/brazil-calendar.ts). */
export const NOTIFY_DAYS = ['calendar', 'business'] as const;

export interface Campaign {
  id: string;
  name: string;
  starts_at: string | null;
  ends_at: string | null;
  purchase_from: string | null;
  purchase_to: string | null;
  required_fields: RequiredField[];
  allow_companies: boolean;
  api_enabled: boolean;
  instant_prize: (typeof INSTANT_PRIZE_MODES)[number];
  lucky_numbers: (typeof LUCKY_NUMBER_MODES)[number];
  lucky_quantity: number;
  series_count: number;
  max_entries_per_participant: number | null;
  max_entries_per_day: number | null;
  fiscal_verifier_url: string | null;
  webhook_api: WebhookApiAccess;
  /** The Certificado de Autorização number, as SPA issued it: every apuração record prints it. */
  authorization: string | null;
  /** The promoter's razão social. */
  promoter: string | null;
  /** The promoter's CNPJ, 14 characters without punctuation. */
  promoter_document: string | null;
  promoter_address: string | null;
  /** The plan's deadline to notify a winner, counted from the apuração in notify_days (10 calendar days unless the plan says otherwise). */
  notify_within: number;
  notify_days: (typeof NOTIFY_DAYS)[number];
  /** The deadline to deliver a prize, in days from the apuração: 30 at most (docs/operations.md#winners-ces-winners). */
  deliver_within: number;
  /** When the campaign was closed (its prestação de contas made), by whom, and a forced closing's reason. */
  closed_at: string | null;
  closed_by: string | null;
  close_reason: string | null;
  created_at: string;
  updated_at: string;
}
