// superstruct Struct -> JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). Request bodies in
// the OpenAPI document are produced by this walk over the very structs that validate requests, so
// the document cannot drift from the validation.
//
// What superstruct makes visible: `struct.type` ('object', 'type', 'string', 'enums', 'array', ...)
// and `struct.schema` (properties, enum values, the element struct, a literal). What it hides:
// optional() and nullable() keep the inner type and only wrap the validator, so they are detected
// by asking the struct itself (`is(undefined, s)`, `is(null, s)`); refinements (size, pattern, min)
// and union members leave no trace, so structs built with src/validation/described.ts carry them in `schema`.
import { is, type Struct } from 'superstruct';
import { DESCRIBED, type Described, type JsonSchema } from '../validation/described.ts';

export type { JsonSchema };

type AnyStruct = Struct<any, any>;

export function structToJsonSchema(struct: AnyStruct): JsonSchema {
  const schema = convert(struct);
  const acceptsAnything = struct.type === 'any' || struct.type === 'unknown';
  return is(null, struct) && !acceptsAnything ? allowNull(schema) : schema;
}

function convert(struct: AnyStruct): JsonSchema {
  const described = describedOf(struct);
  switch (struct.type) {
    case 'object':
    case 'type': {
      const shape = (struct.schema ?? {}) as Record<string, AnyStruct>;
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, member] of Object.entries(shape)) {
        properties[name] = structToJsonSchema(member);
        if (!is(undefined, member)) required.push(name);
      }
      const out: JsonSchema = { type: 'object', properties };
      if (required.length > 0) out.required = required;
      // object() refuses unknown keys; the request bodies built with type() refuse them too, as
      // unknown_field (src/validation/unknown-fields.ts): no body of the API takes a field it does not define.
      out.additionalProperties = false;
      return out;
    }
    case 'record':
      return { type: 'object', additionalProperties: true };
    case 'array': {
      const element = struct.schema as AnyStruct | undefined;
      const out: JsonSchema = { type: 'array' };
      if (element) out.items = structToJsonSchema(element);
      return out;
    }
    case 'enums': {
      const values = Object.values(struct.schema as Record<string, string | number>);
      const types = [...new Set(values.map((v) => (typeof v === 'number' ? 'number' : 'string')))];
      return { type: types.length === 1 ? types[0] : types, enum: values };
    }
    case 'literal':
      return { const: struct.schema };
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return { type: struct.type, ...described?.json };
    case 'union': {
      if (!described?.members) throw new Error('a union must be built with describedUnion() so its members are visible');
      return { anyOf: described.members.map((m) => structToJsonSchema(m)) };
    }
    case 'any':
    case 'unknown':
      return {};
    default:
      throw new Error(`no JSON Schema for superstruct type "${struct.type}"`);
  }
}

function describedOf(struct: AnyStruct): Described | undefined {
  const schema = struct.schema as { [DESCRIBED]?: Described } | null | undefined;
  return schema && typeof schema === 'object' ? schema[DESCRIBED] : undefined;
}

function allowNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(schema.type)) return { ...schema, type: [...(schema.type as string[]), 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}
