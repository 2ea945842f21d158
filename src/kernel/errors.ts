// AppError is the one domain error: a status, a stable snake_case code, a human message and, for
// validation, the list of field violations. src/http/respond.ts and the CLI map it at the edges;
// anything else that is thrown is a bug.

/**
 * The codes of errors[] items, one list for the type checker and the OpenAPI document's enum: a
 * FieldError with any other code does not compile, so a new code cannot reach a 422 undocumented.
 */
export const FIELD_ERROR_CODES = [
  // shape of any body or query
  'required',
  'invalid_type',
  'invalid_value',
  'unknown_field',
  'repeated',
  'too_long',
  'too_short',
  'duplicate',
  'not_allowed',
  // POST /v1/entries
  'invalid_document',
  'invalid_email',
  'invalid_phone',
  'invalid_date',
  'not_in_past',
  'invalid_state',
  'invalid_country',
  'invalid_date_time',
  'in_future',
  'invalid_ip',
  'unsupported_evidence_type',
  'invalid_access_key',
  'unknown_prize',
  'email_taken',
  'phone_taken',
  'companies_not_allowed',
  'instant_win_not_allowed',
  // lucky numbers, instant prizes
  'invalid_series',
  'invalid_order_number',
  'quantity_mismatch',
  'series_out_of_range',
  'duplicate_pairs',
  'pair_taken',
  'target_not_processed',
  'award_exists',
  // webhooks and events
  'webhook_url_not_https',
  'unknown_event',
  // operator input (CLI and dashboard), never an API answer
  'invalid_option',
  'webhook_url_refused',
  'control_character',
] as const;
export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

/** Field codes only operator input can produce: not in the API's documented enum. */
export const OPERATOR_FIELD_ERROR_CODES: readonly FieldErrorCode[] = ['invalid_option', 'webhook_url_refused', 'control_character'];

export interface FieldError {
  field: string;
  code: FieldErrorCode;
  message: string;
}

/**
 * What the operator is to do next, as an action and what it acts on: the message says it in the
 * domain's words ("check the file"), and each edge shows it its own way (the CLI as the command
 * that does it, cli/fields.ts), so no message of the domain names a command.
 */
export interface NextStep {
  /** Check a database file's integrity and foreign keys (src/db/integrity.ts). */
  action: 'check';
  /** The database file it acts on. */
  dbPath: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly next?: NextStep;
  /** Members the problem carries beside its code (e.g. `pending_count`): figures a script reads without parsing the message. */
  readonly extra?: Record<string, string | number>;

  constructor(
    status: number,
    code: string,
    message: string,
    errors?: FieldError[],
    headers?: Record<string, string>,
    next?: NextStep,
    extra?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    if (errors && errors.length > 0) this.errors = errors;
    if (headers) this.headers = headers;
    if (next) this.next = next;
    if (extra) this.extra = extra;
  }
}

export const notFound = (what = 'Resource'): AppError => new AppError(404, 'not_found', `${what} not found.`);

/** The database could not take a write (disk full, I/O error, a writer that stopped): retry later. */
export const storageUnavailable = (): AppError =>
  new AppError(
    503,
    'service_unavailable',
    'The service is temporarily unable to store data; retry with the same Idempotency-Key.',
    undefined,
    { 'retry-after': '1' },
  );

export function validationFailed(errors: FieldError[]): AppError {
  return new AppError(422, 'validation_failed', 'The request body is invalid; see errors[] for each field.', errors);
}

/**
 * How a message names a field: its domain name between backticks (`cutoff`, `extraction_date`).
 * The CLI turns it into its flag, the dashboard into its form label (renameFields); a message never
 * names a flag or a command itself, so the same words serve every place that shows them.
 */
export const fieldName = (field: string): string => `\`${field}\``;

/** The message with every field it names (fieldName) named by `nameOf` instead. */
export function renameFields(message: string, nameOf: (field: string) => string): string {
  return message.replace(/`([a-z][a-z0-9_]*)`/g, (_, field: string) => nameOf(field));
}

/** A 422 invalid_option about one field of the operator's input, its message also as the field's error. */
export function invalidOption(field: string, message: string): AppError {
  return new AppError(422, 'invalid_option', message, [{ field, code: 'invalid_option', message }]);
}
