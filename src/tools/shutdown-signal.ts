// The controller a pool of outgoing calls (webhook deliveries, fiscal verifier calls) aborts at
// shutdown. Each call in flight listens on its one signal, so hundreds may listen at once (up to
// CES_DELIVERY_CONCURRENCY); Node 20 warns past 10 listeners (MaxListenersExceededWarning, seen when
// an endpoint answered in 3 s). Every call removes its listener when it ends, so the count is
// bounded by the calls in flight, and the warning is off for this signal only. Node 24 sets no
// limit on an AbortSignal by default; saying so here keeps Node 20 quiet too.
import { setMaxListeners } from 'node:events';

export function createShutdownController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
