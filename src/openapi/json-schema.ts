// superstruct Struct -> JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). Request bodies in
// the OpenAPI document are produced by this walk over the very structs that validate requests, so
// the document cannot drift from the validation.
//
// What superstruct makes visible: `struct.type` ('object', 'type', 'string', 'enums', 'array', ...)
// and `struct.schema` (properties, enum values, the element struct, a literal). What it hides:
// optional() and nullable() keep the inner type and only wrap the validator, so they are detected
// by asking the struct itself (`is(undefined, s)`, `is(null, s)`); rules (patterns, lengths,
// formats, the coupling of two fields) and union members leave no trace, so structs built with
// src/validation/described.ts carry them in `schema` (src/validation/struct-description.ts).
import { is, type Struct } from 'superstruct';
import { describedOf, type JsonSchema } from '../validation/struct-description.ts';

export type { JsonSchema };

type AnyStruct = Struct<any, any>;

/**
 * Structs that are components of the document: met inside another struct, they are written as a
 * `$ref` to `#/components/schemas/<name>` (a discriminator's mapping needs one, and a generated
 * client gets one named type instead of a copy per use).
 */
type ComponentNames = ReadonlyMap<AnyStruct, string>;

export function structToJsonSchema(struct: AnyStruct, components: ComponentNames = new Map(), root = true): JsonSchema {
  const name = components.get(struct);
  if (name && !root) return refTo(name);
  const schema = convert(struct, components);
  const acceptsAnything = struct.type === 'any' || struct.type === 'unknown';
  return is(null, struct) && !acceptsAnything ? allowNull(schema) : schema;
}

const refTo = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

function convert(struct: AnyStruct, components: ComponentNames): JsonSchema {
  const described = describedOf(struct);
  const nested = (s: AnyStruct) => structToJsonSchema(s, components, false);
  switch (struct.type) {
    case 'object':
    case 'type': {
      const shape = (struct.schema ?? {}) as Record<string, AnyStruct>;
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, member] of Object.entries(shape)) {
        properties[name] = nested(member);
        if (!is(undefined, member)) required.push(name);
      }
      const out: JsonSchema = { type: 'object', properties };
      if (required.length > 0) out.required = required;
      // object() refuses unknown keys; the request bodies built with type() refuse them too, as
      // unknown_field (src/validation/unknown-fields.ts): no body of the API takes a field it does not define.
      out.additionalProperties = false;
      Object.assign(out, described?.json);
      return described?.rewrite ? described.rewrite(out) : out;
    }
    case 'record':
      return { type: 'object', additionalProperties: true };
    case 'array': {
      const element = struct.schema as AnyStruct | undefined;
      const out: JsonSchema = { type: 'array' };
      if (element) {
        out.items = nested(element);
        Object.assign(out, describedOf(element)?.inArray);
      }
      return out;
    }
    case 'enums': {
      const values = Object.values(struct.schema as Record<string, string | number>);
      const types = [...new Set(values.map((v) => (typeof v === 'number' ? 'number' : 'string')))];
      return { type: types.length === 1 ? types[0] : types, enum: values };
    }
    case 'literal': {
      const value = struct.schema as unknown;
      const type = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
      return { type, const: value };
    }
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return { type: struct.type, ...described?.json };
    case 'union': {
      if (!described?.members) throw new Error('a union must be built with describedUnion() so its members are visible');
      const out: JsonSchema = { oneOf: described.members.map(nested) };
      if (described.discriminator) {
        const property = described.discriminator;
        const mapping: Record<string, string> = {};
        for (const member of described.members) {
          const name = components.get(member);
          if (!name) throw new Error(`a discriminated union's members must be components (${property})`);
          mapping[String((member.schema as Record<string, AnyStruct>)[property].schema)] = refTo(name).$ref as string;
        }
        out.discriminator = { propertyName: property, mapping };
      }
      return out;
    }
    case 'any':
    case 'unknown':
      return {};
    default:
      throw new Error(`no JSON Schema for superstruct type "${struct.type}"`);
  }
}

function allowNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    if ('const' in out) {
      out.enum = [out.const, null];
      delete out.const;
    }
    // Several formats are an anyOf of strings: null is one more branch.
    if (Array.isArray(out.anyOf)) out.anyOf = [...(out.anyOf as JsonSchema[]), { type: 'null' }];
    return out;
  }
  if (Array.isArray(schema.type)) return { ...schema, type: [...(schema.type as string[]), 'null'] };
  // A oneOf (of the cases of a coupled object) takes null as one more case.
  if (Array.isArray(schema.oneOf) && !schema.discriminator)
    return { ...schema, oneOf: [...(schema.oneOf as JsonSchema[]), { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}
