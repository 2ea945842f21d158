// A real `ces serve` for the client's tests (the production entry point as a child process, on a
// fresh database file), with `ces demo`'s campaign, key, prize and webhook secret, campaigns of
// its own for a test that must see only its own events, and bounded waits on what the server did.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../../../test/support/harness.ts';
import { killServe, spawnServe, type ServeProcess } from '../../../../test/support/serve-process.ts';
import { createCesClient, type CesClient, type CesClientOptions, type Entry } from '../../src/index.ts';

export interface Demo {
  campaign: { id: string };
  key: { key: string };
  prize: { id: string };
  webhook: { hmac_secret: string };
}

export interface Ces {
  url: string;
  dbPath: string;
  demo: Demo;
  serve: ServeProcess;
  /** A client of the demo's test key (or `apiKey`), retries on, waits real. */
  client(options?: Partial<CesClientOptions>): CesClient;
  /** `ces ARGS… --json` on the server's database file, in process; fails the test unless it exits 0. */
  cli(...args: string[]): Promise<any>;
  /** A campaign of its own (CLI flags of `ces campaign create`), with a test key. */
  campaign(...flags: string[]): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export async function startCes(env: Record<string, string> = {}): Promise<Ces> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-client-'));
  const dbPath = join(dir, 'ces.db');
  const cli = async (...args: string[]): Promise<any> => {
    const result: CliResult = await runCli([...args, '--json'], { dbPath });
    assert.equal(result.code, 0, `ces ${args.join(' ')}: ${result.stderr}`);
    return result.json;
  };
  const demo = (await cli('demo')) as Demo;
  const serve = await spawnServe({ dbPath, env });
  return {
    url: serve.url,
    dbPath,
    demo,
    serve,
    cli,
    client: (options = {}) => createCesClient({ baseUrl: serve.url, apiKey: demo.key.key, ...options }),
    async campaign(...flags) {
      const campaign = await cli('campaign', 'create', '--name', 'Client test', ...flags);
      const key = await cli('key', 'issue', '--campaign', campaign.id, '--mode', 'test');
      return { id: campaign.id as string, key: key.key as string };
    },
    async close() {
      await killServe(serve);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `check` returns a value other than undefined; polls every 25 ms, for at most a minute. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 2400; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The entry once processing and, for an approved one, evaluation are done. */
export function settled(client: CesClient, entryId: string): Promise<Entry> {
  return eventually(`entry ${entryId} to settle`, async () => {
    const entry = await client.getEntry(entryId);
    if (entry.status === 'REJECTED' || entry.evaluated_at !== null) return entry;
    return undefined;
  });
}
