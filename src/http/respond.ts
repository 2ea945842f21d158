// Building responses: JSON bodies and RFC 9457 problem+json. Every error a client can see passes
// through problemFromError, which shows AppError details and hides everything else.
//
// Responses are h3's HTTPResponse, not the global (undici) Response: h3 hands its body string
// straight to node:http, where a web Response is first wrapped in a ReadableStream and then
// pumped out of it, at a cost the JSON echo shows (docs/architecture.md#the-request-path).
import { STATUS_CODES } from 'node:http';
import type { ConsolaInstance } from 'consola';
import { HTTPResponse } from 'h3';
import { AppError, storageUnavailable } from '../kernel/errors.ts';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function json(status: number, body: unknown, headers?: Record<string, string>): HTTPResponse {
  return new HTTPResponse(JSON.stringify(body), {
    status,
    statusText: STATUS_CODES[status],
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(error: AppError): HTTPResponse {
  const body: Record<string, unknown> = {
    type: `https://ces.dev/problems/${error.code.replaceAll('_', '-')}`,
    title: TITLES[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    code: error.code,
    ...error.extra,
  };
  if (error.errors) body.errors = error.errors;
  return new HTTPResponse(JSON.stringify(body), {
    status: error.status,
    statusText: STATUS_CODES[error.status],
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...error.headers },
  });
}

/** Maps anything thrown by a handler to a response; unexpected errors are logged, never shown. */
export function problemFromError(error: unknown, log: ConsolaInstance): HTTPResponse {
  if (error instanceof AppError) return problem(error);
  const code = (error as { code?: unknown })?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_FULL' || code === 'SQLITE_IOERR') {
    log.error({ message: 'database unavailable', error: String(error) });
    return problem(storageUnavailable());
  }
  log.error(error);
  return problem(new AppError(500, 'internal_error', 'An unexpected error occurred. It has been logged.'));
}
