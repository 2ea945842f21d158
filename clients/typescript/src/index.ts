// @ces/client: a typed client for ces. See README.md, and docs/integrating.md in the ces repository.
export { createCesClient } from './client.ts';
export type { CesClient, CesClientOptions, EventsQuery, SubmitEntryOptions, SubmittedEntry } from './client.ts';
export { CesApiError } from './errors.ts';
export { parseRetryAfter } from './retry.ts';
export type { RetryOptions } from './retry.ts';
export { verifyWebhook, WebhookVerificationError } from './webhooks.ts';
export type { HeadersLike, VerifyWebhookOptions, WebhookVerificationReason } from './webhooks.ts';
export { instantPrizeOf, luckyNumbersOf, narrowMechanics } from './mechanics.ts';
export type {
  InstantPrizeMechanic,
  InstantPrizeOutcome,
  LuckyNumbersMechanic,
  LuckyNumbersOutcome,
  Mechanic,
  NarrowedMechanic,
} from './mechanics.ts';
export {
  accessKeyCheckDigit,
  cnpjCheckDigits,
  cpfCheckDigits,
  generateAccessKey,
  generateCnpj,
  generateCpf,
  generateEntry,
  STATE_CODES,
  TEST_TRIGGERS,
} from './test-data.ts';
export type { AccessKeyOptions, EntryOptions, RandomOption } from './test-data.ts';
export type * from './types.ts';
export type { components, operations, paths, webhooks } from './openapi.generated.ts';
