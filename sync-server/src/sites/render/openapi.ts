import { markdownToBody } from '@quire/shared/content/index';
import { slugify } from '@quire/shared/content/slugs';
import type { ElementContent } from 'hast';
import { groupByTag, RefResolver as Refs, type SpecOperation, specOperations, swagger2RequestBody } from '../../core/openapi/render';
import type { OpenAPIDocument } from '../../core/openapi/parse';
import { bodyTree, el, type LinkResolver, type OutlineEntry, txt } from './body';
import { codeBox, mediaExample, requestSamples, sampleOf } from './apiSamples';

/**
 * API reference pages of published sites, from an OpenAPI 3.x or Swagger 2 document in
 * the author's order: operations grouped by tag, each with its method, parameters,
 * request and response schemas (nested `<details>`, expandable to any depth; named
 * schemas link to their own entry), examples, generated request samples (curl and
 * JavaScript), response headers and the security it needs. A "try it" console is added
 * by the site's script from the `data-*` attributes; without script the page reads whole.
 */

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface ApiReference {
  children: ElementContent[];
  outline: OutlineEntry[];
  math: string[];
  /** Origins the try-it console may call (the spec's servers). */
  connect: string[];
  title: string;
  description?: string;
}

const refName = (ref: string) => ref.split('/').pop() ?? ref;
const schemaAnchor = (name: string) => `schema-${slugify(name) || 'schema'}`;

/** The whole reference of a spec (a `builtin:openapi` page). */
export function apiReference(spec: OpenAPIDocument, links: LinkResolver): ApiReference {
  const ctx = new Context(spec, links);
  const info = isObject(spec.info) ? spec.info : ({} as Obj);
  const children: ElementContent[] = [];
  const head: ElementContent[] = [];
  if (str(info.version)) head.push(el('span', { className: ['api-version'] }, [txt(`Version ${String(info.version)}`)]));
  const servers = ctx.servers();
  for (const s of servers) head.push(el('span', { className: ['api-server'] }, [el('code', {}, [txt(s)])]));
  if (head.length) children.push(el('div', { className: ['api-meta'] }, head));
  if (str(info.description)) children.push(...ctx.markdown(String(info.description)));
  const auth = ctx.securitySchemes();
  if (auth.length) {
    children.push(ctx.heading(2, 'Authentication', 'authentication'));
    children.push(...auth);
  }
  for (const group of groupByTag(spec)) {
    const section: ElementContent[] = [];
    if (group.tag) {
      section.push(ctx.heading(2, group.tag, `tag-${slugify(group.tag) || 'tag'}`));
      if (group.description) section.push(...ctx.markdown(group.description));
    } else if (groupByTag(spec).length > 1) section.push(ctx.heading(2, 'Other operations', 'other-operations'));
    for (const op of group.operations) section.push(ctx.operation(op, group.tag ? 3 : 2));
    children.push(el('section', { className: ['api-tag'] }, section));
  }
  if (!specOperations(spec).length) children.push(el('p', {}, [txt('This specification has no operations.')]));
  const schemas = ctx.componentSchemas();
  if (schemas.length) {
    children.push(ctx.heading(2, 'Schemas', 'schemas'));
    children.push(...schemas);
  }
  return {
    children,
    outline: ctx.outline,
    math: ctx.math,
    connect: ctx.origins(),
    title: str(info.title) ?? 'API reference',
    description: str(info.summary),
  };
}

/** One operation (an `openapiOperation` block in a page), or undefined when the spec has no such operation. */
export function apiOperation(
  spec: OpenAPIDocument,
  path: string,
  method: string,
  links: LinkResolver,
): { children: ElementContent[]; connect: string[]; outline: OutlineEntry[] } | undefined {
  const op = specOperations(spec).find((o) => o.path === path && o.method === method.toLowerCase());
  if (!op) return undefined;
  const ctx = new Context(spec, links, false);
  return { children: [ctx.operation(op, 2)], connect: ctx.origins(), outline: ctx.outline };
}

/** Says on the page that a spec could not be read, and why. */
export function failedSpec(title: string, problems: string[]): ElementContent[] {
  return [
    el('div', { className: ['hint', 'hint-danger'], role: 'note' }, [
      el('span', { className: ['hint-icon'], ariaHidden: 'true' }),
      el('div', { className: ['hint-body'] }, [
        el('p', {}, [el('strong', {}, [txt(`The API specification “${title}” could not be loaded.`)])]),
        ...(problems.length
          ? [
              el(
                'ul',
                {},
                problems.slice(0, 10).map((p) => el('li', {}, [txt(p)])),
              ),
            ]
          : []),
      ]),
    ]),
  ];
}

