// SQL of the enrollments table.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { DocumentType } from '../input/documents.ts';
import { foldEmail } from './email-key.ts';

export interface EnrollmentRow {
  id: string;
  campaign_id: string;
  livemode: number;
  document_type: DocumentType;
  document_number: string;
  full_name: string | null;
  email: string | null;
  phone: string | null;
  birthdate: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  neighborhood: string | null;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
  anonymized_at: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, campaign_id, livemode, document_type, document_number, full_name, email, phone, birthdate, address_line_1,
  address_line_2, neighborhood, city, state, zipcode, country, anonymized_at, created_at, updated_at`;

export function findEnrollmentByDocument(db: Db, campaignId: string, livemode: number, documentNumber: string): EnrollmentRow | undefined {
  return prepare<[string, number, string], EnrollmentRow>(
    db,
    `SELECT ${COLUMNS} FROM enrollments
    WHERE campaign_id = ? AND livemode = ? AND document_number = ?`,
  ).get(campaignId, livemode, documentNumber);
}

export function findEnrollmentById(db: Db, id: string): EnrollmentRow | undefined {
  return prepare<[string], EnrollmentRow>(db, `SELECT ${COLUMNS} FROM enrollments WHERE id = ?`).get(id);
}

/** Compared on email_key (./email-key.ts), the column the unique index enrollments_email_key covers. */
export function isEmailTaken(db: Db, campaignId: string, livemode: number, email: string, exceptId: string | null): boolean {
  return (
    prepare<[string, number, string, string | null], { id: string }>(
      db,
      `SELECT id FROM enrollments
    WHERE campaign_id = ? AND livemode = ? AND email_key = ? AND id IS NOT ? LIMIT 1`,
    ).get(campaignId, livemode, foldEmail(email), exceptId) !== undefined
  );
}

export function isPhoneTaken(db: Db, campaignId: string, livemode: number, phone: string, exceptId: string | null): boolean {
  return (
    prepare<[string, number, string, string | null], { id: string }>(
      db,
      `SELECT id FROM enrollments
    WHERE campaign_id = ? AND livemode = ? AND phone = ? AND id IS NOT ? LIMIT 1`,
    ).get(campaignId, livemode, phone, exceptId) !== undefined
  );
}

// email_key is written with the email it is folded from, by these two functions only; it is not
// part of EnrollmentRow, since nothing reads it but the uniqueness check and its index.
export function insertEnrollment(db: Db, row: Omit<EnrollmentRow, 'anonymized_at'>): void {
  prepare(
    db,
    `INSERT INTO enrollments (id, campaign_id, livemode, document_type, document_number, full_name, email, email_key, phone,
    birthdate, address_line_1, address_line_2, neighborhood, city, state, zipcode, country, created_at, updated_at)
    VALUES (@id, @campaign_id, @livemode, @document_type, @document_number, @full_name, @email, @email_key, @phone,
    @birthdate, @address_line_1, @address_line_2, @neighborhood, @city, @state, @zipcode, @country, @created_at, @updated_at)`,
  ).run({ ...row, email_key: row.email === null ? null : foldEmail(row.email) });
}

/**
 * Fills profile fields; the coalesce on each column keeps a stored value even if the caller raced.
 * The key changes only together with the email (the right-hand sides read the row before the update).
 */
export function updateEnrollmentProfile(db: Db, row: EnrollmentRow): void {
  prepare(
    db,
    `UPDATE enrollments SET full_name = coalesce(full_name, @full_name), email = coalesce(email, @email),
    email_key = iif(email IS NULL, @email_key, email_key),
    phone = coalesce(phone, @phone), birthdate = coalesce(birthdate, @birthdate),
    address_line_1 = coalesce(address_line_1, @address_line_1), address_line_2 = coalesce(address_line_2, @address_line_2),
    neighborhood = coalesce(neighborhood, @neighborhood), city = coalesce(city, @city), state = coalesce(state, @state),
    zipcode = coalesce(zipcode, @zipcode), country = coalesce(country, @country), updated_at = @updated_at
    WHERE id = @id`,
  ).run({ ...row, email_key: row.email === null ? null : foldEmail(row.email) });
}
