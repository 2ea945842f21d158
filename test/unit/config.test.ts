// Configuration (src/kernel/config.ts; README.md#configuration): every default, every variable, a flag
// over its variable, CES_PORT over PORT, the TTY default of the log format, and the one-line
// refusals. On/off settings: CES_CHECKPOINT_THREAD is on unless set; anything but 1 or 0 stops `ces
// serve`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError, loadConfig, type ConfigFlags } from '../../src/kernel/config.ts';

test('CES_CHECKPOINT_THREAD is on by default, off with 0, refused unless 1 or 0', () => {
  const checkpointThread = (value?: string) =>
    loadConfig({}, value === undefined ? {} : { CES_CHECKPOINT_THREAD: value }, false).checkpointThread;
  assert.equal(checkpointThread(), true);
  assert.equal(checkpointThread(''), true);
  assert.equal(checkpointThread('1'), true);
  assert.equal(checkpointThread('0'), false);
  assert.equal(checkpointThread(' 0 '), false);
  assert.throws(
    () => checkpointThread('off'),
    (e: unknown) => e instanceof ConfigError && /CES_CHECKPOINT_THREAD must be 1 or 0, got "off"/.test(e.message),
  );
});

// README.md#configuration: every setting of `ces serve` is a flag and an environment variable,
// the flag wins over the variable and the variable over the default.

const DEFAULTS = {
  dbPath: './data/ces.db',
  host: '127.0.0.1',
  port: 3000,
  tickMs: 200,
  webhookRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
  webhookTimeoutMs: 15000,
  verifierTimeoutMs: 10000,
  allowPrivateWebhooks: false,
  logFormat: 'json',
  bodyLimitBytes: 65536,
  rateLimitPerSecond: 200,
  rateLimitBurst: 1000,
  requestTimeoutMs: 30000,
  deliveryConcurrency: 256,
  deliveryPerEndpoint: 80,
  retentionDays: 30,
  metricsToken: '',
  checkpointThread: true,
  checkpoints: 'internal',
  walAlarmMb: 512,
  heapGrowingPercent: 100,
  shutdownTimeoutMs: 10000,
  trustedProxies: [],
  authFailureLimit: 20,
  publicUrl: null,
  dashboard: true,
  loteriaUrl: 'https://servicebus2.caixa.gov.br/portaldeloterias/api',
  loteriaTimeoutMs: 10000,
};

test('with no flag and no variable every setting has its documented default, frozen', () => {
  const config = loadConfig({}, {}, false);
  assert.deepEqual(config, DEFAULTS);
  assert.ok(Object.isFrozen(config));
});