class Context {
  readonly outline: OutlineEntry[] = [];
  readonly math: string[] = [];
  private readonly taken = new Set<string>();
  private readonly refs: Refs;
  /** Nodes of schema trees written so far: a bound so a huge spec cannot make a page of megabytes. */
  private budget = 20_000;

  constructor(
    private spec: OpenAPIDocument,
    private links: LinkResolver,
    /** Whether named schemas have their own entries to link to. */
    private schemaSection = true,
  ) {
    this.refs = new Refs(spec);
  }

  heading(level: number, title: string, wanted: string, extra: ElementContent[] = []): ElementContent {
    let anchor = wanted;
    for (let n = 2; this.taken.has(anchor); n++) anchor = `${wanted}-${n}`;
    this.taken.add(anchor);
    this.outline.push({ anchor, title, level: level - 1 });
    return el(`h${level}`, { id: anchor, className: ['heading'] }, [
      ...extra,
      txt(title),
      el('a', { href: `#${encodeURIComponent(anchor)}`, className: ['anchor'], ariaHidden: 'true' }, [txt('#')]),
    ]);
  }

  markdown(md: string): ElementContent[] {
    const tree = bodyTree(markdownToBody(md).doc, this.links, this.taken);
    // Headings inside descriptions stay out of the outline: the operations make it.
    this.math.push(...tree.math.map((m) => m));
    if (tree.math.length)
      return [el('div', { className: ['api-description'] }, renumber(tree.children, this.math.length - tree.math.length))];
    return [el('div', { className: ['api-description'] }, tree.children)];
  }

  servers(): string[] {
    const out: string[] = [];
    for (const s of arr(this.spec.servers)) if (isObject(s) && typeof s.url === 'string') out.push(expandServer(s));
    if (!out.length && typeof this.spec.host === 'string') {
      const scheme = typeof arr(this.spec.schemes)[0] === 'string' ? String(arr(this.spec.schemes)[0]) : 'https';
      out.push(`${scheme}://${this.spec.host}${typeof this.spec.basePath === 'string' ? this.spec.basePath : ''}`);
    }
    return out;
  }

  origins(): string[] {
    const out = new Set<string>();
    for (const s of this.servers()) {
      try {
        const u = new URL(s);
        if (u.protocol === 'https:' || u.protocol === 'http:') out.add(u.origin);
      } catch {}
    }
    return [...out];
  }

  private schemes(): Obj {
    const c = isObject(this.spec.components) ? this.spec.components : {};
    return isObject(c.securitySchemes) ? c.securitySchemes : isObject(this.spec.securityDefinitions) ? this.spec.securityDefinitions : {};
  }

  securitySchemes(): ElementContent[] {
    const items: ElementContent[] = [];
    for (const [name, raw] of Object.entries(this.schemes())) {
      const s = this.refs.resolve(raw);
      const kind = [str(s.type), str(s.scheme), str(s.bearerFormat)].filter(Boolean).join(' · ');
      const where = s.type === 'apiKey' ? `${String(s.name ?? '')} in ${String(s.in ?? '')}` : '';
      const flows = isObject(s.flows)
        ? Object.entries(s.flows).map(([flow, f]) => {
            const o = isObject(f) ? f : {};
            return `${flow}${str(o.authorizationUrl) ? `: ${String(o.authorizationUrl)}` : str(o.tokenUrl) ? `: ${String(o.tokenUrl)}` : ''}`;
          })
        : [];
      items.push(
        el('li', { className: ['api-security'] }, [
          el('div', { className: ['prop-head'] }, [el('code', {}, [txt(name)]), el('span', { className: ['type'] }, [txt(kind)])]),
          ...(where ? [el('div', { className: ['prop-meta'] }, [txt(where)])] : []),
          ...(flows.length ? [el('div', { className: ['prop-meta'] }, [txt(`Flows: ${flows.join(', ')}`)])] : []),
          ...(str(s.description) ? this.markdown(String(s.description)) : []),
        ]),
      );
    }
    return items.length ? [el('ul', { className: ['api-props', 'api-securities'] }, items)] : [];
  }

