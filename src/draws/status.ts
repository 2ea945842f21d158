// A draw's life in one place: the statuses it passes through, the one step forward from each, and
// what each action asks of the status, with the refusals (and their codes) the CLI and the dashboard
// show. created -> frozen (the freeze) -> drawn (the run) -> published (final); before publication,
// any of the first three may be voided instead (final too: the draw stays listed, so the record of
// a later draw on the same extraction names it, and nothing more happens to it). Recording results
// and disqualifying a winner change no status: results go in before the run, disqualifications
// between the run and the publication. The guarded UPDATEs of draws.repo.ts repeat these steps in
// SQL, so that a step raced by another process changes nothing.
import { AppError } from '../kernel/errors.ts';

export const DRAW_STATUSES = ['created', 'frozen', 'drawn', 'published', 'voided'] as const;
export type DrawStatus = (typeof DRAW_STATUSES)[number];

/** The one step forward from each status; a published draw is final. */
const NEXT: Readonly<Record<DrawStatus, DrawStatus | null>> = {
  created: 'frozen',
  frozen: 'drawn',
  drawn: 'published',
  published: null,
  voided: null,
};

export function canTransition(from: DrawStatus, to: DrawStatus): boolean {
  return to === 'voided' ? canVoid(from) : NEXT[from] === to;
}

/** Frozen or later, and not voided: the eligible numbers are fixed and may be read. */
export function isFrozen(status: DrawStatus): boolean {
  return status === 'frozen' || status === 'drawn' || status === 'published';
}

export function isVoided(status: DrawStatus): boolean {
  return status === 'voided';
}

/** Before publication a draw may be voided; a published draw is final. */
export function canVoid(status: DrawStatus): boolean {
  return status === 'created' || status === 'frozen' || status === 'drawn';
}

/** Only a draw that is created (and not voided) is frozen. */
export function canFreeze(status: DrawStatus): boolean {
  return status === 'created';
}

/** Run, published or not: the winners were picked. */
export function hasRun(status: DrawStatus): boolean {
  return status === 'drawn' || status === 'published';
}

export function isPublished(status: DrawStatus): boolean {
  return status === 'published';
}

/** Results are recorded (or corrected) until the run; a draw not frozen yet is frozen first. */
export function canRecordResults(status: DrawStatus): boolean {
  return status === 'created' || status === 'frozen';
}

/** A draw runs once; one not frozen yet is frozen first. */
export function canRun(status: DrawStatus): boolean {
  return status === 'created' || status === 'frozen';
}

/** Winners are disqualified between the run and the publication. */
export function canDisqualify(status: DrawStatus): boolean {
  return status === 'drawn';
}

export function canPublish(status: DrawStatus): boolean {
  return canTransition(status, 'published');
}

const published = (message: string): AppError => new AppError(409, 'draw_published', message);

const voided = (): AppError => new AppError(409, 'draw_voided', 'The draw is voided: nothing more happens to it.');

const alreadyRun = (): AppError =>
  new AppError(409, 'draw_already_run', 'The draw has run: its results can no longer change. Create a new draw to use another extraction.');

/**
 * Refuses a step the draw cannot take from `from`. The freeze is never refused by status: freezing a
 * frozen draw gives it as it is (isFrozen), as running a draw that has run gives its outcome.
 */
export function assertTransition(from: DrawStatus, to: 'drawn' | 'published'): void {
  if (canTransition(from, to)) return;
  if (isVoided(from)) throw voided();
  if (to === 'published') {
    if (isPublished(from)) throw published('The draw is already published.');
    throw new AppError(409, 'draw_not_run', 'Run the draw before publishing it');
  }
  if (isPublished(from)) throw published('The draw is published: its winners are final.');
  if (hasRun(from)) throw new AppError(409, 'draw_already_run', 'The draw has run already.');
  throw notFrozen();
}

const notFrozen = (): AppError => new AppError(409, 'draw_not_frozen', 'The draw is not frozen yet: freeze it first');

/** 409 draw_already_run once the draw has run: its results are final. */
export function assertResultsOpen(status: DrawStatus): void {
  if (isVoided(status)) throw voided();
  if (!canRecordResults(status)) throw alreadyRun();
}

/** 409 draw_not_frozen before the freeze: there is no frozen list yet (draw_voided for a voided draw). */
export function assertFrozen(status: DrawStatus): void {
  if (isVoided(status)) throw voided();
  if (!isFrozen(status)) throw notFrozen();
}

/** 409 draw_voided for a voided draw: nothing is frozen, recorded or run for it any more. */
export function assertNotVoided(status: DrawStatus): void {
  if (isVoided(status)) throw voided();
}

/** 409 unless the draw may be voided: draw_published once published, draw_voided when it is already. */
export function assertVoidable(status: DrawStatus): void {
  if (canVoid(status)) return;
  if (isVoided(status)) throw new AppError(409, 'draw_voided', 'The draw is voided already.');
  throw published('The draw is published: its winners are final, and it can no longer be voided.');
}

/** 409 draw_not_run before the run: there is no outcome yet. */
export function assertRun(status: DrawStatus): void {
  if (isVoided(status)) throw voided();
  if (!hasRun(status)) throw new AppError(409, 'draw_not_run', 'The draw has not run yet: run it first');
}

/** 409 unless the draw has run and is not published: draw_published after, draw_not_run before. */
export function assertDisqualifiable(status: DrawStatus): void {
  if (canDisqualify(status)) return;
  if (isVoided(status)) throw voided();
  if (isPublished(status)) throw published('The draw is published: its winners are final.');
  throw new AppError(409, 'draw_not_run', 'The draw has not run yet: there is no winner to disqualify.');
}
