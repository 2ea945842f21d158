// docs/api.md#errors: a 5xx never leaks a stack trace. A fault injected into the running
// server (an Error thrown by domain code, a SQLite error from the database) reaches a client as
// the generic 500 internal_error problem+json, with none of the error's text, path or stack; the
// error itself is handed to the logger (STYLE: "500 with no details, logged with its stack").
// Both edges are covered: the API-key route wrapper and h3's onError for the unwrapped routes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeCampaign, startTestServer, type TestResponse, type TestServer, type World } from './support/harness.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

// What an unexpected error might carry: a secret and a server path.
const SECRET = 'whsec_TOPSECRETdoNotLeak0123456789';
const PATH = '/srv/ces/internal/ces.db';
const MESSAGE = `cannot read ${PATH} with token ${SECRET}`;

const INTERNAL_ERROR = {
  type: 'https://ces.dev/problems/internal-error',
  title: 'Internal Server Error',
  status: 500,
  detail: 'An unexpected error occurred. It has been logged.',
  code: 'internal_error',
};

interface Fault {
  what: string;
  /** Makes `send` throw inside the server; returns the undo. */
  inject(): () => void;
  send(w: World): Promise<TestResponse>;
  /** The same request once the fault is gone. */
  healthy: number;
}

const createWebhook = (w: World): Promise<TestResponse> =>
  s.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks.example.com/ces' } });

const FAULTS: Fault[] = [
  {
    // Creating the configuration draws the HMAC secret from the service's random source.
    what: 'an Error thrown by domain code',
    inject: () => {
      const original = s.ctx.random.bytes;
      s.ctx.random.bytes = () => {
        throw new Error(MESSAGE);
      };
      return () => {
        s.ctx.random.bytes = original;
      };
    },
    send: createWebhook,
    healthy: 201,
  },
  {
    // A fault on the server's own connection: the INSERT fails with a SqliteError (not BUSY, FULL or IOERR).
    what: 'a SQLite error from the database',
    inject: () => {
      s.ctx.db.exec(
        `CREATE TEMP TRIGGER fail_webhook_insert BEFORE INSERT ON webhook_configs BEGIN SELECT RAISE(ABORT, '${MESSAGE}'); END`,
      );
      return () => s.ctx.db.exec('DROP TRIGGER IF EXISTS temp.fail_webhook_insert');
    },
    send: createWebhook,
    healthy: 201,
  },
  {
    // GET /healthz is outside the API-key wrapper: what it throws reaches h3's onError (src/http/app.ts).
    what: 'an Error thrown under a route outside the API-key wrapper',
    inject: () => {
      const original = s.clock.now;
      s.clock.now = () => {
        throw new Error(MESSAGE);
      };
      // h3 also prints an unhandled error to stderr itself (not to the client); kept out of the test output.
      const consoleError = console.error;
      console.error = () => {};
      return () => {
        s.clock.now = original;
        console.error = consoleError;
      };
    },
    send: () => s.request('GET', '/healthz'),
    healthy: 200,
  },
];

for (const fault of FAULTS) {
  test(`${fault.what} gives 500 internal_error problem+json without its message or stack`, async () => {
    const w = makeCampaign(s.ctx);
    const logged: unknown[][] = [];
    const originalError = s.ctx.log.error;
    s.ctx.log.error = ((...args: unknown[]) => {
      logged.push(args);
    }) as typeof originalError;
    const undo = fault.inject();
    let res;
    try {
      res = await fault.send(w);
    } finally {
      undo();
      s.ctx.log.error = originalError;
    }

    assert.equal(res.status, 500, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(res.body, INTERNAL_ERROR);
    for (const leak of [MESSAGE, SECRET, PATH, '    at ', 'Error:', 'stack', '.ts:'])
      assert.ok(!res.text.includes(leak), `the body shows ${JSON.stringify(leak)}: ${res.text}`);

    // The error is logged once, as the error object itself (so with its stack), for the operator.
    assert.equal(logged.length, 1);
    const [error] = logged[0] as [Error];
    assert.ok(error instanceof Error);
    assert.ok(error.message.includes(SECRET));
    assert.match(error.stack ?? '', /\n {4}at /);

    // With the fault gone the same request succeeds (for PATCH a 201: the failed one stored nothing).
    const retry = await fault.send(w);
    assert.equal(retry.status, fault.healthy, retry.text);
  });
}
