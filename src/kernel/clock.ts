// The only source of time. Everything that needs "now" takes a Clock; tests pass a ManualClock and
// advance it instead of sleeping.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Elapsed-time source for measuring latency: real and monotonic even when the service runs on a ManualClock. */
export const monotonicMs = (): number => performance.now();

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: number | string = '2026-11-22T12:00:00.000Z') {
    this.#ms = typeof start === 'number' ? start : Date.parse(start);
  }
  now(): number {
    return this.#ms;
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(at: number | string): void {
    this.#ms = typeof at === 'number' ? at : Date.parse(at);
  }
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

export function nowIso(clock: Clock): string {
  return toIso(clock.now());
}
