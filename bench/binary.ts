// The binary phase (`npm run bench -- --only binary`): the executable (npm run build:binary) beside
// the bundle run by the same Node release (`node dist/ces.mjs`), in one run so the ratios hold on a
// machine whose speed drifts. Sizes of the executable (the runtime plain and stripped, the whole
// file, gzipped); CPU and wall time of `--version` and of `check` on a small database, alternating
// A B A B through /usr/bin/time; the resident memory of an idle `ces serve`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { median, round } from './stats.ts';

interface BinaryDeps {
  work: string;
  progress: (line: string) => void;
  runs: number;
}

interface Usage {
  cpuS: number;
  wallS: number;
  maxRssKb: number;
}

/** One run of a command under /usr/bin/time: user + system CPU, wall, peak RSS. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Usage {
  const r = spawnSync('/usr/bin/time', ['-f', '@@ %U %S %e %M', ...argv], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  const m = /@@ ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (!m) throw new Error(`no figures from /usr/bin/time: ${r.stderr}`);
  return { cpuS: Number(m[1]) + Number(m[2]), wallS: Number(m[3]), maxRssKb: Number(m[4]) };
}

/** A and B in turn, `runs` times each after one warm-up of each; medians and the median of A/B ratios. */
function paired(a: string[], b: string[], runs: number, env: NodeJS.ProcessEnv): Record<string, number> {
  timed(a, env);
  timed(b, env);
  const as: Usage[] = [];
  const bs: Usage[] = [];
  for (let i = 0; i < runs; i++) {
    as.push(timed(a, env));
    bs.push(timed(b, env));
  }
  const ratio = (f: (u: Usage) => number): number => median(as.map((u, i) => f(u) / Math.max(0.001, f(bs[i]!))));
  return {
    binary_cpu_s: round(median(as.map((u) => u.cpuS)), 3),
    bundle_cpu_s: round(median(bs.map((u) => u.cpuS)), 3),
    cpu_ratio: round(
      ratio((u) => u.cpuS),
      3,
    ),
    binary_wall_s: round(median(as.map((u) => u.wallS)), 3),
    bundle_wall_s: round(median(bs.map((u) => u.wallS)), 3),
    wall_ratio: round(
      ratio((u) => u.wallS),
      3,
    ),
    binary_max_rss_mb: round(median(as.map((u) => u.maxRssKb)) / 1024, 1),
    bundle_max_rss_mb: round(median(bs.map((u) => u.maxRssKb)) / 1024, 1),
  };
}

/** RSS of `ces serve` after it has idled with its tick running for a few seconds. */
async function idleRssMb(argv: string[], env: NodeJS.ProcessEnv, dbPath: string): Promise<number> {
  const child = spawn(argv[0]!, [...argv.slice(1), 'serve', '--db', dbPath, '--port', '0', '--log-format', 'json'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
    });
    await sleep(5000);
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024, 1);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function measureBinary(deps: BinaryDeps, out: Record<string, unknown>): Promise<void> {
  const root = process.cwd();
  const { buildBinary } = (await import(join(root, 'scripts/build-binary.mjs') as string)) as {
    buildBinary(o: { outDir: string }): Promise<{ executable: string; archive: string; node: string }>;
  };
  const { nodeRuntime } = (await import(join(root, 'scripts/node-runtime.mjs') as string)) as { nodeRuntime(): string };
  const { buildBundle } = (await import(join(root, 'build.mjs') as string)) as { buildBundle(o: { outfile: string }): Promise<unknown> };
  const dir = join(deps.work, 'binary');
  mkdirSync(dir, { recursive: true });
  deps.progress('building the executable and the bundle');
  const built = await buildBinary({ outDir: join(dir, 'dist') });
  // The bundle beside the repository's node_modules, so that it finds better-sqlite3 there.
  const bundle = join(root, 'dist', 'ces.mjs');
  await buildBundle({ outfile: bundle });
  // The bundle runs on the executable's own Node release when the installed better-sqlite3 was
  // compiled for it (npm ci on that release, as CI does); otherwise on this node, and the output says so.
  const runtimeNode = join(nodeRuntime(), 'bin', 'node');
  const sameRelease = process.version === `v${built.node}`;
  const node = sameRelease ? process.execPath : runtimeNode;
  const bundleNode = spawnSync(node, ['-e', "require('better-sqlite3')"], { cwd: root }).status === 0 ? node : process.execPath;

  const stripped = join(dir, 'node-stripped');
  execFileSync('strip', ['--strip-all', '-o', stripped, runtimeNode]);
  out.binary_size = {
    node_runtime_mb: round(statSync(runtimeNode).size / 2 ** 20, 1),
    node_runtime_stripped_mb: round(statSync(stripped).size / 2 ** 20, 1),
    executable_mb: round(statSync(built.executable).size / 2 ** 20, 1),
    gzipped_mb: round(statSync(built.archive).size / 2 ** 20, 1),
  };
  const env = { ...process.env, CES_NATIVE_DIR: join(dir, 'native') };
  const db = join(dir, 'bench.db');
  execFileSync(built.executable, ['demo', '--db', db], { env, stdio: 'ignore' });
  const binary = [built.executable];
  const bundled = [bundleNode, bundle];
  out.binary_node = { executable: built.node, bundle: spawnSync(bundleNode, ['--version'], { encoding: 'utf8' }).stdout.trim() };
  deps.progress(`--version, ${deps.runs} pairs`);
  out.binary_version = paired([...binary, '--version'], [...bundled, '--version'], deps.runs, env);
  deps.progress(`check, ${deps.runs} pairs`);
  out.binary_check = paired([...binary, 'check', '--db', db], [...bundled, 'check', '--db', db], deps.runs, env);
  deps.progress('idle serve');
  out.binary_serve_idle_rss_mb = { binary: await idleRssMb(binary, env, db), bundle: await idleRssMb(bundled, env, db) };
}