// [setting, variable, variable's value, what it gives]
const FROM_ENV: Array<[keyof typeof DEFAULTS, string, string, unknown]> = [
  ['dbPath', 'CES_DB', '/var/lib/ces/env.db', '/var/lib/ces/env.db'],
  ['host', 'CES_HOST', '0.0.0.0', '0.0.0.0'],
  ['port', 'CES_PORT', '8080', 8080],
  ['port', 'CES_PORT', '0', 0],
  ['port', 'PORT', '4000', 4000],
  ['tickMs', 'CES_TICK_MS', '50', 50],
  ['logFormat', 'CES_LOG_FORMAT', 'pretty', 'pretty'],
  ['webhookRetrySchedule', 'CES_WEBHOOK_RETRY_SCHEDULE', '1, 2,3', [1, 2, 3]],
  ['webhookRetrySchedule', 'CES_WEBHOOK_RETRY_SCHEDULE', '0,2592000', [0, 2_592_000]],
  ['webhookTimeoutMs', 'CES_WEBHOOK_TIMEOUT_MS', '500', 500],
  ['verifierTimeoutMs', 'CES_VERIFIER_TIMEOUT_MS', '750', 750],
  ['allowPrivateWebhooks', 'CES_ALLOW_PRIVATE_WEBHOOKS', '1', true],
  ['allowPrivateWebhooks', 'CES_ALLOW_PRIVATE_WEBHOOKS', '0', false],
  ['bodyLimitBytes', 'CES_BODY_LIMIT_BYTES', '2048', 2048],
  ['rateLimitPerSecond', 'CES_RATE_LIMIT_RPS', '0', 0],
  ['rateLimitBurst', 'CES_RATE_LIMIT_BURST', '5', 5],
  ['requestTimeoutMs', 'CES_REQUEST_TIMEOUT_MS', '1000', 1000],
  ['deliveryConcurrency', 'CES_DELIVERY_CONCURRENCY', '8', 8],
  ['deliveryPerEndpoint', 'CES_DELIVERY_PER_ENDPOINT', '4', 4],
  ['retentionDays', 'CES_RETENTION_DAYS', '0', 0],
  ['retentionDays', 'CES_RETENTION_DAYS', '90', 90],
  ['heapGrowingPercent', 'CES_HEAP_GROWING_PERCENT', '0', 0],
  ['heapGrowingPercent', 'CES_HEAP_GROWING_PERCENT', '50', 50],
  ['shutdownTimeoutMs', 'CES_SHUTDOWN_TIMEOUT_MS', '2500', 2500],
  ['authFailureLimit', 'CES_AUTH_FAILURE_LIMIT', '0', 0],
  ['publicUrl', 'CES_PUBLIC_URL', 'https://promo.example.com.br/', 'https://promo.example.com.br'],
  ['publicUrl', 'CES_PUBLIC_URL', 'https://example.com/ces/', 'https://example.com/ces'],
  ['trustedProxies', 'CES_TRUSTED_PROXIES', '10.0.0.1, 192.168.0.0/16,::1,fd00::/8', ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8']],
  ['metricsToken', 'CES_METRICS_TOKEN', 'scrape-me', 'scrape-me'],
  ['metricsToken', 'CES_METRICS_TOKEN', 'aZ09-._~+/==', 'aZ09-._~+/=='],
  ['metricsToken', 'CES_METRICS_TOKEN', 'off', 'off'],
  ['dashboard', 'CES_DASHBOARD', 'off', false],
  ['dashboard', 'CES_DASHBOARD', 'OFF', false],
  ['dashboard', 'CES_DASHBOARD', '0', false],
  ['dashboard', 'CES_DASHBOARD', 'on', true],
  ['loteriaUrl', 'CES_LOTERIA_URL', 'http://127.0.0.1:8099/api/', 'http://127.0.0.1:8099/api'],
  ['loteriaTimeoutMs', 'CES_LOTERIA_TIMEOUT_MS', '2500', 2500],
  ['checkpoints', 'CES_CHECKPOINTS', 'external', 'external'],
  ['checkpoints', 'CES_CHECKPOINTS', 'External', 'external'],
  ['checkpoints', 'CES_CHECKPOINTS', 'internal', 'internal'],
  ['walAlarmMb', 'CES_WAL_ALARM_MB', '1', 1],
  ['walAlarmMb', 'CES_WAL_ALARM_MB', '2048', 2048],
];
for (const [setting, variable, value, expected] of FROM_ENV) {
  test(`${variable}=${value} sets ${setting} and nothing else`, () => {
    assert.deepEqual(loadConfig({}, { [variable]: value }, false), { ...DEFAULTS, [setting]: expected });
  });
}

// [setting, flag, flag's value, what it gives, the variable it beats]; the variable's value is
// invalid in the second run, to show that a flag means the variable is not even read.
const FLAG_BEATS_ENV: Array<
  [keyof typeof DEFAULTS, keyof ConfigFlags, string | number, unknown, Record<string, string>, Record<string, string>]
> = [
  ['dbPath', 'db', '/tmp/flag.db', '/tmp/flag.db', { CES_DB: '/tmp/env.db' }, { CES_DB: '/tmp/env.db' }],
  ['host', 'host', '::1', '::1', { CES_HOST: '0.0.0.0' }, { CES_HOST: '0.0.0.0' }],
  ['port', 'port', '9090', 9090, { CES_PORT: '8080', PORT: '4000' }, { CES_PORT: 'bogus', PORT: 'bogus' }],
  ['port', 'port', 0, 0, { CES_PORT: '8080' }, { CES_PORT: '-1' }],
  ['tickMs', 'tickMs', '25', 25, { CES_TICK_MS: '50' }, { CES_TICK_MS: '0' }],
  ['logFormat', 'logFormat', 'json', 'json', { CES_LOG_FORMAT: 'pretty' }, { CES_LOG_FORMAT: 'xml' }],
  ['logFormat', 'logFormat', 'pretty', 'pretty', { CES_LOG_FORMAT: 'json' }, { CES_LOG_FORMAT: 'xml' }],
];
for (const [setting, flag, value, expected, env, invalidEnv] of FLAG_BEATS_ENV) {
  test(`--${flag} ${value} wins over ${Object.keys(env).join(' and ')}`, () => {
    assert.deepEqual(loadConfig({ [flag]: value }, env, false), { ...DEFAULTS, [setting]: expected });
    assert.deepEqual(loadConfig({ [flag]: value }, invalidEnv, false), { ...DEFAULTS, [setting]: expected });
  });
}

test('the port: --port, then CES_PORT, then PORT, then 3000', () => {
  const port = (flags: ConfigFlags, env: Record<string, string>) => loadConfig(flags, env, false).port;
  assert.equal(port({}, {}), 3000);
  assert.equal(port({}, { PORT: '4000' }), 4000);
  assert.equal(port({}, { CES_PORT: '5000', PORT: '4000' }), 5000);
  assert.equal(port({}, { CES_PORT: '5000', PORT: 'bogus' }), 5000, 'PORT is not read when CES_PORT is set');
  assert.equal(port({ port: '6000' }, { CES_PORT: '5000', PORT: '4000' }), 6000);
});

test('the log format: --log-format, then CES_LOG_FORMAT, then pretty on a TTY and json otherwise', () => {
  const format = (flags: ConfigFlags, env: Record<string, string>, tty: boolean) => loadConfig(flags, env, tty).logFormat;
  assert.equal(format({}, {}, true), 'pretty');
  assert.equal(format({}, {}, false), 'json');
  assert.equal(format({}, { CES_LOG_FORMAT: 'json' }, true), 'json');
  assert.equal(format({}, { CES_LOG_FORMAT: 'pretty' }, false), 'pretty');
  assert.equal(format({ logFormat: 'json' }, { CES_LOG_FORMAT: 'pretty' }, true), 'json');
});

test('without explicit arguments it reads process.env and whether stdout is a TTY, as `ces serve` calls it', () => {
  const saved = {
    host: process.env.CES_HOST,
    format: process.env.CES_LOG_FORMAT,
    tty: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'),
  };
  try {
    process.env.CES_HOST = '10.1.2.3';
    delete process.env.CES_LOG_FORMAT;
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true, writable: true });
    assert.deepEqual([loadConfig().host, loadConfig().logFormat], ['10.1.2.3', 'pretty']);
    Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
    assert.equal(loadConfig({ host: '127.0.0.2' }).host, '127.0.0.2');
    assert.equal(loadConfig().logFormat, 'json');
  } finally {
    if (saved.host === undefined) delete process.env.CES_HOST;
    else process.env.CES_HOST = saved.host;
    if (saved.format !== undefined) process.env.CES_LOG_FORMAT = saved.format;
    if (saved.tty) Object.defineProperty(process.stdout, 'isTTY', saved.tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  }
});

