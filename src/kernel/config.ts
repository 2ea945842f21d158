// Flags + environment -> one frozen Config. The only reader of process.env; a flag always wins over
// its variable, and the variable over the default (README.md#configuration).
import { parseDecimal } from './numbers.ts';
import { parseTrustedProxies } from './trusted-proxies.ts';

export interface Config {
  dbPath: string;
  host: string;
  port: number;
  tickMs: number;
  /** Seconds between delivery attempts after the first; its length is the number of retries. */
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  /** Timeout of one call to a campaign's fiscal verifier. */
  verifierTimeoutMs: number;
  allowPrivateWebhooks: boolean;
  logFormat: 'pretty' | 'json';
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** Per-key token bucket: sustained requests per second and burst size; 0 disables. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Longest a request may take to arrive (headers and body), and longest a socket may sit idle mid-request. */
  requestTimeoutMs: number;
  /** Most webhook POSTs in flight at once, all endpoints together: the sockets deliveries may hold. */
  deliveryConcurrency: number;
  /** Most webhook POSTs in flight to one campaign's endpoint (src/webhooks/scheduler.ts). */
  deliveryPerEndpoint: number;
  /** Days delivered and skipped webhook events (and their attempts) are kept; 0 keeps them for ever. */
  retentionDays: number;
  /** Bearer token for GET /metrics; empty = open; 'off' disables the endpoint. */
  metricsToken: string;
  /** WAL checkpoints on a thread of their own instead of inside commits (src/db/checkpointer.ts); ignored when `checkpoints` is external. */
  checkpointThread: boolean;
  /**
   * Who checkpoints the WAL (CES_CHECKPOINTS): ces itself (`internal`), or an outside replicator
   * such as Litestream (`external`: no checkpoint thread, wal_autocheckpoint=0 on every writable
   * connection, no TRUNCATE anywhere; src/db/wal-watch.ts). Read by every command, not only `ces serve`.
   */
  checkpoints: CheckpointMode;
  /** WAL size (MiB) past which /healthz is degraded in external mode (CES_WAL_ALARM_MB; src/db/wal-watch.ts). */
  walAlarmMb: number;
  /** V8's --heap-growing-percent for `ces serve` (src/tools/heap-growth.ts); 0 leaves V8's own factor. */
  heapGrowingPercent: number;
  /** After SIGTERM/SIGINT, longest wait for requests and outgoing calls in flight before they are abandoned. */
  shutdownTimeoutMs: number;
  /** Peers whose X-Forwarded-For is believed (addresses and CIDRs, validated). */
  trustedProxies: readonly string[];
  /** Failed authentications a client address may make at once (refilled over 40 s); 0 disables. */
  authFailureLimit: number;
  /** The base URL clients reach ces at (behind a proxy, its https URL); null when unset (then http://HOST:PORT). */
  publicUrl: string | null;
  /** The operator dashboard under /dashboard/ (CES_DASHBOARD, on unless `off`). */
  dashboard: boolean;
  /** Base of Caixa's results API (`{base}/federal/{N}`), without its trailing slash (src/draws/loteria.ts). */
  loteriaUrl: string;
  /** Deadline of one request to the results API: connection, headers and body. */
  loteriaTimeoutMs: number;
}

export interface ConfigFlags {
  db?: string;
  host?: string;
  port?: string | number;
  tickMs?: string | number;
  logFormat?: string;
}

type Env = Record<string, string | undefined>;

export type CheckpointMode = 'internal' | 'external';

const FLAG_NAMES: Record<keyof ConfigFlags, string> = { db: 'db', host: 'host', port: 'port', tickMs: 'tick-ms', logFormat: 'log-format' };

const DEFAULT_DB_PATH = './data/ces.db';
const DEFAULT_LOTERIA_URL = 'https://servicebus2.caixa.gov.br/portaldeloterias/api';
const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

export class ConfigError extends Error {}

/**
 * Variables that only `ces serve` reads. Any other command takes their defaults and never fails on
 * them: a platform's PORT, or a typo in a rate limit, must not stop `ces campaign list`. The
 * database is read by every command, the delivery settings below only by `ces webhook test`.
 */
