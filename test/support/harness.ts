// Test harness. Every test builds its own world (a real SQLite file in a fresh temp folder, a
// ManualClock); nothing is shared between tests. Three ways in, cheapest first (docs/architecture.md,
// Testing):
// - the server in process (default): the production service and HTTP app (src/http/server.ts
//   openService) driven through h3's app.request, without a port or a checkpoint thread;
// - the server on a socket ({ socket: true }): the production startServer listening on
//   127.0.0.1, for what only Node's HTTP server does (raw bytes, timeouts, keep-alive, client
//   addresses, graceful close, a URL for another process);
// - the CLI in process (runCli, default): the commander program of cli/program.ts with captured
//   output; or as a real child process ({ process: true }, runCliIntoHead, runCliWithClosedStderr)
//   for pipes, signals, terminals, the process's environment and the binary's own wiring.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import type { ConsolaInstance } from 'consola';
import type { CliInput, CliIo } from '../../cli/io.ts';
import { runProgram } from '../../cli/program.ts';
import { cliActor } from '../../src/audit/actor.ts';
import { createCampaign, type Campaign, type CampaignOptions } from '../../src/campaigns/campaigns.ts';
import { ManualClock, type Clock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { addPrize, type OperatorPrize } from '../../src/mechanics/prizes.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { openService, startServer, type RunningServer } from '../../src/http/server.ts';
import { nextJobDueAt } from '../../src/pipeline/jobs.repo.ts';
import { createTicker, finishesWithin, tickDidWork, type TickReport } from '../../src/pipeline/tick.ts';
import { nextDeliveryDueAt } from '../../src/webhooks/outbox.repo.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** The operator of changes a test makes through domain code, as the audit log names it: `cli:test-operator`. */
export const OPERATOR = cliActor('test-operator');

export interface TestServer {
  /** The server's base URL; only with { socket: true } (in process there is no port: it throws). */
  url: string;
  dir: string;
  dbPath: string;
  clock: ManualClock;
  ctx: Ctx;
  server: RunningServer;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /**
   * fetch(url + path, init), for what `request` cannot say (bytes as the body, no Content-Type);
   * in process the request goes to the app with the Content-Length fetch would send.
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** One background tick now (jobs, then webhook deliveries); what it did. */
  tick(): Promise<TickReport>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Raw body text, sent as is (overrides body). */
  raw?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string | null;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface StartTestServerOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  groupCommit?: boolean;
  seed?: number;
  /** Run the background tick on its timer (config.tickMs) as `ces serve` does; default false. */
  tick?: boolean;
  /**
   * Listen on a real port of 127.0.0.1 through the production startServer (listhen, Node's HTTP
   * server, its timeouts and graceful close, the checkpoint thread) instead of calling the app in
   * process. For raw bytes, limits Node enforces, keep-alive, shutdown, client addresses, and
   * anything that hands `url` to another process or client.
   */
  socket?: boolean;
  /** The server's logger (default: silent), for a test that reads what it logs. */
  log?: ConsolaInstance;
  /**
   * Open this database file (one a server closed before: a restart) instead of a new one; its
   * folder is the test's and close() leaves it.
   */
  dbPath?: string;
  /**
   * The delivery scheduler's clock (ms), for the cool-downs of a failing endpoint: a test that moves
   * it by hand decides when a backed-off endpoint gets its probe. Default: the monotonic clock.
   */
  deliveryClock?: () => number;
}

/**
 * The peer address of in-process requests. A socket's peer is what the server believes (CES_TRUSTED_PROXIES
 * decides whether X-Forwarded-For is read); in process the request carries this one, the address
 * every socket test connects from, so per-address limits and the request log see the same.
 */
export const IN_PROCESS_PEER = '127.0.0.1';

let seedCounter = 1;

export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  const dir = options.dbPath ? dirname(options.dbPath) : mkdtempSync(join(tmpdir(), 'ces-test-'));
  const dbPath = options.dbPath ?? join(dir, 'ces.db');
  // In process the checkpoint thread is off unless a test asks for it: commits checkpoint as
  // they do without it (src/db/checkpointer.ts), and the thread is tested on its own and over sockets.
  const defaults: Record<string, string> = { CES_ALLOW_PRIVATE_WEBHOOKS: '1', ...(options.socket ? {} : { CES_CHECKPOINT_THREAD: '0' }) };
  const config = loadConfig({ db: dbPath, port: 0, host: '127.0.0.1', logFormat: 'json' }, { ...defaults, ...options.env }, false);
  const clock = options.clock ?? new ManualClock('2026-11-22T12:00:00.000Z');
  const serviceOptions = {
    clock,
    random: seededRandom(options.seed ?? seedCounter++),
    groupCommit: options.groupCommit,
    deliveryClock: options.deliveryClock,
  };
  // Each test's file is new to the server: its full check (a thread that records the file when it
  // passes) is waited for, so that no test sees that write land in the middle of what it measures.
  let server: RunningServer | InProcessServer;
  if (options.socket) {
    const running = await startServer(config, options.log ?? createSilentLogger(), { ...serviceOptions, tick: options.tick ?? false });
    await running.fullCheck;
    server = running;
  } else {
    const opened = openService(config, options.log ?? createSilentLogger(), serviceOptions);
    await opened.fullCheck;
    server = serveInProcess(opened, options.tick ?? false);
  }
  const fetchApp = (server as Partial<InProcessServer>).fetch;
  return {
    get url() {
      return server.url;
    },
    dir,
    dbPath,
    clock,
    ctx: server.service.ctx,
    server,
    request: (method, path, o = {}) => (fetchApp ? requestInProcess(fetchApp, method, path, o) : request(server.url, method, path, o)),
    fetch: (path, init) => (fetchApp ? fetchInProcess(fetchApp, path, init) : fetch(server.url + path, init)),
    tick: () => server.tick(),
    close: async () => {
      await server.close();
      if (!options.dbPath) rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface InProcessServer extends RunningServer {
  /** Hands a request to the app, as Node's adapter would, and returns its response. */
  fetch(request: Request): Promise<Response>;
}

/**
 * The opened service with a ticker (on its timer with `tick`) and no listener. The tick counts the
 * HTTP side busy while a request is in the app: no socket means no linger after the last one.
 * close() waits for requests and the tick as startServer's does, for CES_SHUTDOWN_TIMEOUT_MS.
 */
function serveInProcess(opened: ReturnType<typeof openService>, tick: boolean): InProcessServer {
  const { service, app, release, fullCheck } = opened;
  const { config } = service.ctx;
  const inFlight = new Set<Promise<Response>>();
  const ticker = createTicker(service.ctx, service.tick, () => inFlight.size > 0, service.deliveries, service.wal, service.chores);
  if (tick) ticker.start(config.tickMs);
  let closing: Promise<void> | null = null;
  return {
    get url(): string {
      throw new Error('this test server runs in process, without a port: start it with startTestServer({ socket: true })');
    },
    service,
    fullCheck,
    tick: () => ticker.tick(),
    fetch: (req) => {
      // A request off a socket starts in an event-loop turn of its own; so does this one, so that
      // what waits for the next turn has run (the row memo's check for another connection's
      // commit, src/db/row-cache.ts: a key revoked by the CLI a moment ago).
      const answered = new Promise<void>((resolve) => setImmediate(resolve)).then(() => app.request(req));
      inFlight.add(answered);
      void answered.finally(() => inFlight.delete(answered)).catch(() => {});
      return answered;
    },
    close: () => {
      closing ??= (async () => {
        const deadline = config.shutdownTimeoutMs;
        await Promise.all([finishesWithin(Promise.allSettled([...inFlight]), deadline), ticker.stop(deadline)]);
        await release();
      })();
      return closing;
    },
  };
}

/** The request line, headers and body of a test request, as fetch would send them. */
function requestInit(method: string, o: RequestOptions): { method: string; headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  let body: string | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return { method, headers, body };
}

async function toTestResponse(res: Response): Promise<TestResponse> {
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export async function request(baseUrl: string, method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> {
  return toTestResponse(await fetch(baseUrl + path, requestInit(method, o)));
}

/** The same request handed to the app in process. */
async function requestInProcess(
  fetchApp: (request: Request) => Promise<Response>,
  method: string,
  path: string,
  o: RequestOptions,
): Promise<TestResponse> {
  return toTestResponse(await fetchInProcess(fetchApp, path, requestInit(method, o)));
}

/**
 * A request to the app in process, from IN_PROCESS_PEER. fetch over a socket sends Content-Length
 * for a body it knows the size of; so does this, so that a declared length over the limit is
 * answered as it is over a socket (a stream body stays without one: chunked).
 */
function fetchInProcess(fetchApp: (request: Request) => Promise<Response>, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const body = init.body;
  if (!headers.has('content-length')) {
    if (typeof body === 'string') headers.set('content-length', String(Buffer.byteLength(body)));
    else if (body instanceof Uint8Array || body instanceof ArrayBuffer) headers.set('content-length', String(body.byteLength));
  }
  const req = new Request(`http://${IN_PROCESS_PEER}${path}`, { ...init, headers });
  Object.defineProperty(req, 'ip', { value: IN_PROCESS_PEER });
  return fetchApp(req);
}

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh connection, for what fetch cannot send
 * (a header line twice, UTF-8 bytes in a header). `head` is the request line and header lines
 * without the blank line; Content-Length and Connection: close are added. `beforeBody` runs once
 * the head is sent and the body is not, and then the body is sent.
 */
export async function rawRequest(
  baseUrl: string,
  head: string[],
  body: Buffer | string = '',
  beforeBody?: (socket: Socket) => Promise<void>,
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const ended = new Promise<void>((resolve, reject) => socket.once('close', () => resolve()).once('error', reject));
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  socket.write(
    Buffer.concat([Buffer.from([...head, `Content-Length: ${payload.length}`, 'Connection: close', '', ''].join('\r\n'), 'latin1')]),
  );
  if (beforeBody) await beforeBody(socket);
  socket.write(payload);
  await ended;
  const all = Buffer.concat(received).toString('utf8');
  const [headText, ...rest] = all.split('\r\n\r\n');
  const [statusLine, ...lines] = headText.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = line.slice(0, at).toLowerCase();
    const value = line.slice(at + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let text = rest.join('\r\n\r\n');
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (let at = 0; ;) {
      const eol = text.indexOf('\r\n', at);
      const size = parseInt(text.slice(at, eol), 16);
      if (!(size > 0)) break;
      out += text.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    text = out;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text };
}

/** A campaign with one live and one test key, made through the same domain code the CLI uses. */
export interface World {
  campaign: Campaign;
  liveKey: string;
  testKey: string;
  liveKeyId: string;
  testKeyId: string;
}

export function makeCampaign(ctx: Ctx, options: CampaignOptions = {}): World {
  const campaign = createCampaign(ctx, { name: 'Test campaign', ...options }, OPERATOR);
  const live = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, OPERATOR);
  const test = issueKey(ctx, { campaignId: campaign.id, mode: 'test' }, OPERATOR);
  return { campaign, liveKey: live.key, testKey: test.key, liveKeyId: live.id, testKeyId: test.id };
}

export function makePrize(ctx: Ctx, campaignId: string, mode: 'live' | 'test', stock = 10, name = 'Voucher'): OperatorPrize {
  return addPrize(ctx, { campaignId, mode, name, type: 'voucher', unitValue: 50, stock }, OPERATOR);
}

const VALID_CPFS = ['52998224725', '11144477735', '39053344705', '16899535009', '46924262848', '74682489070', '24843803480', '71428793860'];

/** Valid CPF number i (0..): generated with correct check digits, distinct per i. */
export function cpf(i: number): string {
  if (i < VALID_CPFS.length) return VALID_CPFS[i];
  const base = String(100000000 + i * 7919).slice(-9);
  const digits = base.split('').map(Number);
  const dv = (len: number): number => {
    let sum = 0;
    for (let k = 0; k < len; k++) sum += digits[k] * (len + 1 - k);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  digits.push(dv(9));
  digits.push(dv(10));
  return digits.join('');
}

/** A valid entry body; override parts with `patch`. Access key issued in 2026-11 by default. */
export function entryBody(
  patch: {
    enrollment?: Record<string, unknown>;
    consent?: Record<string, unknown>;
    evidence?: Record<string, unknown>;
    instant_win?: unknown;
  } = {},
  i = 0,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    enrollment: { document_number: cpf(i), ...patch.enrollment },
    consent: {
      granted_at: '2026-11-22T09:00:00-03:00',
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 test',
      term_version: 'v1',
      ...patch.consent,
    },
    evidence: {
      type: 'fiscal_key',
      access_key: makeAccessKey({ yymm: '2611', number: String(100000000 + i).slice(-9) }),
      ...patch.evidence,
    },
  };
  if (patch.instant_win !== undefined) body.instant_win = patch.instant_win;
  return body;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** The CLI's arguments, with `--db` when a database file is given. */
function withDb(args: string[], dbPath: string | undefined): string[] {
  return dbPath ? [...args, '--db', dbPath] : args;
}

export interface RunCliOptions {
  dbPath?: string;
  /** Added to this process's environment, as a child's would be. */
  env?: Record<string, string>;
  /** In process: the clock the command runs on (a test server's ManualClock); else the system's. */
  clock?: Clock;
  /** In process: what the command reads as the operator's answers (a TTY when it says isTTY); else nothing. */
  stdin?: CliInput;
  /** In process: aborting it stops a command that runs until stopped (`ces webhook listen`), as SIGINT would. */
  stop?: AbortSignal;
  /** In process: told of each write to stderr as it happens (a command that runs until stopped says when it is ready). */
  onStderr?: (text: string) => void;
  /**
   * Run the real `ces` binary's source as a child process (through tsx) instead of the program in
   * process: for the environment Node reads at start (NODE_*, TZ, locales), the process's file
   * modes, signals and TTYs, `ces serve`, commands that must see another process holding the
   * database, real concurrency with a server, and the binary's own wiring (cli/ces.ts).
   */
  process?: boolean;
}

/** Variables read when a process starts or by Node itself, not from the env a command is given. */
const PROCESS_EDGE_VARIABLES = /^(NODE_|TZ$|LANG$|LC_)/;

/**
 * Runs `ces ARGS…` against a database file: in process by default (cli/program.ts runProgram, its
 * stdout and stderr captured, its exit status returned, `env` on top of this process's, as a
 * child's would be), or as a real child process with { process: true }.
 */
export async function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  const finalArgs = withDb(args, options.dbPath);
  if (options.process) {
    if (options.clock || options.stdin || options.stop || options.onStderr)
      throw new Error('runCli: a clock, stdin or stop signal is given to the program in process only');
    return runCliProcess(finalArgs, options.env);
  }
  if (finalArgs[0] === 'serve')
    throw new Error('runCli: `ces serve` runs as a process (test/support/serve-process.ts, or { process: true })');
  const atEdge = Object.keys(options.env ?? {}).filter((name) => PROCESS_EDGE_VARIABLES.test(name));
  if (atEdge.length > 0) throw new Error(`runCli: ${atEdge.join(', ')} take effect when a process starts: pass { process: true }`);
  const stdout = new Capture();
  const stderr = new Capture(options.onStderr);
  const io: CliIo = {
    stdout,
    stderr,
    env: { ...process.env, ...options.env },
    stdin: options.stdin,
    clock: options.clock,
    stop: options.stop,
    exitCode: 0,
  };
  let code: number;
  try {
    code = await runProgram(finalArgs, io);
  } catch (error) {
    // What the binary would do with it: an uncaught exception, its stack on stderr, status 1.
    stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    code = 1;
  }
  return cliResult(code, stdout.text(), stderr.text());
}

/** Everything written to it, kept in memory: a command's stdout or stderr in process (not a TTY). */
class Capture extends Writable {
  private readonly chunks: Buffer[] = [];
  private readonly onWrite?: (text: string) => void;
  constructor(onWrite?: (text: string) => void) {
    super();
    this.onWrite = onWrite;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    this.onWrite?.(chunk.toString('utf8'));
    done();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function cliResult(code: number, stdout: string, stderr: string): CliResult {
  let json: unknown = undefined;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** The real `ces` CLI (from source, through tsx) as a child process. */
function runCliProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'cli/ces.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve(cliResult(error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr)),
    );
  });
}

/**
 * Runs `ces … | head -1` in bash with pipefail: the real CLI writing into a real pipe (64 KiB) that
 * `head` closes after the first line. Resolves with that line, the pipeline's status (the CLI's,
 * unless it is 0) and the CLI's stderr.
 */
export function runCliIntoHead(
  args: string[],
  options: { dbPath?: string } = {},
): Promise<{ firstLine: string; code: number | null; stderr: string }> {
  const finalArgs = withDb(args, options.dbPath);
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', '"$@" | head -1', 'bash', process.execPath, '--import', 'tsx', join(ROOT, 'cli/ces.ts'), ...finalArgs],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        resolve({ firstLine: stdout.replace(/\n$/, ''), code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr });
      },
    );
  });
}

