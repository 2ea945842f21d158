// fast-check arbitraries of the values a schema of the OpenAPI document accepts: the subset the
// document uses ($ref, oneOf/anyOf, type lists, object, array, enum/const, string with
// pattern/format/lengths, boolean, integer). Every node's candidates are filtered by that node of
// the schema itself (Ajv, formats asserted), so combined keywords (a pattern and a maxLength,
// contains/maxContains, a oneOf of objects) hold and every value yielded is one the schema
// accepts. What the schema cannot describe (a CPF's check digits, a phone number that exists)
// comes from `overrides`, by property path, and is filtered by the schema all the same.
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';

export type Schema = Record<string, any>;

export interface SchemaArbitraryOptions {
  /** The document the JSON pointers point into. */
  document: Schema;
  /** The validator of the document's node at a JSON pointer ("/components/schemas/Entry"). */
  compile: (pointer: string) => ValidateFunction;
  /** Arbitraries for properties, by dotted path without array indexes ("enrollment.phone"). */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
}

const ISO_DATE = (d: Date): string => d.toISOString().slice(0, 10);

/** A date-time in the forms integrators send: Z or an offset, with or without milliseconds. */
const dateTime = fc
  .tuple(
    fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2026-11-22T12:00:00Z'), noInvalidDate: true }),
    fc.constantFrom('Z', '-03:00', '+00:00', '+05:30', '-10:00'),
    fc.boolean(),
  )
  .map(([date, zone, fraction]) => {
    const offsetMin = zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
    const local = new Date(date.getTime() + offsetMin * 60_000).toISOString();
    return `${local.slice(0, fraction ? 23 : 19)}${zone}`;
  });

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  date: fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map(ISO_DATE),
  'date-time': dateTime,
  email: fc.emailAddress(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  uuid: fc.uuid(),
  uri: fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
};

/** Values the schema at `pointer` accepts. */
export function schemaArbitrary(pointer: string, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  return node(pointer, options, '');
}

const at = (document: Schema, pointer: string): Schema =>
  pointer
    .split('/')
    .slice(1)
    .reduce((n: any, part) => n[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);

const escape = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

function node(pointer: string, options: SchemaArbitraryOptions, path: string): fc.Arbitrary<unknown> {
  let schema = at(options.document, pointer);
  while (typeof schema.$ref === 'string') {
    pointer = (schema.$ref as string).replace(/^#/, '');
    schema = at(options.document, pointer);
  }
  const validate = options.compile(pointer);
  return candidates(schema, pointer, options, path).filter((value) => validate(value));
}

function candidates(schema: Schema, pointer: string, options: SchemaArbitraryOptions, path: string): fc.Arbitrary<unknown> {
  // Not on a branch that can only be null: an override gives the path's other values.
  const override = schema.type === 'null' ? undefined : options.overrides?.[path];
  if (override) return override;
  const branches = schema.oneOf ? 'oneOf' : schema.anyOf ? 'anyOf' : null;
  if (branches && schema.type === undefined)
    return fc.oneof(...(schema[branches] as Schema[]).map((_, i) => node(`${pointer}/${branches}/${i}`, options, path)));
  if (Array.isArray(schema.type)) {
    return fc.oneof(
      ...(schema.type as string[]).map((type) =>
        type === 'null'
          ? fc.constant(null)
          : candidates({ ...schema, type, enum: schema.enum?.filter((v: unknown) => v !== null) }, pointer, options, path),
      ),
    );
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'object': {
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const name of Object.keys(schema.properties ?? {}))
        record[name] = node(`${pointer}/properties/${escape(name)}`, options, path === '' ? name : `${path}.${name}`);
      return fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    case 'array':
      return fc.array(schema.items ? node(`${pointer}/items`, options, path) : fc.anything(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string':
      return stringCandidates(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    default:
      return fc.anything();
  }
}

function stringCandidates(schema: Schema): fc.Arbitrary<string> {
  const formats = schema.format
    ? [schema.format as string]
    : (((schema.anyOf ?? schema.oneOf) as Schema[] | undefined)?.map((s) => s.format as string) ?? []);
  const known = formats.filter((f) => FORMATS[f]);
  if (known.length > 0) return fc.oneof(...known.map((f) => FORMATS[f]));
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern as string, 'u'));
  const max = (schema.maxLength as number | undefined) ?? 40;
  const short = fc.string({ unit: 'binary', minLength: schema.minLength ?? 0, maxLength: Math.min(max, 40) });
  // Near the maximum as well: a limit counted differently (UTF-16 units, bytes) shows there.
  return max > 40
    ? fc.oneof({ weight: 4, arbitrary: short }, { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: max - 3, maxLength: max }) })
    : short;
}
