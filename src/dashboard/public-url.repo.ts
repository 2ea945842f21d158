// SQL of public_urls (schema version 18): the one URL `ces serve` last said it is reached at.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export function upsertPublicUrl(db: Db, url: string, recordedAt: string): void {
  prepare(
    db,
    `INSERT INTO public_urls (id, url, recorded_at) VALUES (1, ?, ?)
    ON CONFLICT (id) DO UPDATE SET url = excluded.url, recorded_at = excluded.recorded_at`,
  ).run(url, recordedAt);
}

export function findPublicUrl(db: Db): string | undefined {
  return prepare<[], string>(db, `SELECT url FROM public_urls WHERE id = 1`).pluck().get();
}
