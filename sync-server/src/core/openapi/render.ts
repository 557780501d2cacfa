import { HTTP_METHODS, type OpenAPIDocument } from './parse';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface RenderOptions {
  /** Only operations carrying this tag. */
  tag?: string;
  /** Only this operation. */
  operation?: { path: string; method: string };
  /** Heading level of each operation (the page title is level 1). */
  headingLevel?: number;
}

/** One operation of a spec, flattened for rendering and listing. */
export interface SpecOperation {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  operationId?: string;
  tags: string[];
  deprecated: boolean;
  operation: Obj;
  pathItem: Obj;
}

/** Tags marked `x-internal: true`: neither they nor their operations are shown. */
export function internalTags(spec: OpenAPIDocument): Set<string> {
  const out = new Set<string>();
  for (const t of arr(spec.tags)) if (isObject(t) && typeof t.name === 'string' && t['x-internal'] === true) out.add(t.name);
  return out;
}

/**
 * Every operation readers may see, in document order: paths as written, and methods in
 * the order the path item lists them (authors put GET before POST, or the reverse, on
 * purpose). Operations marked `x-internal: true`, or whose first tag is, are left out.
 */
export function specOperations(spec: OpenAPIDocument): SpecOperation[] {
  const out: SpecOperation[] = [];
  const internal = internalTags(spec);
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    if (!isObject(item) || path.startsWith('x-')) continue;
    for (const method of Object.keys(item)) {
      const op = item[method];
      if (!isObject(op) || !(HTTP_METHODS as readonly string[]).includes(method)) continue;
      if (op['x-internal'] === true) continue;
      const firstTag = Array.isArray(op.tags) ? op.tags[0] : undefined;
      if (typeof firstTag === 'string' && internal.has(firstTag)) continue;
      out.push({
        method,
        path,
        summary: str(op.summary),
        description: str(op.description),
        operationId: str(op.operationId),
        tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
        deprecated: op.deprecated === true,
        operation: op,
        pathItem: item,
      });
    }
  }
  return out;
}

export interface TagGroup {
  /** The tag, or null for operations without one. */
  tag: string | null;
  description?: string;
  operations: SpecOperation[];
}

/**
 * Operations grouped by their first tag, in the spec's order: tags as the top-level
 * `tags` list declares them, then tags first used by an operation, then untagged ones.
 * Within a group, operations keep document order.
 */
export function groupByTag(spec: OpenAPIDocument, ops = specOperations(spec)): TagGroup[] {
  const groups = new Map<string | null, TagGroup>();
  for (const t of arr(spec.tags)) {
    if (isObject(t) && typeof t.name === 'string' && !groups.has(t.name) && t['x-internal'] !== true)
      groups.set(t.name, { tag: t.name, description: str(t.description), operations: [] });
  }
  for (const op of ops) {
    const tag = op.tags[0] ?? null;
    let g = groups.get(tag);
    if (!g) {
      g = { tag, operations: [] };
      groups.set(tag, g);
    }
    g.operations.push(op);
  }
  const out = [...groups.values()].filter((g) => g.operations.length);
  // Untagged operations come last.
  return [...out.filter((g) => g.tag !== null), ...out.filter((g) => g.tag === null)];
}

/**
 * The operations of an OpenAPI 3.x or Swagger 2 document as GitBook-flavoured markdown:
 * per operation a heading, its description, parameters, request body and responses. Pages
 * of type `builtin:openapi` show this, in the API, in published sites and in the app; it is
 * plain markdown so each of them renders it through the one content pipeline.
 */
export function renderOpenAPIOperations(spec: OpenAPIDocument, opts: RenderOptions = {}): string {
  const level = Math.min(Math.max(opts.headingLevel ?? 2, 1), 5);
  const only = opts.operation;
  const ops = specOperations(spec).filter(
    (o) => (!opts.tag || o.tags.includes(opts.tag)) && (!only || (o.path === only.path && o.method === only.method)),
  );
  const refs = new RefResolver(spec);
  const blocks: string[] = [];
  const base = serverUrl(spec);
  if (ops.length === 0) blocks.push('_This specification has no operations._');
  const groups = groupByTag(spec, ops);
  const titled = !opts.tag && groups.some((g) => g.tag !== null);
  for (const g of groups) {
    if (titled) blocks.push(`${'#'.repeat(level)} ${inline(g.tag ?? 'Other operations')}`);
    if (titled && g.description) blocks.push(g.description.trim());
    for (const op of g.operations) blocks.push(renderOperation(op, refs, titled ? Math.min(level + 1, 5) : level, base));
  }
  return `${blocks.join('\n\n')}\n`;
}

