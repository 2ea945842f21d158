// How the pipeline shares the one event loop with HTTP requests.

/**
 * Rest between job chunks while HTTP requests are in progress: intake comes first, and a backlog
 * drains in the gaps (each chunk is a few ms of synchronous work, then this rest).
 */
export const BUSY_PAUSE_MS = 4;

/**
 * While HTTP requests are being served the pipeline gets at most this share of the event loop: after
 * a synchronous step of t ms (a job chunk, a delivery flush) it rests t × (1 − share) / share ms,
 * at least BUSY_PAUSE_MS. Intake keeps three quarters of the process under any backlog (its p99
 * then: BENCHMARKS.md, section Intake, pipeline, memory, `p99_during_drain_ms` ÷ idle), and the
 * backlog still drains. With no
 * request in progress the pipeline runs flat out (one event-loop turn between steps).
 */
export const BUSY_PIPELINE_SHARE = 1 / 4;

export function pipelineRestMs(stepMs: number, busy: boolean): number {
  if (!busy) return 0;
  return Math.max(BUSY_PAUSE_MS, (stepMs * (1 - BUSY_PIPELINE_SHARE)) / BUSY_PIPELINE_SHARE);
}
