// What GET /healthz shows of the full check of a database file `ces serve` had not opened before
// (src/db/integrity-child.ts runs it). A file of its own: the HTTP app reads it without reaching
// the check's code and its errors.

export interface IntegrityStatus {
  /** not_needed: the file passed before (a restart); failed: GET /healthz answers unavailable. */
  state: 'not_needed' | 'checking' | 'ok' | 'failed';
  /** Why it failed (or stopped), in the operator's terms; null otherwise. */
  reason: string | null;
}