const SERVE_ONLY_VARIABLES = [
  'CES_HOST',
  'CES_PORT',
  'PORT',
  'CES_TICK_MS',
  'CES_LOG_FORMAT',
  'CES_WEBHOOK_RETRY_SCHEDULE',
  'CES_VERIFIER_TIMEOUT_MS',
  'CES_BODY_LIMIT_BYTES',
  'CES_RATE_LIMIT_RPS',
  'CES_RATE_LIMIT_BURST',
  'CES_REQUEST_TIMEOUT_MS',
  'CES_METRICS_TOKEN',
  'CES_CHECKPOINT_THREAD',
  'CES_WAL_ALARM_MB',
  'CES_HEAP_GROWING_PERCENT',
  'CES_RETENTION_DAYS',
  'CES_SHUTDOWN_TIMEOUT_MS',
  'CES_TRUSTED_PROXIES',
  'CES_AUTH_FAILURE_LIMIT',
  'CES_DASHBOARD',
];

/** What a command that sends a webhook itself (`ces webhook test`) reads besides CES_DB. */
const DELIVERY_VARIABLES = [
  'CES_WEBHOOK_TIMEOUT_MS',
  'CES_ALLOW_PRIVATE_WEBHOOKS',
  'CES_DELIVERY_CONCURRENCY',
  'CES_DELIVERY_PER_ENDPOINT',
];

/** What `ces draw results --fetch`, which reads Loteria Federal results from Caixa, reads besides CES_DB. */
const LOTERIA_VARIABLES = ['CES_LOTERIA_URL', 'CES_LOTERIA_TIMEOUT_MS'];

/**
 * The configuration of a command other than `ces serve`: its --db, no serve-only variable, and the
 * delivery settings only for a command that `delivers`: a typo in one of those must not stop
 * `ces campaign list` or `ces backup`, which send nothing. Likewise the results API's settings,
 * only for a command that `readsLoteria`.
 */
export function loadCommandConfig(
  flags: { db?: string },
  rawEnv: Env = process.env,
  options: { delivers?: boolean; publicUrl?: boolean; serveAddress?: boolean; readsLoteria?: boolean } = {},
): Readonly<Config> {
  const env = { ...rawEnv };
  if (!options.readsLoteria) for (const name of LOTERIA_VARIABLES) delete env[name];
  // `ces dashboard link` prints a URL of the server: without CES_PUBLIC_URL, http://HOST:PORT.
  const kept = options.serveAddress ? ['CES_HOST', 'CES_PORT', 'PORT'] : [];
  for (const name of SERVE_ONLY_VARIABLES) if (!kept.includes(name)) delete env[name];
  if (!options.delivers) for (const name of DELIVERY_VARIABLES) delete env[name];
  // Only a command that prints a URL for clients (`ces demo`) reads CES_PUBLIC_URL.
  if (!options.publicUrl) delete env.CES_PUBLIC_URL;
  return loadConfig({ db: flags.db }, env, false);
}

