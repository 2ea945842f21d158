// Personal data as the dashboard shows it until the operator asks to see it (and the audit log
// records that view): enough to tell participants apart, not enough to identify one.
// CPF 529.982.247-25 → ***.982.247-**; CNPJ 12.ABC.345/01DE-35 → **.ABC.345/****-**;
// Maria da Silva → M*** d*** S***; maria@example.com → m***@e***.com; 5511987654321 → +55 *******4321.
// Shared by the dashboard and the apuração record (src/draws/report.ts). What is kept of a value (an
// initial) is shown with its control characters escaped (src/kernel/control-characters.ts): a name
// starting with U+202E or ESC would otherwise pass it through, reversing or rewriting what follows.
import { escapeControlCharacters } from '../kernel/control-characters.ts';

/** The first character of `text` (a code point, so an accented letter or an emoji stays whole), shown. */
const initial = (text: string): string => escapeControlCharacters([...text][0] ?? '');

export function formatDocument(type: string, number: string): string {
  if (type === 'cpf' && number.length === 11) return `${number.slice(0, 3)}.${number.slice(3, 6)}.${number.slice(6, 9)}-${number.slice(9)}`;
  if (type === 'cnpj' && number.length === 14)
    return `${number.slice(0, 2)}.${number.slice(2, 5)}.${number.slice(5, 8)}/${number.slice(8, 12)}-${number.slice(12)}`;
  return number;
}

export function maskDocument(type: string, number: string): string {
  if (type === 'cpf' && number.length === 11) return `***.${number.slice(3, 6)}.${number.slice(6, 9)}-**`;
  if (type === 'cnpj' && number.length === 14) return `**.${number.slice(2, 5)}.${number.slice(5, 8)}/****-**`;
  return '***';
}

export function maskName(name: string | null): string | null {
  if (name === null) return null;
  return name
    .trim()
    .split(/\s+/)
    .map((word) => `${initial(word)}***`)
    .join(' ');
}

export function maskEmail(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${initial(email)}***@${initial(domain)}***${escapeControlCharacters(tld)}`;
}

export function maskPhone(phone: string | null): string | null {
  if (phone === null) return null;
  if (phone.length < 8) return '***';
  return `+${phone.slice(0, 2)} ${'*'.repeat(phone.length - 6)}${phone.slice(-4)}`;
}

/** Any other personal field (birthdate, address lines, zipcode): hidden entirely. */
export function maskOther(value: string | null): string | null {
  return value === null ? null : '***';
}
