// The reader of `ces serve`'s log goes away while the server runs (`ces serve | head -1`, a log
// shipper that dies): its stdout becomes a pipe nobody reads, and the next log line fails with
// EPIPE. The server keeps serving, says so once on stderr (if that is still open), counts the log
// lines it drops in /metrics, and still stops gracefully (docs/operations.md, Request logs).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { entryBody, makeCampaign, request } from '../support/harness.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

const NOTICE = 'ces: log output lost';

/** Log lines the server says it dropped, from GET /metrics. */
async function droppedLines(url: string): Promise<number> {
  const metrics = await request(url, 'GET', '/metrics');
  assert.equal(metrics.status, 200);
  return Number(/^ces_log_lines_dropped_total (\d+)$/m.exec(metrics.text)?.[1]);
}

/** Resolves once `ready()` holds; rejects with the server's output if it exits first or 10 s pass. */
async function waitFor(serve: ServeProcess, ready: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await ready())) {
    if (serve.child.exitCode !== null || serve.child.signalCode !== null)
      throw new Error(
        `ces serve exited (code ${serve.child.exitCode}, signal ${serve.child.signalCode}) before ${what}:\n${serve.output()}`,
      );
    if (Date.now() > deadline) throw new Error(`no ${what} within 10 s:\n${serve.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// [log format, whether stderr closes too (`ces serve 2>&1 | shipper`)]
const CASES: Array<['json' | 'pretty', boolean]> = [
  ['json', false],
  ['pretty', false],
  ['json', true],
];

for (const [logFormat, stderrToo] of CASES) {
  describe(`--log-format ${logFormat}: the log's reader closes the pipe${stderrToo ? ', stderr with it' : ''}`, () => {
    let dir: string | undefined;
    let serve: ServeProcess | undefined;
    after(async () => {
      await killServe(serve);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test(`the server goes on serving, ${stderrToo ? 'survives its silent stderr' : 'says once on stderr that its log is gone'}, counts the dropped lines and exits 0 on SIGTERM`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'ces-log-pipe-'));
      const dbPath = join(dir, 'ces.db');
      const setup = await openFileCtx(dbPath);
      const world = makeCampaign(setup);
      setup.db.close();
      // GET /healthz counts a tick dead after 10 intervals without a run: 200 ms at spawnServe's 20 ms,
      // which a busy machine exceeds. The tick is not what this test is about.
      serve = await spawnServe({ dbPath, logFormat, tickMs: 1_000 });
      const s = serve;
      // The test process holds the only read ends of the child's pipes: closing one is its reader leaving.
      s.child.stdout!.destroy();
      if (stderrToo) s.child.stderr!.destroy();

      // This request's log line is the first write to find the pipe closed.
      assert.equal((await request(s.url, 'GET', '/healthz')).status, 200);
      await waitFor(s, async () => (await droppedLines(s.url)) >= 1, 'dropped log line');

      const entry = await request(s.url, 'POST', '/v1/entries', { key: world.liveKey, idempotencyKey: 'log-pipe-1', body: entryBody() });
      assert.equal(entry.status, 202, entry.text);
      assert.equal((await request(s.url, 'GET', '/healthz')).status, 200);
      // At least the lines of the first /healthz, the /metrics polls before this one, the POST, the second /healthz.
      assert.ok((await droppedLines(s.url)) >= 4);

      s.child.kill('SIGTERM');
      assert.deepEqual(await s.exited, { code: 0, signal: null }, s.output());
      if (!stderrToo) {
        assert.equal(s.output().split(NOTICE).length - 1, 1, s.output());
        assert.doesNotMatch(s.output(), /Unhandled 'error'|\n\s+at /, 'no stack trace');
      }
      const check = await openFileCtx(dbPath);
      try {
        assert.equal(
          check.db.prepare(`SELECT COUNT(*) FROM entries WHERE id = ?`).pluck().get(entry.body.entry_id),
          1,
          'the accepted entry is stored',
        );
      } finally {
        check.db.close();
      }
    });
  });
}
