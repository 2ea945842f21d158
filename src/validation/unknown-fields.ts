// Fields a request body sends that the API does not define (docs/api.md#errors: unknown
// fields are refused): `enrollment.emial` is a 422, not an entry stored without its e-mail. Read
// from the same superstruct structs that validate the body and generate the OpenAPI document, so
// the fields the API knows are listed once.
import type { Struct } from 'superstruct';
import type { FieldError } from '../kernel/errors.ts';

type AnyStruct = Struct<any, any>;

/**
 * Every field of `value` that `struct` does not define, at any depth, as `unknown_field` errors.
 * Array items are named `list.0.field` (entries) or `list[0].field` (`bracket`), as the body's
 * other errors name them.
 */
export function unknownFieldErrors(value: unknown, struct: AnyStruct, style: 'dot' | 'bracket' = 'dot'): FieldError[] {
  const errors: FieldError[] = [];
  walk(value, struct, '', style, errors);
  return errors;
}

function walk(value: unknown, struct: AnyStruct, path: string, style: 'dot' | 'bracket', errors: FieldError[]): void {
  if (struct.type === 'type' || struct.type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const schema = struct.schema as Record<string, AnyStruct>;
    for (const key of Object.keys(value)) {
      const field = path === '' ? key : `${path}.${key}`;
      if (!Object.hasOwn(schema, key)) errors.push({ field, code: 'unknown_field', message: `${field} is not a field of this body` });
      else walk((value as Record<string, unknown>)[key], schema[key]!, field, style, errors);
    }
  } else if (struct.type === 'array' && Array.isArray(value) && struct.schema) {
    value.forEach((item, i) => walk(item, struct.schema as AnyStruct, style === 'dot' ? `${path}.${i}` : `${path}[${i}]`, style, errors));
  }
}
