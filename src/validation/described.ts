// Structs whose rules are both enforced and visible to the OpenAPI generator. superstruct's
// refinements and union members leave no trace on the Struct, so these helpers enforce a rule AND
// record it, in JSON Schema words, in `schema` (carried through optional()/nullable()/refine(),
// which copy it). One source for both: a changed pattern, enum or limit changes validation and
// documentation together. A failed rule is reported under its field's error code (the refinement's
// name), so the domain's 422s come from the same definitions. src/openapi/ reads them to write the
// document; this folder imports nothing from the domain or from src/openapi/. Where the record
// rides is struct-description.ts; the compiled verdict compiled-check.ts; errors[] field-errors.ts.
import { isIPv4, isIPv6 } from 'node:net';
import { integer, max, min, string, Struct, union, type Context, type Failure } from 'superstruct';
import type { FieldErrorCode } from '../kernel/errors.ts';
import { withDescription, type JsonSchema } from './struct-description.ts';

// A request struct is built here and a body checked against it with structErrors: the modules that
// define one (src/mechanics/) take both from this file.
export { structErrors } from './field-errors.ts';

type AnyStruct = Struct<any, any>;

function failure(ctx: Context, value: unknown, type: string, code: FieldErrorCode, message: string): Failure {
  return { value, key: ctx.path.at(-1), type, refinement: code, message, branch: ctx.branch, path: ctx.path } as Failure;
}

/** Characters as the API counts them, and as JSON Schema's minLength/maxLength do: code points. */
const codePoints = (value: string): number => {
  let n = 0;
  for (const _ of value) n++;
  return n;
};

/**
 * Formats the server asserts, with the check it runs. `date` and `date-time` are real calendar days
 * (`2026-02-30` is refused, as JSON Schema validators that assert formats refuse it); the syntax
 * of a date-time is the field's pattern. Formats not listed (email, uri, uuid) are annotations: the
 * field's pattern is its rule.
 */
const FORMAT_CHECKS: Record<string, (value: string) => boolean> = {
  date: (v) => isCalendarDate(v),
  'date-time': (v) => isCalendarDate(v.slice(0, 10)) && !Number.isNaN(Date.parse(v)),
  ipv4: (v) => isIPv4(v),
  ipv6: (v) => isIPv6(v),
};

/** True for a YYYY-MM-DD that exists on the calendar (Date.parse alone accepts 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export interface StringRules {
  /** In characters (code points), of the trimmed value when `trim`; longer is `too_long`. */
  maxLength?: number;
  /** As maxLength; shorter is `too_short`. */
  minLength?: number;
  /** ECMA-262, without flags other than `u` (JSON Schema patterns have none). Failing it is `code`. */
  pattern?: RegExp;
  /** The accepted values; one value is documented as `const`. Any other is `code`. */
  enum?: readonly string[];
  /** The enum is compared upper-cased; the document lists the upper-case values the server stores. */
  ignoreCase?: boolean;
  /**
   * Asserted when FORMAT_CHECKS has it (several: any one of them, documented as anyOf, not oneOf: a
   * validator that leaves formats off finds every branch matching, which a oneOf refuses), else
   * documented only.
   */
  format?: string | readonly string[];
  /** The rules apply to the value without its surrounding whitespace, which is what is stored. */
  trim?: boolean;
  /** A value that is empty after trimming: `omitted` counts as not sent (no rule applies); `required` is code `required`. */
  blank?: 'omitted' | 'required';
  /**
   * A further test of the value that no JSON Schema keyword states exactly (the WHATWG URL parser),
   * failing as `code`; documented by `format` and the description.
   */
  check?: (value: string) => boolean;
  /**
   * With `check`: the pattern the document publishes for it, a strict subset of what `check`
   * accepts (asserted by the server only through `check`; test/openapi-agreement.test.ts holds the
   * subset to it). Used where the real rule is a parser's, not a regular language.
   */
  publishedPattern?: RegExp;
  /** The field's code when pattern, enum, format or check fails; invalid_value if not given. */
  code?: FieldErrorCode;
  /** The message of `code`: fixed, or worded from the (trimmed) value. */
  message?: string | ((value: string) => string);
  description?: string;
  examples?: string[];
}

/**
 * A string field and its rules, checked in the order a reader expects (blank, too long, too short,
 * then pattern/enum/format) with one violation reported per field. The schema documents the value
 * as sent: where the server trims, a minimum length or a "not blank" rule is also written as a
 * pattern that allows the surrounding whitespace, so the document is never looser than the check.
 */
