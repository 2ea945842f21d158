// SQL of audit_log: what operators did to data (LGPD requests, restores). Call insertAuditRecord
// inside the transaction of the change it records, so the record and the change commit together.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export interface AuditRecord {
  id: number;
  at: string;
  actor: string;
  action: string;
  subject: string | null;
  /** JSON text. */
  detail: string | null;
}

export function insertAuditRecord(db: Db, row: Omit<AuditRecord, 'id'>): number {
  return Number(prepare(db, `INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (@at, @actor, @action, @subject, @detail)`).run(row).lastInsertRowid);
}

export function listAuditRecordsForSubject(db: Db, subject: string): AuditRecord[] {
  return prepare<[string], AuditRecord>(db, `SELECT id, at, actor, action, subject, detail FROM audit_log WHERE subject = ? ORDER BY id`).all(subject);
}

export function listAuditRecordsByAction(db: Db, action: string): AuditRecord[] {
  return prepare<[string], AuditRecord>(db, `SELECT id, at, actor, action, subject, detail FROM audit_log WHERE action = ? ORDER BY id`).all(action);
}
