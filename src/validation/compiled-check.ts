// The compiled check: a described struct's verdict as one plain function, built once per struct
// and kept in a WeakMap keyed by the struct, so it goes when the struct does. structErrors
// (field-errors.ts) asks it first and walks superstruct only for a body it refuses.
import { is, type Struct } from 'superstruct';
import { describedOf } from './struct-description.ts';

type AnyStruct = Struct<any, any>;

type Check = (value: unknown, list?: unknown[], index?: number) => boolean;
const checks = new WeakMap<AnyStruct, Check>();

/**
 * `struct`'s verdict on `value` (valid or not) as a plain function: superstruct walks a body
 * through nested generators, about 40 µs for an entry on a quiet machine, and most bodies are
 * valid. Compiled once per struct from what validates it: the types, the literals and enum
 * values, optional/nullable (asked of the struct itself), and each rule's own predicate (`test`,
 * the same function its refiner reports from). A struct it cannot read throws here rather than
 * being passed unchecked; test/unit/described.test.ts compares both verdicts on generated bodies.
 */
export function fastCheck(struct: AnyStruct): Check {
  let check = checks.get(struct);
  if (!check) {
    check = compile(struct);
    checks.set(struct, check);
  }
  return check;
}

function compile(struct: AnyStruct): Check {
  const orUndefined = is(undefined, struct);
  const orNull = struct.type !== 'any' && is(null, struct);
  const test = describedOf(struct)?.test;
  let own: Check;
  switch (struct.type) {
    case 'string':
      own = (v) => typeof v === 'string' && (!test || test(v));
      break;
    case 'boolean':
      own = (v) => typeof v === 'boolean';
      break;
    case 'enums': {
      const values = new Set(Object.values(struct.schema as Record<string, unknown>));
      own = (v) => values.has(v);
      break;
    }
    case 'literal':
      own = (v) => v === struct.schema;
      break;
    case 'type':
    case 'object': {
      const shape = struct.schema as Record<string, AnyStruct>;
      const fields = Object.entries(shape).map(([name, member]) => [name, compile(member)] as const);
      const closed = struct.type === 'object';
      own = (v, list, index) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const object = v as Record<string, unknown>;
        for (const [name, check] of fields) if (!check(object[name])) return false;
        if (closed) for (const name of Object.keys(object)) if (!Object.hasOwn(shape, name)) return false;
        return !test || test(v, list, index);
      };
      break;
    }
    case 'array': {
      const item = struct.schema ? compile(struct.schema as AnyStruct) : () => true;
      own = (v) => Array.isArray(v) && v.every((element, i) => item(element, v, i));
      break;
    }
    case 'union': {
      const members = describedOf(struct)?.members?.map(compile);
      if (!members) throw new Error('fastCheck: a union must be built with describedUnion()');
      own = (v, list, index) => members.some((m) => m(v, list, index));
      break;
    }
    default:
      throw new Error(`fastCheck: no check for superstruct type "${struct.type}"`);
  }
  return (v, list, index) => (v === undefined ? orUndefined : v === null ? orNull : own(v, list, index));
}