export function describedString(rules: StringRules): Struct<string, null> {
  if (rules.pattern && rules.pattern.flags.replace('u', '') !== '')
    throw new Error(`describedString: pattern /${rules.pattern.source}/ must not use flags other than u`);
  const formats = rules.format === undefined ? [] : typeof rules.format === 'string' ? [rules.format] : [...rules.format];
  const asserted = formats.filter((f) => FORMAT_CHECKS[f]);
  const hasValueRule = Boolean(rules.pattern || rules.enum || asserted.length > 0 || rules.check);
  const allowed = rules.enum ? new Set(rules.enum) : null;

  const json: JsonSchema = {};
  if (rules.minLength !== undefined) json.minLength = rules.minLength;
  if (rules.maxLength !== undefined) json.maxLength = rules.maxLength;
  if (rules.publishedPattern && (!rules.check || rules.pattern))
    throw new Error('describedString: publishedPattern documents a check, in place of a pattern');
  let pattern = (rules.pattern ?? rules.publishedPattern)?.source;
  if (rules.trim && rules.minLength !== undefined && rules.minLength > 0) {
    if (pattern) throw new Error('describedString: trim with minLength and a pattern cannot be documented as one pattern');
    // At least minLength characters once the surrounding whitespace is gone.
    const n = rules.minLength;
    pattern = n === 1 ? '\\S' : `^\\s*\\S[\\s\\S]{${n - 2},}\\S\\s*$`;
  } else if (rules.blank === 'required' && !pattern) {
    pattern = '\\S';
  }
  if (pattern) json.pattern = pattern;
  if (rules.enum) {
    if (rules.enum.length === 1) json.const = rules.enum[0];
    else json.enum = [...rules.enum];
  }
  if (formats.length === 1) json.format = formats[0];
  // Each branch a string too: a generator that unions a schema's type with its anyOf branches
  // (openapi-typescript) still reads a string.
  else if (formats.length > 1) json.anyOf = formats.map((f) => ({ type: 'string', format: f }));
  const notes = [rules.description];
  if (rules.trim)
    notes.push(
      rules.blank === 'omitted'
        ? 'Surrounding whitespace is ignored; a blank value counts as omitted.'
        : 'Surrounding whitespace is ignored.',
    );
  if (rules.ignoreCase) notes.push('Case is ignored; stored upper-case.');
  const description = notes.filter(Boolean).join(' ');
  if (description) json.description = description;
  if (rules.examples) json.examples = rules.examples;

  /** The field's one violation, checked in order, or null. */
  const violation = (raw: string, name: string): { code: FieldErrorCode; message: string } | null => {
    const value = rules.trim ? raw.trim() : raw;
    if (value === '') {
      if (rules.blank === 'omitted') return null;
      if (rules.blank === 'required') return { code: 'required', message: `${name} is required` };
    }
    if (rules.maxLength !== undefined && codePoints(value) > rules.maxLength)
      return { code: 'too_long', message: `${name} must be at most ${rules.maxLength} characters` };
    if (rules.minLength !== undefined && codePoints(value) < rules.minLength)
      return { code: 'too_short', message: `${name} must have at least ${rules.minLength} characters` };
    if (!hasValueRule) return null;
    const ok =
      (!rules.pattern || rules.pattern.test(value)) &&
      (!allowed || allowed.has(rules.ignoreCase ? value.toUpperCase() : value)) &&
      (asserted.length === 0 || asserted.some((f) => FORMAT_CHECKS[f](value))) &&
      (!rules.check || rules.check(value));
    if (ok) return null;
    return {
      code: rules.code ?? 'invalid_value',
      message: typeof rules.message === 'function' ? rules.message(value) : (rules.message ?? `${name} is not valid`),
    };
  };
  return withDescription(string(), { json, test: (raw) => violation(raw as string, '') === null }, function* refiner(raw, ctx) {
    const found = violation(raw, String(ctx.path.at(-1) ?? 'value'));
    if (found) yield failure(ctx, raw, 'string', found.code, found.message);
  }) as Struct<string, null>;
}

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A uuid of what the server sends (responses, events): documented, not a request rule. */
export function uuidString(description?: string): Struct<string, null> {
  return describedString({ pattern: UUID_PATTERN, format: 'uuid', description });
}

export function describedInteger(rules: { minimum?: number; maximum?: number; description?: string }): Struct<number, null> {
  let struct: Struct<number, null> = integer();
  const json: JsonSchema = {};
  if (rules.minimum !== undefined) {
    struct = min(struct, rules.minimum);
    json.minimum = rules.minimum;
  }
  if (rules.maximum !== undefined) {
    struct = max(struct, rules.maximum);
    json.maximum = rules.maximum;
  }
  if (rules.description) json.description = rules.description;
  return withDescription(struct, { json });
}

/**
 * A union whose members the generator can see (superstruct's union() hides them), documented as
 * `oneOf`: the members must not overlap. With `discriminator`, every member is an object whose
 * property of that name is a literal, so a generated client narrows the union on it.
 */
export function describedUnion<A extends AnyStruct, B extends AnyStruct[]>(members: [A, ...B], options: { discriminator?: string } = {}) {
  if (options.discriminator) {
    for (const m of members) {
      const property = (m.schema as Record<string, AnyStruct> | null)?.[options.discriminator];
      if (m.type !== 'object' || property?.type !== 'literal')
        throw new Error(`describedUnion: every member needs a literal "${options.discriminator}"`);
    }
  }
  return withDescription(union(members), { json: {}, members, discriminator: options.discriminator });
}

