// A small JSON Schema (2020-12 / OpenAPI 3.1) validator for tests: type (incl. arrays of types and
// null), enum, const, required, properties, additionalProperties, items, anyOf, pattern,
// minLength/maxLength and local $ref. Any other keyword throws, so a schema never passes by being
// misunderstood.

type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(['description', 'title', 'format', 'example', 'examples', 'deprecated', 'default']);
const KNOWN = new Set(['$ref', 'type', 'enum', 'const', 'required', 'properties', 'additionalProperties', 'items', 'anyOf', 'pattern', 'minLength', 'maxLength']);

function resolve(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return node as Schema;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  if (t === 'integer') return typeof v === 'number' && Number.isInteger(v);
  if (t === 'number') return typeof v === 'number' && Number.isFinite(v);
  return typeOf(v) === t;
}

/** Every way `value` breaks `schema` ("$.a.b: message"); empty when it conforms. */
export function validateSchema(root: Schema, schema: Schema, value: unknown, path = '$'): string[] {
  for (const k of Object.keys(schema)) if (!KNOWN.has(k) && !ANNOTATIONS.has(k)) throw new Error(`${path}: unsupported schema keyword ${k}`);
  if (typeof schema.$ref === 'string') return validateSchema(root, resolve(root, schema.$ref), value, path);
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => hasType(value, t))) return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
  }
  if (schema.enum && !(schema.enum as unknown[]).some((e) => e === value)) errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && schema.const !== value) errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
    if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) errors.push(`${path}: longer than ${schema.maxLength}`);
  }
  if (schema.anyOf) {
    const branches = (schema.anyOf as Schema[]).map((s) => validateSchema(root, s, value, path));
    if (!branches.some((b) => b.length === 0)) errors.push(`${path}: matches no anyOf branch (${branches.map((b) => b[0]).join('; ')})`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...validateSchema(root, schema.items as Schema, v, `${path}[${i}]`)));
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in obj)) errors.push(`${path}: missing required ${r}`);
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) errors.push(...validateSchema(root, props[k], v, `${path}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property ${k}`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        errors.push(...validateSchema(root, schema.additionalProperties as Schema, v, `${path}.${k}`));
      }
    }
  }
  return errors;
}

/** The schema an OpenAPI document declares for one response (JSON content). */
export function responseSchema(doc: Schema, path: string, method: string, status: number): Schema {
  const op = ((doc.paths as Record<string, Record<string, Schema>>)[path] ?? {})[method.toLowerCase()];
  if (!op) throw new Error(`the document has no ${method} ${path}`);
  let res = (op.responses as Record<string, Schema>)[String(status)];
  if (!res) throw new Error(`${method} ${path} documents no ${status} response`);
  if (typeof res.$ref === 'string') res = resolve(doc, res.$ref);
  const schema = ((res.content as Record<string, Schema>)?.['application/json'] as Schema)?.schema as Schema;
  if (!schema) throw new Error(`${method} ${path} ${status} has no application/json schema`);
  return schema;
}
