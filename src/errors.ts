// AppError is the one domain error: a status, a stable snake_case code, a human message and, for
// validation, the list of field violations. http/problem.ts and the CLI map it at the edges;
// anything else that is thrown is a bug.

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, message: string, errors?: FieldError[], headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    if (errors && errors.length > 0) this.errors = errors;
    if (headers) this.headers = headers;
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

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
