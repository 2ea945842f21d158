// The key that makes an email unique within a campaign and mode (enrollments.email_key; the email
// itself is stored as sent). Intake and the repository fold with this one function, so the check
// before a write and the unique index always agree. Migration 7 keeps a frozen copy of the fold it
// ran with: changing this one means a new migration that re-keys the stored emails.
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