  operation(op: SpecOperation, level: number): ElementContent {
    const o = op.operation;
    const method = op.method.toUpperCase();
    const title = op.summary ?? op.operationId ?? `${method} ${op.path}`;
    const parts: ElementContent[] = [
      this.heading(level, title, slugify(op.operationId ?? title) || `${op.method}-${slugify(op.path)}`, [badge(op.method)]),
      el('div', { className: ['api-path'] }, [badge(op.method), el('code', {}, [txt(op.path)])]),
    ];
    if (op.deprecated) parts.push(el('p', { className: ['api-deprecated'] }, [txt('Deprecated')]));
    if (op.description) parts.push(...this.markdown(op.description));

    const security = Array.isArray(o.security) ? o.security : Array.isArray(this.spec.security) ? this.spec.security : [];
    const required = security.flatMap((r) => (isObject(r) ? Object.keys(r) : []));
    if (required.length)
      parts.push(
        el('p', { className: ['api-auth'] }, [
          txt('Authorization: '),
          ...required.flatMap((n, i) => [...(i ? [txt(', ')] : []), el('a', { href: '#authentication' }, [el('code', {}, [txt(n)])])]),
        ]),
      );

    const params = this.parameters(op);
    const byIn = new Map<string, Obj[]>();
    for (const p of params) byIn.set(String(p.in), [...(byIn.get(String(p.in)) ?? []), p]);
    const label: Record<string, string> = { path: 'Path parameters', query: 'Query parameters', header: 'Headers', cookie: 'Cookies' };
    for (const [where, list] of byIn) {
      parts.push(el('h4', { className: ['api-section'] }, [txt(label[where] ?? `${where} parameters`)]));
      parts.push(
        el(
          'ul',
          { className: ['api-props'] },
          list.map((p) =>
            this.property(String(p.name), p.schema ?? p, p.required === true || where === 'path', str(p.description), [], { in: where }),
          ),
        ),
      );
    }

    const body = this.requestBody(op);
    if (body) {
      parts.push(
        el('h4', { className: ['api-section'] }, [
          txt('Request body'),
          ...(body.contentType ? [el('code', { className: ['media'] }, [txt(body.contentType)])] : []),
        ]),
      );
      if (body.description) parts.push(...this.markdown(body.description));
      if (body.schema) parts.push(this.schemaTree(body.schema));
    }

    const responses = isObject(o.responses) ? Object.entries(o.responses) : [];
    if (responses.length) {
      parts.push(el('h4', { className: ['api-section'] }, [txt('Responses')]));
      responses.forEach(([status, raw], i) => parts.push(this.response(status, this.refs.resolve(raw), i === 0)));
    }

    parts.push(
      requestSamples(op, params, body, {
        server: this.servers()[0] ?? '',
        security: arr(this.spec.security),
        schemes: this.schemes(),
        refs: this.refs,
      }),
    );
    const server = this.servers()[0];
    const sample = body
      ? body.example !== undefined
        ? body.example
        : body.schema !== undefined
          ? sampleOf(body.schema, this.refs)
          : undefined
      : undefined;
    parts.push(
      el('div', {
        className: ['try-it'],
        dataMethod: method,
        dataPath: op.path,
        dataServer: server,
        dataBody: sample === undefined ? undefined : typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2),
        dataType: body?.contentType,
      }),
    );
    return el('section', { className: ['api-operation'] }, parts);
  }

  private parameters(op: SpecOperation): Obj[] {
    const byKey = new Map<string, Obj>();
    for (const r of [...arr(op.pathItem.parameters), ...arr(op.operation.parameters)]) {
      const p = this.refs.resolve(r);
      if (!str(p.name) || !str(p.in) || p.in === 'body' || p.in === 'formData') continue;
      byKey.set(`${String(p.in)}:${String(p.name)}`, p);
    }
    return [...byKey.values()];
  }

  private requestBody(op: SpecOperation): { contentType?: string; description?: string; schema?: unknown; example?: unknown } | undefined {
    if (op.operation.requestBody !== undefined) {
      const rb = this.refs.resolve(op.operation.requestBody);
      const content = isObject(rb.content) ? rb.content : {};
      const [contentType, raw] = Object.entries(content)[0] ?? [];
      const media = isObject(raw) ? raw : {};
      return { contentType, description: str(rb.description), schema: media.schema, example: mediaExample(media, this.refs) };
    }
    const params = [...arr(op.pathItem.parameters), ...arr(op.operation.parameters)].map((p) => this.refs.resolve(p));
    const consumes = str(arr(op.operation.consumes)[0]) ?? str(arr(this.spec.consumes)[0]);
    return swagger2RequestBody(params, consumes);
  }

  private response(status: string, r: Obj, open: boolean): ElementContent {
    const cls = /^[1-5]/.test(status) ? `status-${status[0]}xx` : 'status-default';
    const inner: ElementContent[] = [];
    if (isObject(r.headers) && Object.keys(r.headers).length) {
      inner.push(el('div', { className: ['api-subsection'] }, [txt('Headers')]));
      inner.push(
        el(
          'ul',
          { className: ['api-props'] },
          Object.entries(r.headers).map(([name, raw]) => {
            const h = this.refs.resolve(raw);
            return this.property(name, h.schema ?? h, h.required === true, str(h.description), []);
          }),
        ),
      );
    }
    let schema: unknown = r.schema;
    let example: unknown;
    let media: string | undefined;
    if (isObject(r.content)) {
      const [type, raw] = Object.entries(r.content)[0] ?? [];
      media = type;
      const m = isObject(raw) ? this.refs.resolve(raw) : {};
      schema = m.schema;
      example = mediaExample(m, this.refs);
    } else if (isObject(r.examples)) example = Object.values(r.examples)[0];
    if (schema !== undefined) {
      inner.push(
        el('div', { className: ['api-subsection'] }, [txt('Body'), ...(media ? [el('code', { className: ['media'] }, [txt(media)])] : [])]),
      );
      inner.push(this.schemaTree(schema));
    }
    const sample = example !== undefined ? example : schema !== undefined ? sampleOf(schema, this.refs) : undefined;
    if (sample !== undefined) inner.push(codeBox(typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2), 'json', 'Example'));
    return el('details', { className: ['api-response'], open: open || undefined }, [
      el('summary', {}, [
        el('span', { className: ['status', cls] }, [txt(status)]),
        el('span', {}, [txt(inlineOf(str(r.description) ?? ''))]),
      ]),
      el('div', { className: ['api-response-body'] }, inner),
    ]);
  }

  /** A schema as nested lists: objects list their properties, arrays their items, compositions their variants. */
  schemaTree(schema: unknown, seen: string[] = []): ElementContent {
    const s = this.refs.resolve(schema);
    const children = this.childrenOf(schema, seen);
    if (children) return el('ul', { className: ['api-props'] }, children);
    return el('p', { className: ['prop-meta'] }, [...this.typeOf(schema)]);
  }

  private childrenOf(schema: unknown, seen: string[]): ElementContent[] | undefined {
    const s = this.refs.resolve(schema);
    if (s.type === 'array' || s.items !== undefined)
      return s.items !== undefined ? this.childrenOf(s.items, nextSeen(schema, seen)) : undefined;
    const props: [string, unknown][] = [];
    const required = new Set<string>();
    const merge = (x: Obj, depth: number) => {
      if (depth > 8) return;
      if (isObject(x.properties)) props.push(...Object.entries(x.properties));
      for (const r of arr(x.required)) if (typeof r === 'string') required.add(r);
      for (const part of arr(x.allOf)) merge(this.refs.resolve(part), depth + 1);
    };
    merge(s, 0);
    const next = nextSeen(schema, seen);
    const out: ElementContent[] = props.map(([name, p]) =>
      this.property(name, p, required.has(name), str(this.refs.resolve(p).description), next),
    );
    for (const k of ['oneOf', 'anyOf'] as const) {
      const variants = arr(s[k]);
      if (!variants.length) continue;
      variants.forEach((v, i) => {
        const name = isObject(v) && typeof v.$ref === 'string' ? refName(v.$ref) : (str(this.refs.resolve(v).title) ?? `Option ${i + 1}`);
        out.push(
          this.property(name, v, false, str(this.refs.resolve(v).description), next, { variant: k === 'oneOf' ? 'one of' : 'any of' }),
        );
      });
    }
    if (isObject(s.additionalProperties)) out.push(this.property('[key]', s.additionalProperties, false, undefined, next));
    return out.length ? out : undefined;
  }

  private typeOf(schema: unknown): ElementContent[] {
    const raw = isObject(schema) ? schema : {};
    if (typeof raw.$ref === 'string') return [this.refLink(raw.$ref)];
    const s = this.refs.resolve(schema);
    if (s.type === 'array' || s.items !== undefined) return [txt('array of '), ...this.typeOf(s.items)];
    const type = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null').join(' | ') : str(s.type);
    const out = type ?? (isObject(s.properties) || s.allOf ? 'object' : s.oneOf ? 'one of' : s.anyOf ? 'any of' : 'any');
    return [txt(`${out}${str(s.format) ? ` (${String(s.format)})` : ''}`)];
  }

  private refLink(ref: string): ElementContent {
    const name = refName(ref);
    return this.schemaSection && ref.startsWith('#/') ? el('a', { href: `#${schemaAnchor(name)}` }, [txt(name)]) : txt(name);
  }

  property(
    name: string,
    schema: unknown,
    required: boolean,
    description: string | undefined,
    seen: string[],
    extra: { in?: string; variant?: string } = {},
  ): ElementContent {
    this.budget--;
    const s = this.refs.resolve(schema);
    const meta: string[] = [];
    if (Array.isArray(s.enum) && s.enum.length)
      meta.push(
        `One of: ${s.enum
          .slice(0, 30)
          .map((v) => JSON.stringify(v))
          .join(', ')}`,
      );
    if (s.default !== undefined) meta.push(`Default: ${JSON.stringify(s.default)}`);
    if (s.example !== undefined) meta.push(`Example: ${JSON.stringify(s.example)}`);
    for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern'] as const)
      if (s[k] !== undefined) meta.push(`${k}: ${String(s[k])}`);
    const ref = isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref : undefined;
    const cycle = ref !== undefined && seen.includes(ref);
    const children = cycle || this.budget <= 0 ? undefined : this.childrenOf(schema, seen);
    const head = el('div', { className: ['prop-head'] }, [
      el('code', { className: ['prop-name'] }, [txt(name)]),
      el('span', { className: ['type'] }, this.typeOf(schema)),
      ...(required ? [el('span', { className: ['required'] }, [txt('required')])] : []),
      ...(s.deprecated === true ? [el('span', { className: ['deprecated'] }, [txt('deprecated')])] : []),
      ...(extra.variant ? [el('span', { className: ['variant'] }, [txt(extra.variant)])] : []),
    ]);
    const body: ElementContent[] = [head];
    if (description) body.push(el('div', { className: ['prop-description'] }, [txt(description)]));
    if (meta.length) body.push(el('div', { className: ['prop-meta'] }, [txt(meta.join(' · '))]));
    if (children)
      body.push(
        el('details', { className: ['api-children'] }, [
          el('summary', {}, [txt(`Show ${children.length} ${children.length === 1 ? 'field' : 'fields'}`)]),
          el('ul', { className: ['api-props'] }, children),
        ]),
      );
    return el('li', { className: ['api-prop'], dataIn: extra.in, dataName: extra.in ? name : undefined }, body);
  }

  componentSchemas(): ElementContent[] {
    if (!this.schemaSection) return [];
    const c = isObject(this.spec.components) ? this.spec.components : {};
    const defs = isObject(c.schemas) ? c.schemas : isObject(this.spec.definitions) ? this.spec.definitions : {};
    const prefix = isObject(c.schemas) ? '#/components/schemas/' : '#/definitions/';
    return Object.entries(defs).map(([name, schema]) => {
      const s = this.refs.resolve(schema);
      return el('section', { className: ['api-schema'], id: schemaAnchor(name) }, [
        el('div', { className: ['prop-head'] }, [
          el('code', { className: ['prop-name'] }, [txt(name)]),
          el('span', { className: ['type'] }, this.typeOf(schema)),
        ]),
        ...(str(s.description) ? [el('div', { className: ['prop-description'] }, [txt(String(s.description))])] : []),
        this.schemaTree(schema, [`${prefix}${name}`]),
      ]);
    });
  }
}

function nextSeen(schema: unknown, seen: string[]): string[] {
  return isObject(schema) && typeof schema.$ref === 'string' ? [...seen, schema.$ref] : seen;
}

function renumber(children: ElementContent[], offset: number): ElementContent[] {
  const walk = (n: ElementContent): ElementContent => {
    if (n.type !== 'element') return n;
    if (n.properties.dataSlot !== undefined && Array.isArray(n.properties.className) && n.properties.className.includes('math-slot'))
      return { ...n, properties: { ...n.properties, dataSlot: String(Number(n.properties.dataSlot) + offset) } };
    return { ...n, children: n.children.map(walk) };
  };
  return children.map(walk);
}

function badge(method: string): ElementContent {
  return el('span', { className: ['method', `method-${method.toLowerCase()}`] }, [txt(method.toUpperCase())]);
}

function inlineOf(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function expandServer(s: Obj): string {
  let url = String(s.url);
  const vars = isObject(s.variables) ? s.variables : {};
  for (const [k, v] of Object.entries(vars)) if (isObject(v) && v.default !== undefined) url = url.replaceAll(`{${k}}`, String(v.default));
  return url;
}
