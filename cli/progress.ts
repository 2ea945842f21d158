// The export's progress bar: one line on stderr, redrawn in place, with rows done, rate and ETA.
// Only drawn on a TTY (the caller decides); redraws are throttled so that a million rows do not
// mean a million writes to the terminal.

interface ProgressState {
  done: number;
  total: number;
  elapsedMs: number;
}

const WIDTH = 24;

/** The bar's text for one moment, e.g. "[#########---------------]  37%  37,000/100,000  52,113 rows/s  ETA 1s". */
export function renderProgress({ done, total, elapsedMs }: ProgressState): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * WIDTH);
  const rate = elapsedMs > 0 ? (done / elapsedMs) * 1000 : 0;
  const eta = rate > 0 ? formatDuration(((total - done) / rate) * 1000) : '?';
  const pct = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${pct}  ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}  ${Math.round(rate).toLocaleString('en-US')} rows/s  ETA ${eta}`;
}

function formatDuration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

interface ProgressBar {
  update(done: number): void;
  finish(done: number): void;
}

export function createProgressBar(stream: NodeJS.WritableStream, total: number, now: () => number, intervalMs = 100): ProgressBar {
  const started = now();
  let lastDraw = -Infinity;
  const draw = (done: number): void => {
    stream.write(`\r${renderProgress({ done, total, elapsedMs: now() - started })}\x1b[K`);
  };
  return {
    update(done) {
      const t = now();
      if (t - lastDraw < intervalMs) return;
      lastDraw = t;
      draw(done);
    },
    finish(done) {
      draw(done);
      stream.write('\n');
    },
  };
}