export function loadConfig(flags: ConfigFlags = {}, rawEnv: Env = process.env, isTty = Boolean(process.stdout.isTTY)): Readonly<Config> {
  // An empty variable (`CES_HOST=` in a unit file) is an unset one: it must not become host '' (every
  // interface), db '' (SQLite's temporary database, gone at exit) or port 0 (a random port).
  const env: Env = {};
  for (const [name, value] of Object.entries(rawEnv)) if (value !== undefined && value.trim() !== '') env[name] = value;
  // A flag given empty is a mistake in a script; refused rather than read as one of those.
  for (const [name, value] of Object.entries(flags)) {
    if (typeof value === 'string' && value.trim() === '')
      throw new ConfigError(`--${FLAG_NAMES[name as keyof ConfigFlags]} must not be empty`);
  }
  // A setting that has a flag: the flag, else the first variable set, else the default; the name is
  // where the value came from, so that a refusal names what the operator has to change.
  const pick = (flag: keyof ConfigFlags, variables: string[], fallback: string | number): { name: string; value: string | number } => {
    if (flags[flag] !== undefined) return { name: `--${FLAG_NAMES[flag]}`, value: flags[flag] };
    const variable = variables.find((v) => env[v] !== undefined);
    return variable ? { name: variable, value: env[variable]! } : { name: `--${FLAG_NAMES[flag]}`, value: fallback };
  };
  const { name: formatName, value: logFormat } = pick('logFormat', ['CES_LOG_FORMAT'], isTty ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError(`${formatName} must be pretty or json, got "${logFormat}"`);
  const host = pick('host', ['CES_HOST'], '127.0.0.1');
  const port = pick('port', ['CES_PORT', 'PORT'], 3000);
  const tickMs = pick('tickMs', ['CES_TICK_MS'], 200);
  return Object.freeze({
    dbPath: String(pick('db', ['CES_DB'], DEFAULT_DB_PATH).value),
    host: parseHost(host.name, String(host.value)),
    port: parseInteger(port.name, port.value, 0, 65535),
    tickMs: parseInteger(tickMs.name, tickMs.value, 1, 3_600_000),
    webhookRetrySchedule: parseSchedule(env.CES_WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: parseInteger('CES_WEBHOOK_TIMEOUT_MS', env.CES_WEBHOOK_TIMEOUT_MS ?? 15000, 1, 600_000),
    verifierTimeoutMs: parseInteger('CES_VERIFIER_TIMEOUT_MS', env.CES_VERIFIER_TIMEOUT_MS ?? 10000, 1, 600_000),
    allowPrivateWebhooks: env.CES_ALLOW_PRIVATE_WEBHOOKS === '1',
    logFormat,
    bodyLimitBytes: parseInteger('CES_BODY_LIMIT_BYTES', env.CES_BODY_LIMIT_BYTES ?? 65536, 1024, 64 * 1024 * 1024),
    rateLimitPerSecond: parseInteger('CES_RATE_LIMIT_RPS', env.CES_RATE_LIMIT_RPS ?? 200, 0, 1_000_000),
    rateLimitBurst: parseInteger('CES_RATE_LIMIT_BURST', env.CES_RATE_LIMIT_BURST ?? 1000, 1, 10_000_000),
    requestTimeoutMs: parseInteger('CES_REQUEST_TIMEOUT_MS', env.CES_REQUEST_TIMEOUT_MS ?? 30_000, 100, 600_000),
    deliveryConcurrency: parseInteger('CES_DELIVERY_CONCURRENCY', env.CES_DELIVERY_CONCURRENCY ?? 256, 1, 1000),
    deliveryPerEndpoint: parseInteger('CES_DELIVERY_PER_ENDPOINT', env.CES_DELIVERY_PER_ENDPOINT ?? 80, 1, 1000),
    retentionDays: parseInteger('CES_RETENTION_DAYS', env.CES_RETENTION_DAYS ?? 30, 0, 36_500),
    metricsToken: parseMetricsToken(env.CES_METRICS_TOKEN),
    checkpointThread: parseSwitch('CES_CHECKPOINT_THREAD', env.CES_CHECKPOINT_THREAD, true),
    checkpoints: parseCheckpointMode(env.CES_CHECKPOINTS),
    walAlarmMb: parseInteger('CES_WAL_ALARM_MB', env.CES_WAL_ALARM_MB ?? 512, 1, 1_048_576),
    heapGrowingPercent: parseInteger('CES_HEAP_GROWING_PERCENT', env.CES_HEAP_GROWING_PERCENT ?? 100, 0, 1000),
    shutdownTimeoutMs: parseInteger('CES_SHUTDOWN_TIMEOUT_MS', env.CES_SHUTDOWN_TIMEOUT_MS ?? 10_000, 100, 600_000),
    trustedProxies: parseProxyList(env.CES_TRUSTED_PROXIES),
    authFailureLimit: parseInteger('CES_AUTH_FAILURE_LIMIT', env.CES_AUTH_FAILURE_LIMIT ?? 20, 0, 1_000_000),
    publicUrl: parseBaseUrl('CES_PUBLIC_URL', env.CES_PUBLIC_URL),
    dashboard: parseOnOff('CES_DASHBOARD', env.CES_DASHBOARD, true),
    loteriaUrl: parseBaseUrl('CES_LOTERIA_URL', env.CES_LOTERIA_URL) ?? DEFAULT_LOTERIA_URL,
    loteriaTimeoutMs: parseInteger('CES_LOTERIA_TIMEOUT_MS', env.CES_LOTERIA_TIMEOUT_MS ?? 10_000, 1, 600_000),
  });
}

// What the HTTP listener (listhen, through get-port-please) accepts as a host. Anything else it
// silently replaces by 0.0.0.0, every interface, while the log still shows the name asked for.
const HOST_RE = /^(?!-)[\d.:A-Za-z-]{1,63}(?<!-)$/;

function parseHost(name: string, host: string): string {
  if (!HOST_RE.test(host))
    throw new ConfigError(
      `${name} must be an IP address or a host name (letters, digits, '.', ':' and '-', at most 63 characters), got "${host}"`,
    );
  return host;
}

/**
 * No switch turns certificate checks off (a CA is trusted with NODE_EXTRA_CA_CERTS;
 * README.md#configuration). Node reads NODE_TLS_REJECT_UNAUTHORIZED=0 at every TLS connection, the
 * fiscal verifier's fetch included, so it is taken out of the environment before any; true when it
 * was there, for the CLI to say it is ignored.
 */
export function dropCertificateCheckOverride(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NODE_TLS_REJECT_UNAUTHORIZED !== '0') return false;
  delete env.NODE_TLS_REJECT_UNAUTHORIZED;
  return true;
}

/**
 * A base URL (CES_PUBLIC_URL, CES_LOTERIA_URL): http(s) without credentials, query or fragment,
 * kept without its trailing slash. Plain http and loopback are the operator's choice here (a
 * local proxy, a test server): these are the operator's own settings, not an integrator's URL.
 */
function parseBaseUrl(name: string, raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw}"`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new ConfigError(`${name} must be an http:// or https:// URL without credentials, query or fragment, got "${raw}"`);
  }
  return url.href.replace(/\/$/, '');
}

