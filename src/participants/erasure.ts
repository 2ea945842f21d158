// An anonymisation's erasure from the file (docs/operations.md, LGPD: "Nor in the file's free
// space"). The anonymisation zeroes the replaced values where they were (secure_delete), but the
// WAL still holds the older images of the pages it changed, and while a reader holds a snapshot
// from before it the database file keeps them too: SQLite can neither copy the later pages back
// over them nor empty the WAL. The erasure is done once a TRUNCATE checkpoint has succeeded after
// the anonymisation committed: every frame copied back, the WAL emptied.
//
// So an anonymisation records its erasure as pending, in its own transaction (a crash before the
// truncation leaves the row for the next try), and then tries the truncation without waiting on
// anyone (src/db/wal-truncate.ts). Done: the rows are marked and participant.erasure_completed is
// audited, and the command says "done". Busy: the command says "waiting_for_readers" and names
// who may hold the snapshot (this process's long reads, the other processes that have the file
// open); the server's tick tries again until it succeeds, and a later anonymisation or closing
// does too, so no restart is needed. /healthz and /metrics show how many wait.
//
// With CES_CHECKPOINTS=external ces checkpoints nothing (Litestream must be the only
// checkpointer): nothing is recorded and the command says "left_to_litestream". Erasures recorded
// before the server was switched to external checkpoints are handed over the same way by its first
// tick (participant.erasure_left_to_litestream), so that none stays pending for ever.
import { cliActor, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { findFileHolders, formatHolders } from '../db/file-users.ts';
import { longReadsOn } from '../db/long-reads.ts';
import { truncateWal } from '../db/wal-truncate.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { insertPendingErasure, listPendingErasures, markErasureDone, type PendingErasureRow } from './participants.repo.ts';

type ErasureState = 'done' | 'waiting_for_readers' | 'left_to_litestream';

/** What an anonymisation (or a closing that carries some out) says of the erasure from the file. */
export interface ErasureReport {
  erasure: ErasureState;
  /** Who may hold the snapshot the erasure waits for; empty unless waiting. */
  erasure_waiting_for: string[];
}

/** Tries of a truncation made on the server's event loop: a few ms at most, the tick tries again. */
export const SERVER_TRUNCATE_RETRIES = 4;

/** In the anonymisation's transaction: its erasure is to be done (nothing with external checkpoints). */
export function recordPendingErasure(ctx: Ctx, row: Omit<PendingErasureRow, 'id'>): void {
  if (ctx.config.checkpoints === 'internal') insertPendingErasure(ctx.db, row);
}

/**
 * After an anonymisation committed: tries the truncation (`retries` further tries a few ms apart
 * while another checkpoint runs; never waiting on a reader) and completes every pending erasure if
 * it succeeds. What to tell the operator.
 */
export function finishErasures(ctx: Ctx, options: { retries?: number } = {}): ErasureReport {
  if (ctx.config.checkpoints === 'external') return { erasure: 'left_to_litestream', erasure_waiting_for: [] };
  if (completePendingErasures(ctx, options.retries) === null)
    return { erasure: 'waiting_for_readers', erasure_waiting_for: readersOf(ctx) };
  return { erasure: 'done', erasure_waiting_for: [] };
}

/** The server's tick: one try when erasures wait (none while a reader still holds its snapshot). */
export function retryPendingErasures(ctx: Ctx): void {
  if (listPendingErasures(ctx.db).length === 0) return;
  if (ctx.config.checkpoints === 'external') {
    handOverToLitestream(ctx);
    return;
  }
  const done = completePendingErasures(ctx, 0);
  if (done !== null && done > 0)
    ctx.log.info({ message: `${done} anonymisation(s) erased from the file: the readers they waited for have ended`, erasures: done });
}

/**
 * Truncates the WAL and, if it worked, marks the erasures pending before it as done, each audited
 * as participant.erasure_completed on behalf of who asked. How many; null when the truncation
 * stayed busy. Only the rows read before the truncation are marked: one committed after it is
 * not covered by it.
 */
function completePendingErasures(ctx: Ctx, retries: number | undefined): number | null {
  const pending = listPendingErasures(ctx.db);
  if (!truncateWal(ctx.db, { retries })) return null;
  if (pending.length === 0) return 0;
  closeErasures(ctx, pending, 'participant.erasure_completed');
  // The record just written is the WAL's only content: emptied too when nothing is in the way, so
  // that the file is left as a finished erasure is expected to leave it. Busy is no matter here.
  truncateWal(ctx.db, { retries: 0 });
  return pending.length;
}

/**
 * Pending erasures of a server since switched to CES_CHECKPOINTS=external: ces may not truncate
 * the WAL any more, Litestream's checkpoints are what erase them. Each is closed and audited as
 * participant.erasure_left_to_litestream, as an anonymisation made now would be reported.
 */
function handOverToLitestream(ctx: Ctx): void {
  const pending = listPendingErasures(ctx.db);
  closeErasures(ctx, pending, 'participant.erasure_left_to_litestream');
  ctx.log.info({
    message: `${pending.length} anonymisation(s) waiting for their erasure handed to Litestream: with CES_CHECKPOINTS=external its checkpoints erase them`,
    erasures: pending.length,
  });
}

/** In one transaction: the rows no longer pending, each audited as `action` on behalf of who asked. */
function closeErasures(
  ctx: Ctx,
  rows: readonly PendingErasureRow[],
  action: 'participant.erasure_completed' | 'participant.erasure_left_to_litestream',
): void {
  ctx.db
    .transaction(() => {
      const at = nowIso(ctx.clock);
      for (const row of rows) {
        markErasureDone(ctx.db, row.id, at);
        recordAudit(ctx, {
          actor: actorFromName(row.requested_by),
          action,
          campaignId: row.campaign_id,
          details: {
            enrollment_id: row.enrollment_id,
            mode: row.livemode === 1 ? 'live' : 'test',
            anonymized_at: row.anonymized_at,
            anonymized_audit_id: row.anonymized_audit,
          },
        });
      }
    })
    .immediate();
}

/**
 * Who may hold the snapshot: this process's long reads (an export download, a draw freeze) and the
 * other processes that have the file open, as /proc names them (a `sqlite3` shell, Litestream, a
 * `ces serve` or another command). /proc cannot tell which of those holds a read open.
 */
function readersOf(ctx: Ctx): string[] {
  const named = [...longReadsOn(ctx.config.dbPath)];
  const holders = findFileHolders(ctx.config.dbPath, process.pid);
  for (const holder of holders) named.push(formatHolders([holder]));
  return named.length > 0 ? named : ['a reader not named: a connection of this process, or a process /proc does not show'];
}

/** The actor a pending erasure's requested_by names (an operator: only operators anonymise). */
function actorFromName(name: string): Actor {
  if (name.startsWith('dashboard:')) return { kind: 'dashboard', name: name.slice('dashboard:'.length) };
  return cliActor(name.startsWith('cli:') ? name.slice('cli:'.length) : name);
}
