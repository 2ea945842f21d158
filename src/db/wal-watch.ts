// The size of the WAL, watched. With CES_CHECKPOINTS=external ces never checkpoints: Litestream
// does. If Litestream stops (or was never started) nothing does, and the WAL grows with every
// commit (issue 33) until the disk is full. So the -wal file's size is a gauge (ces_wal_bytes), and
// past CES_WAL_ALARM_MB /healthz says `degraded` and one warning is logged, once each time the size
// crosses the alarm upwards (and an info line when it is back under). Far above it, WAL_LAST_RESORT_FACTOR times the alarm, a PASSIVE checkpoint runs as a last
// resort, at most once every WAL_LAST_RESORT_INTERVAL_MS and only while the file is still growing:
// PASSIVE never waits for a reader nor takes the write lock, and never starts the WAL over itself.
//
// The size is the file's, which SQLite never shrinks except by a TRUNCATE checkpoint or when the
// last connection closes: once the WAL has been restarted the file keeps its high-water mark. That
// is why the last resort asks for growth: a WAL that is checkpointed again (Litestream is back, or
// the last resort worked) is rewritten from its start inside the same file, which stops growing.
//
// With CES_CHECKPOINTS=internal ces checkpoints itself and the file's high-water mark (a long
// backup held the WAL once) says nothing about today: the gauge is kept, the alarm is not raised.
import { statSync } from 'node:fs';
import type { Clock } from '../kernel/clock.ts';
import type { Config } from '../kernel/config.ts';
import type { ConsolaInstance } from 'consola';
import type { PassResult } from './checkpointer.ts';

/** The last resort runs from this many times CES_WAL_ALARM_MB: 2 GiB with the default 512. */
export const WAL_LAST_RESORT_FACTOR = 4;
/** At most one last-resort checkpoint a minute. */
export const WAL_LAST_RESORT_INTERVAL_MS = 60_000;

const MIB = 1024 * 1024;

/** What /healthz shows of the WAL. */
export interface WalStatus {
  bytes: number;
  alarm_bytes: number;
  /** True only with CES_CHECKPOINTS=external and the -wal file above CES_WAL_ALARM_MB. */
  over_alarm: boolean;
}

export interface WalWatch {
  /** The -wal file's size now, and whether it is over the alarm; logs a crossing (once each way). */
  read(): WalStatus;
  /**
   * read(), then the last resort if it is due (the server's tick calls this). Returns the
   * checkpoint it started, if any, so that a caller may wait for it (tests, shutdown).
   */
  check(): { status: WalStatus; lastResort: Promise<void> | null };
  /** Resolves once a last-resort checkpoint in progress has ended. */
  settled(): Promise<void>;
}

/** The size of `path`'s -wal file in bytes; 0 when there is none (or an in-memory database). */
export function readWalBytes(path: string): number {
  if (path === ':memory:' || path === '') return 0;
  return statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
}

export function createWalWatch(
  settings: Pick<Config, 'dbPath' | 'checkpoints' | 'walAlarmMb'>,
  clock: Clock,
  log: ConsolaInstance,
  checkpoint: (path: string) => Promise<PassResult>,
): WalWatch {
  const alarmBytes = settings.walAlarmMb * MIB;
  const external = settings.checkpoints === 'external';
  let over = false;
  let lastResortAt: number | null = null;
  let lastResortBytes = 0;
  let running: Promise<void> | null = null;

  const read = (): WalStatus => {
    const bytes = readWalBytes(settings.dbPath);
    const now = external && bytes > alarmBytes;
    if (now !== over) {
      over = now;
      if (over)
        log.warn({
          message: `the WAL is ${mib(bytes)} MiB, over CES_WAL_ALARM_MB (${settings.walAlarmMb}): with CES_CHECKPOINTS=external only Litestream checkpoints it; is Litestream running and replicating this file?`,
          wal_bytes: bytes,
        });
      else log.info({ message: `the WAL is back under CES_WAL_ALARM_MB (${settings.walAlarmMb})`, wal_bytes: bytes });
    }
    return { bytes, alarm_bytes: alarmBytes, over_alarm: over };
  };

  const runLastResort = (bytes: number): Promise<void> => {
    lastResortAt = clock.now();
    lastResortBytes = bytes;
    const done = checkpoint(settings.dbPath).then(
      (result) =>
        log.warn({
          message: `the WAL is ${mib(bytes)} MiB, ${WAL_LAST_RESORT_FACTOR} times CES_WAL_ALARM_MB: ran one PASSIVE checkpoint as a last resort (${result.checkpointed} of ${result.log} frames copied); start Litestream, which should be checkpointing it`,
          wal_bytes: bytes,
          frames: result.log,
          checkpointed: result.checkpointed,
        }),
      (error: unknown) =>
        log.error({ message: 'the last-resort WAL checkpoint failed', error: error instanceof Error ? error.message : String(error) }),
    );
    running = done.finally(() => {
      running = null;
    });
    return running;
  };

  return {
    read,
    check: () => {
      const status = read();
      // Back under the threshold (Litestream truncated it): the next growth past it counts again.
      if (status.bytes < WAL_LAST_RESORT_FACTOR * alarmBytes) lastResortBytes = 0;
      const due =
        external &&
        running === null &&
        status.bytes >= WAL_LAST_RESORT_FACTOR * alarmBytes &&
        status.bytes > lastResortBytes &&
        (lastResortAt === null || clock.now() - lastResortAt >= WAL_LAST_RESORT_INTERVAL_MS);
      return { status, lastResort: due ? runLastResort(status.bytes) : null };
    },
    settled: async () => {
      await running;
    },
  };
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}
