// SHA-256 of a secret, for storing it (API keys, dashboard tokens: only digests reach the
// database) and for comparing two in constant time whatever their lengths.
import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** True when both are the same text; the time taken says nothing of where they differ. */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(expected));
}
