// Assertions shared by the suites: what every error response promises (docs/api.md#errors).
import assert from 'node:assert/strict';

/** What assertProblem reads of a response: the harness's TestResponse, or a suite's own. */
export interface ProblemResponse {
  status: number;
  headers: Headers;
  text?: string;
  body: any;
}

/**
 * An error response as docs/api.md#errors defines it: `status`, Content-Type application/problem+json (UTF-8), a
 * body with the same status, the stable `code`, a title, a detail and a type URL; with `fields`,
 * exactly these `errors` as [field, code] pairs in order, each with a message.
 */
export function assertProblem(res: ProblemResponse, status: number, code: string, fields?: Array<[string, string]>): void {
  const seen = res.text ?? JSON.stringify(res.body);
  assert.equal(res.status, status, seen);
  assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8', seen);
  assert.equal(res.body?.code, code, seen);
  assert.equal(res.body.status, status, seen);
  assert.equal(typeof res.body.title, 'string', seen);
  assert.equal(typeof res.body.detail, 'string', seen);
  assert.match(res.body.type, /^https:\/\//, seen);
  if (fields) {
    assert.deepEqual(
      res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
      fields,
      seen,
    );
    for (const e of res.body.errors) assert.ok(typeof e.message === 'string' && e.message.length > 0, seen);
  }
}
