// Structs whose constraints are both enforced and visible to the OpenAPI generator. superstruct's
// refinements (size, pattern, min/max) and union members leave no trace on the Struct, so these
// helpers apply the refinement AND record the same numbers in `schema` (unused by scalar structs,
// and carried through optional()/nullable()/refine(), which copy it). One source for both: a
// changed limit changes validation and documentation together. The domain validates with these;
// src/openapi/ reads them to write the document, so this folder imports nothing from either.
import { integer, max, min, pattern, refine, size, string, Struct, union, validate } from 'superstruct';
import { validationFailed } from '../errors.ts';

/** A JSON Schema object (draft 2020-12, OpenAPI 3.1's dialect), as src/openapi/ emits it. */
export type JsonSchema = Record<string, unknown>;

export const DESCRIBED = Symbol.for('ces.openapi.described');

export interface Described {
  json: JsonSchema;
  members?: Array<Struct<any, any>>;
}

function withDescription<T>(struct: Struct<T, unknown>, described: Described): Struct<T, null> {
  return new Struct<T, null>({ ...struct, schema: { [DESCRIBED]: described } as unknown as null });
}

export interface StringRules {
  pattern?: RegExp;
  minLength?: number;
  maxLength?: number;
  format?: string;
  description?: string;
  examples?: string[];
}

export function describedString(rules: StringRules): Struct<string, null> {
  let struct: Struct<string, null> = string();
  const json: JsonSchema = {};
  if (rules.minLength !== undefined || rules.maxLength !== undefined) {
    const lo = rules.minLength ?? 0;
    const hi = rules.maxLength ?? Number.POSITIVE_INFINITY;
    struct = size(struct, lo, hi);
    if (rules.minLength !== undefined) json.minLength = rules.minLength;
    if (rules.maxLength !== undefined) json.maxLength = rules.maxLength;
  }
  if (rules.pattern) {
    // JSON Schema patterns are ECMA-262 without flags: a flagged regex would be documented wrongly.
    if (rules.pattern.flags.replace('u', '') !== '')
      throw new Error(`describedString: pattern /${rules.pattern.source}/ must not use flags`);
    struct = pattern(struct, rules.pattern);
    json.pattern = rules.pattern.source;
  }
  if (rules.format) json.format = rules.format;
  if (rules.description) json.description = rules.description;
  if (rules.examples) json.examples = rules.examples;
  return withDescription(struct, { json });
}

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

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

/** A union whose members the generator can see (superstruct's union() hides them). */
export function describedUnion<A extends Struct<any, any>, B extends Array<Struct<any, any>>>(members: [A, ...B]) {
  return withDescription(union(members), { json: {}, members });
}

/** A string refined by a predicate the generator cannot see, documented by the given schema. */
export function describedRefinedString(name: string, json: JsonSchema, check: (value: string) => boolean | string): Struct<string, null> {
  return withDescription(refine(string(), name, check), { json });
}

/**
 * Validates `value` against `struct` and throws 422 validation_failed listing every violation. Hand
 * parsers that give finer error codes call it after their own checks, so whatever the documented
 * struct forbids is refused even if the hand checks and the struct ever drift apart.
 */
export function enforceStruct(value: unknown, struct: Struct<any, any>): void {
  const [error] = validate(value, struct);
  if (!error) return;
  throw validationFailed(
    error.failures().map((f) => {
      const field = f.path.join('.');
      if (f.value === undefined) return { field, code: 'required', message: `${field} is required` };
      return { field, code: f.refinement ? `invalid_${f.refinement}` : 'invalid_type', message: `${field || 'body'}: ${f.message}` };
    }),
  );
}
