// Preloaded into a command the benchmark times (node --import): when the process exits, writes its
// peak resident set to the file named by BENCH_PEAK_RSS_FILE, as {"max_rss_kb": N}. Read from
// /proc/self/status (VmHWM, the high-water mark of this program's memory), not getrusage's
// maxRSS: Linux carries that across fork and exec, so a child reports at least the RSS its parent
// (the benchmark, hundreds of MB after a seed) had when it forked.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file)
  process.on('exit', () => {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
    writeFileSync(file, JSON.stringify({ max_rss_kb: kb }));
  });