/**
 * An object (type() or object()) where `field` is required when the boolean `flag` is true and must
 * be absent (or null, or blank) when it is false: `required` and `not_allowed` on `field`. Checked
 * once the object's own fields passed; documented as a oneOf on the flag's two values, so a
 * generated client gets one type per case. The false case documents `field` as absent (the
 * object's additionalProperties: false refuses it), not as `{type: 'null'}`: a property that can
 * only be null becomes `field?: undefined` in openapi-fetch's request bodies, so a body typed by
 * the schema would not compile as the body of its own operation. The null and blank values the
 * server forgives are in the description.
 */
export function requiredWhen<T, S>(struct: Struct<T, S>, flag: string, field: string): Struct<T, S> {
  const present = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
  const coupled = (object: Record<string, unknown>): 'required' | 'not_allowed' | null =>
    object[flag] === true && !present(object[field]) ? 'required' : object[flag] === false && present(object[field]) ? 'not_allowed' : null;
  function* refiner(value: T, ctx: Context): Generator<Failure> {
    yield* struct.refiner(value, ctx);
    const object = value as Record<string, unknown>;
    const at = { ...ctx, path: [...ctx.path, field], branch: [...ctx.branch, object[field]] };
    if (object[flag] === true && !present(object[field]))
      yield failure(at, object[field], 'object', 'required', `${field} is required when ${flag} is true`);
    if (object[flag] === false && present(object[field]))
      yield failure(at, object[field], 'object', 'not_allowed', `${field} must be omitted when ${flag} is false`);
  }
  return withDescription(
    struct,
    {
      json: {},
      test: (value) => coupled(value as Record<string, unknown>) === null,
      rewrite: (schema) => {
        const properties = schema.properties as Record<string, JsonSchema>;
        const others = (schema.required as string[] | undefined)?.filter((r) => r !== flag && r !== field) ?? [];
        if (schema.additionalProperties !== false) throw new Error(`requiredWhen: ${field} can be left out only of a closed object`);
        const { [field]: _field, ...withoutField } = properties;
        const when = (on: boolean): JsonSchema => ({
          type: 'object',
          properties: on
            ? { ...properties, [flag]: { ...properties[flag], const: on }, [field]: nonNull(properties[field]) }
            : { ...withoutField, [flag]: { ...properties[flag], const: on } },
          required: on ? [...others, flag, field] : [...others, flag],
          additionalProperties: false,
        });
        const { properties: _p, required: _r, additionalProperties: _a, type: _t, ...rest } = schema;
        return { ...rest, oneOf: [when(true), when(false)] };
      },
    },
    refiner,
  );
}

/** The schema without its null alternative. */
function nonNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    const out: JsonSchema = { ...schema, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(out.enum)) out.enum = (out.enum as unknown[]).filter((v) => v !== null);
    return out;
  }
  if (Array.isArray(schema.anyOf)) {
    const rest = (schema.anyOf as JsonSchema[]).filter((s) => s.type !== 'null');
    return rest.length === 1 ? rest[0] : { ...schema, anyOf: rest };
  }
  return schema;
}

/**
 * Items of an array (objects) whose `key` takes each of `values` at most once: the second and
 * later items with a value get `duplicate` on that key. An item is compared once its own fields
 * passed, with every earlier item holding the same value. Documented on the array as one
 * `contains`/`maxContains: 1` per value.
 */
export function uniqueBy<T, S>(item: Struct<T, S>, key: string, values: readonly string[]): Struct<T, S> {
  const repeats = (value: unknown, list: unknown, index: unknown): boolean => {
    if (!Array.isArray(list) || typeof index !== 'number') return false;
    const own = (value as Record<string, unknown>)[key];
    for (let i = 0; i < index; i++) {
      const other = list[i] as Record<string, unknown> | null;
      if (typeof other === 'object' && other !== null && other[key] === own) return true;
    }
    return false;
  };
  function* refiner(value: T, ctx: Context): Generator<Failure> {
    yield* item.refiner(value, ctx);
    if (repeats(value, ctx.branch.at(-2), ctx.path.at(-1))) {
      const own = (value as Record<string, unknown>)[key];
      const at = { ...ctx, path: [...ctx.path, key], branch: [...ctx.branch, own] };
      yield failure(at, own, 'object', 'duplicate', `${key} ${String(own)} appears more than once`);
    }
  }
  return withDescription(
    item,
    {
      json: {},
      test: (value, list, index) => !repeats(value, list, index),
      inArray: {
        allOf: values.map((v) => ({
          contains: { type: 'object', properties: { [key]: { const: v } }, required: [key] },
          minContains: 0,
          maxContains: 1,
        })),
      },
    },
    refiner,
  );
}