// [flags, env, the one-line message `ces serve` prints]
const INVALID: Array<[ConfigFlags, Record<string, string>, string]> = [
  [{ port: 'abc' }, {}, '--port must be an integer from 0 to 65535, got "abc"'],
  [{ port: '80.5' }, {}, '--port must be an integer from 0 to 65535, got "80.5"'],
  [{}, { CES_PORT: '65536' }, 'CES_PORT must be an integer from 0 to 65535, got "65536"'],
  [{}, { PORT: '-1' }, 'PORT must be an integer from 0 to 65535, got "-1"'],
  [{ tickMs: '0' }, {}, '--tick-ms must be an integer from 1 to 3600000, got "0"'],
  [{}, { CES_TICK_MS: 'fast' }, 'CES_TICK_MS must be an integer from 1 to 3600000, got "fast"'],
  [{ logFormat: 'xml' }, {}, '--log-format must be pretty or json, got "xml"'],
  [{}, { CES_LOG_FORMAT: 'text' }, 'CES_LOG_FORMAT must be pretty or json, got "text"'],
  [
    {},
    { CES_WEBHOOK_RETRY_SCHEDULE: '5,soon' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "5,soon"',
  ],
  [
    {},
    { CES_WEBHOOK_RETRY_SCHEDULE: '5,-1' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "5,-1"',
  ],
  // A doubled comma is a typo, not a retry after 0 seconds.
  [
    {},
    { CES_WEBHOOK_RETRY_SCHEDULE: '5,,300' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "5,,300"',
  ],
  [
    {},
    { CES_WEBHOOK_RETRY_SCHEDULE: '5,300,' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "5,300,"',
  ],
  // Beyond 30 days: 1e13 seconds made the next attempt's time an invalid date (a throw when a
  // failure was recorded, which lost the outcomes recorded with it).
  [
    {},
    { CES_WEBHOOK_RETRY_SCHEDULE: '5,1e13' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "5,1e13"',
  ],
  [
    {},
    { CES_WEBHOOK_RETRY_SCHEDULE: '2592001' },
    'CES_WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds from 0 to 2592000 (30 days), got "2592001"',
  ],
  [{}, { CES_WEBHOOK_TIMEOUT_MS: '0' }, 'CES_WEBHOOK_TIMEOUT_MS must be an integer from 1 to 600000, got "0"'],
  [{}, { CES_VERIFIER_TIMEOUT_MS: '600001' }, 'CES_VERIFIER_TIMEOUT_MS must be an integer from 1 to 600000, got "600001"'],
  [{}, { CES_BODY_LIMIT_BYTES: '1023' }, 'CES_BODY_LIMIT_BYTES must be an integer from 1024 to 67108864, got "1023"'],
  [{}, { CES_DELIVERY_CONCURRENCY: '0' }, 'CES_DELIVERY_CONCURRENCY must be an integer from 1 to 1000, got "0"'],
  [{}, { CES_DELIVERY_PER_ENDPOINT: '0' }, 'CES_DELIVERY_PER_ENDPOINT must be an integer from 1 to 1000, got "0"'],
  [{}, { CES_RETENTION_DAYS: '-1' }, 'CES_RETENTION_DAYS must be an integer from 0 to 36500, got "-1"'],
  [{}, { CES_HEAP_GROWING_PERCENT: '1001' }, 'CES_HEAP_GROWING_PERCENT must be an integer from 0 to 1000, got "1001"'],
  [
    {},
    { CES_TRUSTED_PROXIES: '10.0.0.1,proxy.local' },
    'CES_TRUSTED_PROXIES must be a comma list of IP addresses and CIDRs: "proxy.local" is not an IP address or CIDR',
  ],
  [{}, { CES_PUBLIC_URL: 'promo.example.com' }, 'CES_PUBLIC_URL must be an http:// or https:// URL, got "promo.example.com"'],
  [
    {},
    { CES_PUBLIC_URL: 'https://u:p@promo.example.com' },
    'CES_PUBLIC_URL must be an http:// or https:// URL without credentials, query or fragment, got "https://u:p@promo.example.com"',
  ],
  [
    {},
    { CES_TRUSTED_PROXIES: '10.0.0.0/33' },
    'CES_TRUSTED_PROXIES must be a comma list of IP addresses and CIDRs: "10.0.0.0/33" has an invalid prefix length',
  ],
  // `Authorization: Bearer <token>` carries a token68 only: with a space, a CR (from a Windows .env
  // file) or an '=' before the end, every scrape would get 401 for ever. The token is never echoed.
  [
    {},
    { CES_METRICS_TOKEN: 'my token' },
    'CES_METRICS_TOKEN must be a bearer token (letters, digits and -._~+/, then only trailing =); character 3 is " "',
  ],
  [
    {},
    { CES_METRICS_TOKEN: 's3cret\r' },
    'CES_METRICS_TOKEN must be a bearer token (letters, digits and -._~+/, then only trailing =); character 7 is "\\r"',
  ],
  [
    {},
    { CES_METRICS_TOKEN: 'a=b' },
    'CES_METRICS_TOKEN must be a bearer token (letters, digits and -._~+/, then only trailing =); character 2 is "="',
  ],
  [
    {},
    { CES_METRICS_TOKEN: 'tokén' },
    'CES_METRICS_TOKEN must be a bearer token (letters, digits and -._~+/, then only trailing =); character 4 is "é"',
  ],
  [{}, { CES_DASHBOARD: 'no' }, 'CES_DASHBOARD must be on or off, got "no"'],
  [{}, { CES_CHECKPOINTS: 'litestream' }, 'CES_CHECKPOINTS must be internal or external, got "litestream"'],
  [{}, { CES_WAL_ALARM_MB: '0' }, 'CES_WAL_ALARM_MB must be an integer from 1 to 1048576, got "0"'],
  [
    {},
    { CES_LOTERIA_URL: 'ftp://caixa' },
    'CES_LOTERIA_URL must be an http:// or https:// URL without credentials, query or fragment, got "ftp://caixa"',
  ],
  [{}, { CES_LOTERIA_TIMEOUT_MS: '0' }, 'CES_LOTERIA_TIMEOUT_MS must be an integer from 1 to 600000, got "0"'],
];
for (const [flags, env, message] of INVALID) {
  test(`refused: ${JSON.stringify({ ...flags, ...env })}`, () => {
    assert.throws(
      () => loadConfig(flags, env, false),
      (e: unknown) => e instanceof ConfigError && e.message === message,
    );
  });
}

// An empty variable (`CES_HOST=` in a unit file or .env) is either not set, as the switches and the
// retry schedule read it, or a bad value that stops `ces serve` (README, Configuration: "Bad values
// stop `ces serve` with a one-line message"). It must never become a setting of its own: port 0 is a random
// port, host '' listens on every interface instead of 127.0.0.1, and db '' is SQLite's anonymous
// temporary database, deleted when the server stops.
test('an empty variable gives its default or is refused, never 0, an empty host or an empty path', () => {
  const EMPTY: Array<[string, keyof typeof DEFAULTS]> = [
    ['CES_DB', 'dbPath'],
    ['CES_HOST', 'host'],
    ['CES_PORT', 'port'],
    ['PORT', 'port'],
    ['CES_TICK_MS', 'tickMs'],
    ['CES_LOG_FORMAT', 'logFormat'],
    ['CES_WEBHOOK_RETRY_SCHEDULE', 'webhookRetrySchedule'],
    ['CES_WEBHOOK_TIMEOUT_MS', 'webhookTimeoutMs'],
    ['CES_RATE_LIMIT_RPS', 'rateLimitPerSecond'],
  ];
  const wrong: string[] = [];
  for (const [variable, setting] of EMPTY) {
    try {
      const got = loadConfig({}, { [variable]: '' }, false)[setting];
      if (JSON.stringify(got) !== JSON.stringify(DEFAULTS[setting])) wrong.push(`${variable}= gives ${setting} ${JSON.stringify(got)}`);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
    }
  }
  assert.deepEqual(wrong, []);
});

test('a flag given empty is refused with its name, whatever the environment says', () => {
  const cases: Array<[ConfigFlags, string]> = [
    [{ db: '' }, '--db must not be empty'],
    [{ host: ' ' }, '--host must not be empty'],
    [{ port: '' }, '--port must not be empty'],
    [{ tickMs: '' }, '--tick-ms must not be empty'],
    [{ logFormat: '' }, '--log-format must not be empty'],
  ];
  for (const [flags, message] of cases) {
    assert.throws(
      () => loadConfig(flags, { CES_DB: '/srv/ces.db', CES_HOST: '0.0.0.0', CES_PORT: '8080' }, false),
      (e: unknown) => e instanceof ConfigError && e.message === message,
      message,
    );
  }
});

test('--host takes IP addresses and host names the listener can bind, and refuses the rest', () => {
  for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.example.internal', '10.0.0.5']) {
    assert.equal(loadConfig({ host }, {}, false).host, host);
  }
  for (const host of ['api_internal', 'fe80::1%eth0', '-leading', 'trailing-', 'a'.repeat(64), 'two words']) {
    assert.throws(
      () => loadConfig({ host }, {}, false),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith('--host must be an IP address or a host name'),
      host,
    );
    assert.throws(() => loadConfig({}, { CES_HOST: host }, false), ConfigError, `CES_HOST=${host}`);
  }
});

// README, Configuration: the table names every variable src/kernel/config.ts reads (`CES_*` and `PORT`),
// each with its default, and nothing else. The variables read are taken from the source (`env.X`
// and every quoted name); a default is checked by giving it to loadConfig, which must then build
// exactly the configuration it builds with nothing set.
test("README's configuration table names every variable src/kernel/config.ts reads, with its default, and nothing else", () => {
  const root = new URL('../../', import.meta.url);
  const source = readFileSync(new URL('src/kernel/config.ts', root), 'utf8');
  const read = new Set([...source.matchAll(/\benv\.(CES_[A-Z0-9_]+)\b|'(CES_[A-Z0-9_]+|PORT)'/g)].map((m) => m[1] ?? m[2]));
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const start = readme.indexOf('| flag | env | default | meaning |');
  assert.ok(start >= 0, 'the configuration table keeps its header');
  const rows = readme
    .slice(start)
    .split('\n\n')[0]
    .split('\n')
    .slice(2)
    .map((row) => row.split(' | '));
  const documented: string[] = [];
  const none = loadConfig({}, {}, false);
  // Variables whose table default is "unset" or "empty": the setting each drives must then be off or empty.
  const EMPTY_DEFAULT: Record<string, keyof typeof DEFAULTS> = {
    CES_ALLOW_PRIVATE_WEBHOOKS: 'allowPrivateWebhooks',
    CES_METRICS_TOKEN: 'metricsToken',
    CES_TRUSTED_PROXIES: 'trustedProxies',
    CES_PUBLIC_URL: 'publicUrl',
  };
  for (const [, envCell, defaultCell] of rows) {
    const variables = [...envCell.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]);
    assert.ok(variables.length > 0, `a row without a variable: ${envCell}`);
    documented.push(...variables);
    const tty = /^`(\w+)` on a TTY, else `(\w+)`$/.exec(defaultCell);
    if (tty) {
      assert.equal(loadConfig({}, {}, true).logFormat, tty[1]);
      assert.equal(loadConfig({}, {}, false).logFormat, tty[2]);
      for (const v of variables) {
        assert.deepEqual(loadConfig({}, { [v]: tty[1] }, true), loadConfig({}, {}, true), `${v}=${tty[1]} on a TTY`);
        assert.deepEqual(loadConfig({}, { [v]: tty[2] }, false), none, `${v}=${tty[2]}`);
      }
      continue;
    }
    if (/^(unset|empty)$/.test(defaultCell)) {
      for (const v of variables) {
        assert.ok(v in EMPTY_DEFAULT, `${v}: which setting does an empty default leave off?`);
        assert.ok(
          [false, '', null].includes(none[EMPTY_DEFAULT[v]] as never) ||
            (Array.isArray(none[EMPTY_DEFAULT[v]]) && (none[EMPTY_DEFAULT[v]] as unknown[]).length === 0),
          `${v} is ${defaultCell} by default`,
        );
      }
      continue;
    }
    const values = [...defaultCell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.ok(values.length === 1 || values.length === variables.length, `one default, or one per variable: ${defaultCell}`);
    variables.forEach((v, i) => {
      const value = values.length === 1 ? values[0] : values[i];
      assert.deepEqual(loadConfig({}, { [v]: value }, false), none, `${v}=${value} is the documented default, so it changes nothing`);
    });
  }
  assert.deepEqual([...documented].sort(), [...read].sort(), 'the table and src/kernel/config.ts name the same variables');
  assert.equal(new Set(documented).size, documented.length, 'each variable has one row');
});