/**
 * Runs the real CLI with its stderr a pipe whose reader has left (`ces … 2>&1 | true`): the test
 * closes its read end before the CLI starts, so every write to stderr meets EPIPE, with none of a
 * shell pipeline's race. Resolves with the exit status, stdout, and the stack of any uncaught
 * exception (recorded by test/support/record-uncaught.ts, as stderr cannot show it; '' if none).
 */
export function runCliWithClosedStderr(
  args: string[],
  options: { dbPath?: string } = {},
): Promise<{ code: number | null; stdout: string; uncaught: string }> {
  const finalArgs = withDb(args, options.dbPath);
  const dir = mkdtempSync(join(tmpdir(), 'ces-stderr-'));
  const uncaughtFile = join(dir, 'uncaught.txt');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', join(ROOT, 'test/support/record-uncaught.ts'), join(ROOT, 'cli/ces.ts'), ...finalArgs],
    {
      cwd: ROOT,
      env: { ...process.env, CES_TEST_UNCAUGHT_FILE: uncaughtFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stderr.destroy();
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const uncaught = existsSync(uncaughtFile) ? readFileSync(uncaughtFile, 'utf8') : '';
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, uncaught });
    });
  });
}

export interface DrainSummary {
  ticks: number;
  /** Total milliseconds the ManualClock was moved forward to reach retries and backoffs. */
  advancedMs: number;
  reports: TickReport[];
}

