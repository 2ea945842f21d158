// Why an entry was REJECTED: the codes of `rejection_reasons[]` (GET /v1/entries/{id},
// entry.completed), one list for the type checker and the OpenAPI document's enum. A reason with
// any other code does not compile.

export const REJECTION_REASON_CODES = [
  // at intake, a 44-digit access key that fails fast (src/entries/fiscal-key.ts)
  'access_key_invalid_check_digit',
  'access_key_invalid_model',
  'access_key_invalid_state',
  // processing (src/pipeline/checks.ts, jobs.ts)
  'access_key_invalid_month',
  'access_key_issued_in_future',
  'purchase_outside_period',
  'duplicate_receipt',
  'participant_limit_reached',
  'daily_limit_reached',
  'fiscal_verifier_rejected',
  // test mode's trigger cNFs
  'test_fiscal_rejected',
  'test_fraud_suspected',
] as const;

type RejectionReasonCode = (typeof REJECTION_REASON_CODES)[number];

export interface RejectionReason {
  code: RejectionReasonCode;
  message: string;
}
