// The key that makes an email unique within a campaign and mode (enrollments.email_key; the email
// itself is stored as sent). Intake, the repository and migration 7 fold with this one function,
// so the check before a write, the unique index and keys made by the migration always agree.
//
// SQLite's lower() folds only A-Z: `JOÃO@x.com` and `joão@x.com` were two emails. JavaScript's
// toLowerCase() applies Unicode's case mapping, locale-independent (no Turkish dotless i
// surprises). NFC first: the same address typed on another keyboard or pasted from another
// system may spell `ã` as `a` + a combining tilde; both look alike and are one address (RFC 6532
// asks for NFC in internationalized addresses). For an all-ASCII email the key is exactly what
// lower() gives, which lets migration 7 fold those rows in SQL.
export function foldEmail(email: string): string {
  return email.normalize('NFC').toLowerCase();
}