function renderOperation(op: SpecOperation, refs: RefResolver, level: number, base: string | undefined): string {
  const h = '#'.repeat(level);
  const parts: string[] = [];
  const title = op.summary ?? op.operationId ?? `${op.method.toUpperCase()} ${op.path}`;
  parts.push(`${h} ${inline(title)}`);
  parts.push(`\`${op.method.toUpperCase()} ${op.path}\``);
  if (op.deprecated) parts.push('{% hint style="warning" %}\nThis operation is deprecated.\n{% endhint %}');
  if (op.description) parts.push(op.description.trim());
  if (base) parts.push(`Server: \`${base}\``);

  const params = collectParameters(op, refs);
  if (params.length) {
    parts.push(`${h}# Parameters`);
    parts.push(
      table(
        ['Name', 'In', 'Type', 'Required', 'Description'],
        params.map((p) => [code(p.name), p.in, typeName(p.schema, refs), p.required ? 'yes' : 'no', p.description ?? '']),
      ),
    );
  }

  const body = requestBody(op, refs);
  if (body) {
    parts.push(`${h}# Request body`);
    if (body.contentType) parts.push(`Content type: \`${body.contentType}\``);
    if (body.description) parts.push(body.description);
    const fields = schemaFields(body.schema, refs);
    if (fields.length) parts.push(table(['Field', 'Type', 'Required', 'Description'], fields));
    else if (body.schema) parts.push(`Type: ${typeName(body.schema, refs)}`);
  }

  const responses = isObject(op.operation.responses) ? Object.entries(op.operation.responses) : [];
  if (responses.length) {
    parts.push(`${h}# Responses`);
    parts.push(
      table(
        ['Status', 'Description', 'Type'],
        responses.map(([status, raw]) => {
          const r = refs.resolve(raw);
          const schema = responseSchema(r, refs);
          return [code(status), str(r.description) ?? '', schema ? typeName(schema, refs) : ''];
        }),
      ),
    );
  }
  return parts.join('\n\n');
}

interface Param {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: unknown;
}

/** Path-level and operation-level parameters (operation wins on the same name and place); Swagger 2 body/form parameters are left to the request body. */
function collectParameters(op: SpecOperation, refs: RefResolver): Param[] {
  const byKey = new Map<string, Param>();
  const raw = [...arr(op.pathItem.parameters), ...arr(op.operation.parameters)];
  for (const r of raw) {
    const p = refs.resolve(r);
    const name = str(p.name);
    const where = str(p.in);
    if (!name || !where || where === 'body' || where === 'formData') continue;
    // Swagger 2 puts type on the parameter itself; OpenAPI 3 under `schema`.
    const schema = p.schema ?? { type: p.type, format: p.format, items: p.items, enum: p.enum };
    byKey.set(`${where}:${name}`, {
      name,
      in: where,
      required: p.required === true || where === 'path',
      description: str(p.description),
      schema,
    });
  }
  return [...byKey.values()];
}

function requestBody(op: SpecOperation, refs: RefResolver): { contentType?: string; description?: string; schema?: unknown } | undefined {
  if (op.operation.requestBody !== undefined) {
    const rb = refs.resolve(op.operation.requestBody);
    const content = isObject(rb.content) ? rb.content : {};
    const [contentType, media] = Object.entries(content)[0] ?? [];
    return { contentType, description: str(rb.description), schema: isObject(media) ? media.schema : undefined };
  }
  const params = [...arr(op.pathItem.parameters), ...arr(op.operation.parameters)].map((p) => refs.resolve(p));
  const consumes = Array.isArray(op.operation.consumes) ? str(op.operation.consumes[0]) : undefined;
  return swagger2RequestBody(params, consumes);
}

