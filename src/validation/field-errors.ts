// Field errors: every violation of a struct in a value as the 422's errors[], each named by its
// field's path, with the code the rule that failed reports.
import { validate, type Struct } from 'superstruct';
import type { FieldError, FieldErrorCode } from '../kernel/errors.ts';
import { fastCheck } from './compiled-check.ts';

type AnyStruct = Struct<any, any>;

/** Field paths as a body's errors name them: `consent.consents.0.consent_type` or `numbers[0].series`. */
function fieldPath(path: ReadonlyArray<string | number>, style: 'dot' | 'bracket' = 'dot'): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number' && style === 'bracket') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${part}`;
  }
  return out;
}

/**
 * Every violation of `struct` in `value`, as the 422's errors[]: one per field (its first), and
 * none below a field whose own type is wrong (superstruct also walks into an array sent where an
 * object belongs). A missing field is `required`; a rule of this module reports its code; a value
 * outside an enum or literal is `invalid_value`; any other type mismatch `invalid_type`.
 */
export function structErrors(value: unknown, struct: AnyStruct, style: 'dot' | 'bracket' = 'dot'): FieldError[] {
  if (fastCheck(struct)(value)) return [];
  const [error] = validate(value, struct);
  if (!error) return [];
  const errors: FieldError[] = [];
  const typeFailed: string[] = [];
  for (const f of error.failures()) {
    const field = fieldPath(f.path, style);
    if (errors.some((e) => e.field === field)) continue;
    if (typeFailed.some((p) => isBelow(field, p))) continue;
    if (f.value === undefined && !f.refinement) {
      errors.push({ field, code: 'required', message: `${field} is required` });
    } else if (f.refinement) {
      errors.push({ field, code: f.refinement as FieldErrorCode, message: f.message });
    } else {
      typeFailed.push(field);
      const code = f.type === 'enums' || f.type === 'literal' ? 'invalid_value' : 'invalid_type';
      errors.push({ field, code, message: `${field || 'body'}: ${f.message}` });
    }
  }
  return errors;
}

const isBelow = (field: string, parent: string): boolean =>
  parent === '' ? field !== '' : field.startsWith(`${parent}.`) || field.startsWith(`${parent}[`);