/**
 * Ticks until no job and no delivery is due, moving the ManualClock forward to the next retry or
 * backoff whenever a tick finds nothing to do but work is scheduled later. Stops with an error
 * after `maxTicks` (a job that can never finish, e.g. a verifier that stays down, must be driven
 * by hand with tick()).
 */
export async function drainAll(t: TestServer, options: { maxTicks?: number; advance?: boolean } = {}): Promise<DrainSummary> {
  const maxTicks = options.maxTicks ?? 500;
  const summary: DrainSummary = { ticks: 0, advancedMs: 0, reports: [] };
  while (summary.ticks < maxTicks) {
    const report = await t.tick();
    summary.ticks++;
    summary.reports.push(report);
    if (tickDidWork(report)) continue;
    const due = [nextJobDueAt(t.ctx.db), nextDeliveryDueAt(t.ctx.db)].filter((at): at is string => at !== null).map((at) => Date.parse(at));
    if (due.length === 0) return summary;
    const next = Math.min(...due);
    if (next <= t.clock.now()) continue;
    if (options.advance === false) return summary;
    summary.advancedMs += next - t.clock.now();
    t.clock.set(next);
  }
  throw new Error(`drainAll: work still due after ${maxTicks} ticks`);
}

/** PATCH /v1/webhook to create the campaign's configuration; returns the hmac_secret shown once. */
export async function configureWebhook(t: TestServer, key: string, endpointUrl: string): Promise<string> {
  const res = await t.request('PATCH', '/v1/webhook', { key, body: { endpoint_url: endpointUrl } });
  if (res.status !== 201) throw new Error(`configureWebhook: expected 201, got ${res.status} ${res.text}`);
  return res.body.hmac_secret as string;
}

/** POST /v1/entries; returns the entry id (throws unless 202). */
export async function submitEntry(
  t: TestServer,
  key: string,
  body: Record<string, unknown>,
  idempotencyKey: string,
): Promise<{ entry_id: string; status: string }> {
  const res = await t.request('POST', '/v1/entries', { key, idempotencyKey, body });
  if (res.status !== 202) throw new Error(`submitEntry: expected 202, got ${res.status} ${res.text}`);
  return res.body;
}