/** Swagger 2's request body: one `in: body` parameter, or `formData` fields; `consumes` is its first media type. */
export function swagger2RequestBody(
  params: Obj[],
  consumes: string | undefined,
): { contentType: string; description?: string; schema: unknown } | undefined {
  const bodyParam = params.find((p) => p.in === 'body');
  if (bodyParam) return { contentType: consumes ?? 'application/json', description: str(bodyParam.description), schema: bodyParam.schema };
  const form = params.filter((p) => p.in === 'formData');
  if (form.length) {
    const properties = Object.fromEntries(form.map((p) => [String(p.name), { type: p.type, description: p.description }]));
    const required = form.filter((p) => p.required === true).map((p) => String(p.name));
    return { contentType: consumes ?? 'application/x-www-form-urlencoded', schema: { type: 'object', properties, required } };
  }
  return undefined;
}

function responseSchema(r: Obj, refs: RefResolver): unknown {
  if (r.schema !== undefined) return r.schema; // Swagger 2
  const content = isObject(r.content) ? r.content : {};
  const media = Object.values(content)[0];
  return isObject(media) ? refs.resolve(media).schema : undefined;
}

/** Top-level fields of an object schema (allOf merged), one table row each. */
function schemaFields(schema: unknown, refs: RefResolver): string[][] {
  const s = refs.resolve(schema);
  const props: Obj = {};
  const required = new Set<string>();
  const merge = (x: Obj, depth: number) => {
    if (depth > 5) return;
    if (isObject(x.properties)) Object.assign(props, x.properties);
    for (const r of arr(x.required)) if (typeof r === 'string') required.add(r);
    for (const part of arr(x.allOf)) merge(refs.resolve(part), depth + 1);
  };
  merge(s, 0);
  return Object.entries(props).map(([name, raw]) => {
    const p = refs.resolve(raw);
    return [code(name), typeName(raw, refs), required.has(name) ? 'yes' : 'no', str(p.description) ?? ''];
  });
}

/** A short human type: `string`, `integer (int64)`, `array of Pet`, `Pet`, `string (one of a, b)`. */
function typeName(schema: unknown, refs: RefResolver, depth = 0): string {
  if (!isObject(schema) || depth > 4) return '';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join(' or ') : str(schema.type);
  if (type === 'array') return `array of ${typeName(schema.items, refs, depth + 1) || 'any'}`;
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[k])) return schema[k].map((x) => typeName(x, refs, depth + 1) || 'object').join(' or ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((x) => typeName(x, refs, depth + 1) || 'object').join(' and ');
  let out = type ?? (isObject(schema.properties) ? 'object' : '');
  if (schema.format) out += ` (${String(schema.format)})`;
  if (Array.isArray(schema.enum) && schema.enum.length)
    out += ` (one of ${schema.enum
      .slice(0, 20)
      .map((v) => String(v))
      .join(', ')})`;
  return out;
}

function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

function serverUrl(spec: OpenAPIDocument): string | undefined {
  const servers = arr(spec.servers);
  const first = servers[0];
  if (isObject(first) && typeof first.url === 'string') return first.url;
  if (typeof spec.host === 'string') {
    const scheme = Array.isArray(spec.schemes) && typeof spec.schemes[0] === 'string' ? spec.schemes[0] : 'https';
    return `${scheme}://${spec.host}${typeof spec.basePath === 'string' ? spec.basePath : ''}`;
  }
  return undefined;
}

/** Follows local `#/...` references, with a bound so a cycle cannot loop forever. */
export class RefResolver {
  constructor(private spec: OpenAPIDocument) {}

  resolve(v: unknown): Obj {
    let cur = v;
    for (let i = 0; i < 10 && isObject(cur) && typeof cur.$ref === 'string'; i++) {
      const ref = cur.$ref;
      if (!ref.startsWith('#/')) return cur;
      let target: unknown = this.spec;
      for (const seg of ref.slice(2).split('/')) {
        const key = decodeURIComponent(seg.replace(/~1/g, '/').replace(/~0/g, '~'));
        target = isObject(target) ? target[key] : undefined;
      }
      if (target === undefined) return cur;
      cur = target;
    }
    return isObject(cur) ? cur : {};
  }
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), `| ${head.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** A table cell: one line, pipes escaped. */
function cell(s: string): string {
  return s
    .replace(/\r?\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

function inline(s: string): string {
  return s.replace(/\r?\n+/g, ' ').trim();
}

function code(s: string): string {
  return `\`${s.replace(/`/g, "'")}\``;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
