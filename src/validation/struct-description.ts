// What a described struct carries: the rule it enforces, recorded in JSON Schema words under a
// symbol in superstruct's `schema` (which optional()/nullable()/refine() copy), for the OpenAPI
// generator (src/openapi/json-schema.ts) and the compiled check (compiled-check.ts) to read.
// described.ts writes it; this file is the one place that knows where it rides.
import type { Context, Failure, Struct } from 'superstruct';

/** A JSON Schema object (draft 2020-12, OpenAPI 3.1's dialect), as src/openapi/ emits it. */
export type JsonSchema = Record<string, unknown>;

const DESCRIBED = Symbol.for('ces.openapi.described');

type AnyStruct = Struct<any, any>;

interface Described {
  /** Keywords added to the schema converted from the struct's type. */
  json: JsonSchema;
  /** A union's members, in order. */
  members?: AnyStruct[];
  /** A union whose members are objects told apart by this property's literal value. */
  discriminator?: string;
  /** Keywords for the array that holds this struct as its items (rules about siblings). */
  inArray?: JsonSchema;
  /** Rewrites the converted schema (rules across an object's fields). */
  rewrite?: (schema: JsonSchema) => JsonSchema;
  /**
   * The struct's own rule (its refiner's) as a predicate, for fastCheck: the value (of the right
   * type), and for an array's items the list and the index.
   */
  test?: (value: unknown, list?: unknown[], index?: number) => boolean;
}

/**
 * A copy of `struct` with another schema and/or refiner. Not `new Struct({...struct})`: the
 * constructor wraps the validator and refiner it is given in another generator, and superstruct's
 * cost is those layers (a request body has dozens of fields). A refiner given here yields complete
 * Failures, so it needs no wrapping either.
 */
function derive<T, S>(
  struct: Struct<T, S>,
  changes: { schema?: unknown; refiner?: (value: T, ctx: Context) => Iterable<Failure> },
): Struct<T, S> {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(struct) as object) as Struct<T, S>, struct);
  if ('schema' in changes) copy.schema = changes.schema as S;
  if (changes.refiner) copy.refiner = changes.refiner;
  return copy;
}

/**
 * A copy of `struct` that carries `described`. Object and type structs keep their property map as
 * `schema` (the converter and unknown-fields.ts read it), so the description rides on a copy of
 * that map under a symbol key, which Object.keys and Object.entries do not list.
 */
export function withDescription<T, S>(
  struct: Struct<T, S>,
  described: Described,
  refiner?: (value: T, ctx: Context) => Iterable<Failure>,
): Struct<T, S> {
  const isShape = struct.type === 'object' || struct.type === 'type';
  if (describedOf(struct)) throw new Error('a struct carries one description: compose the rules in one helper');
  const schema = isShape ? { ...(struct.schema as object), [DESCRIBED]: described } : { [DESCRIBED]: described };
  return derive(struct, { schema, refiner });
}

/** The description a struct carries, if it was built here. */
export function describedOf(struct: AnyStruct): Described | undefined {
  const schema = struct.schema as { [DESCRIBED]?: Described } | null | undefined;
  return schema && typeof schema === 'object' ? schema[DESCRIBED] : undefined;
}