function parseProxyList(raw: string | undefined): readonly string[] {
  const list = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  try {
    parseTrustedProxies(list);
  } catch (error) {
    throw new ConfigError(`CES_TRUSTED_PROXIES must be a comma list of IP addresses and CIDRs: ${(error as Error).message}`);
  }
  return Object.freeze(list);
}

function parseInteger(name: string, value: string | number, min: number, max: number): number {
  const n = parseDecimal(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

/** An on/off variable: `1` is on, `0` is off, unset or empty is the default, anything else is refused. */
function parseSwitch(name: string, raw: string | undefined, fallback: boolean): boolean {
  const value = raw?.trim() ?? '';
  if (value === '') return fallback;
  if (value === '0') return false;
  if (value === '1') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

/** CES_CHECKPOINTS: `internal` (the default) or `external`, any case. */
function parseCheckpointMode(raw: string | undefined): CheckpointMode {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '') return 'internal';
  if (value === 'internal' || value === 'external') return value;
  throw new ConfigError(`CES_CHECKPOINTS must be internal or external, got "${raw}"`);
}

/** A feature switch: `on` or `1`, `off` or `0` (any case); unset is the default. */
function parseOnOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '') return fallback;
  if (value === 'on' || value === '1') return true;
  if (value === 'off' || value === '0') return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

// RFC 7235 token68, what `Authorization: Bearer <token>` carries: letters, digits, -._~+/ and then
// only trailing '='. A token with a space or any other character can never be presented, so
// GET /metrics would refuse every scrape for ever while the server looked healthy.
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Empty (unset) = open, `off` = disabled, anything else a bearer token. A refusal names the first
 * character that cannot be sent (a space, a CR from a Windows .env file…) but never the token itself.
 */
function parseMetricsToken(raw: string | undefined): string {
  if (raw === undefined || raw === 'off' || TOKEN68.test(raw)) return raw ?? '';
  const chars = [...raw];
  const at = chars.findIndex((c, i) => !/[A-Za-z0-9\-._~+/=]/.test(c) || (c === '=' && chars.slice(i).some((d) => d !== '=')));
  throw new ConfigError(
    `CES_METRICS_TOKEN must be a bearer token (letters, digits and -._~+/, then only trailing =); character ${at + 1} is ${JSON.stringify(chars[at])}`,
  );
}

/**
 * The longest wait between two attempts: 30 days. Without a bound, a typo such as 1e13 passed here
 * and made the time of the next attempt an invalid date when a failure was recorded.
 */
const MAX_RETRY_WAIT_S = 30 * 24 * 3600;

function parseSchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_SCHEDULE];
  return raw.split(',').map((part) => {
    const n = parseDecimal(part);
    if (!Number.isFinite(n) || n < 0 || n > MAX_RETRY_WAIT_S) {
      throw new ConfigError(
        `CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to ${MAX_RETRY_WAIT_S} (30 days), got "${raw}"`,
      );
    }
    return n;
  });
}
