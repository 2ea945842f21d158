// Hosts only this machine reaches: where `ces serve` may listen without the plain-HTTP warning, and
// where `ces webhook listen` may forward over plain http.

/** Hosts that only this machine reaches (listhen's `public` is false for them). */
export const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** 127.0.0.0/8, ::1 and localhost: nothing outside this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
