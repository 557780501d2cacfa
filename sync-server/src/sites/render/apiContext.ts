import { markdownToBody } from '@quire/shared/content/index';
import { slugify } from '@quire/shared/content/slugs';
import type { ElementContent } from 'hast';
import { RefResolver as Refs, type SpecOperation, swagger2RequestBody } from '../../core/openapi/render';
import type { OpenAPIDocument } from '../../core/openapi/parse';
import { bodyTree, el, type LinkResolver, type OutlineEntry, txt } from './body';
import { codeBox, mediaExample, requestSamples, sampleOf, securityOf } from './apiSamples';

/**
 * What an API reference page is made of: operations (parameters and schemas in the main
 * column, request and response samples and the "try it" console beside them), schema
 * trees (nested `<details>`; named schemas link to their entry) and security schemes.
 */

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const refName = (ref: string) => ref.split('/').pop() ?? ref;
export const schemaAnchor = (name: string) => `schema-${slugify(name) || 'schema'}`;

export interface ContextOptions {
  /** Where a named schema's entry is (undefined: the name is plain text). */
  schemaHref?: (name: string) => string | undefined;
  /** Whether the "try it" console is left out for an operation. */
  hideTryIt?: (op: SpecOperation) => boolean;
}

/**
 * Schema fields written on one page at most: past it, named schemas are links to their
 * entry rather than expanded again, so no page reaches a megabyte.
 */
const FIELD_BUDGET = 1500;

/** Named schemas expanded inside one another at most this deep; deeper ones are links to their entry. */
const NAMED_DEPTH = 2;

export class Context {
  readonly outline: OutlineEntry[] = [];
  readonly math: string[] = [];
  private readonly taken = new Set<string>();
  private readonly refs: Refs;
  private budget = FIELD_BUDGET;

  constructor(
    private spec: OpenAPIDocument,
    private links: LinkResolver,
    private opts: ContextOptions = {},
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
    return specServers(this.spec);
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

  schemes(): Obj {
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

  /** One operation; without its heading on its own page (the page title is the operation's). */
  operation(op: SpecOperation, level: number, titled = true): ElementContent {
    const o = op.operation;
    const method = op.method.toUpperCase();
    const title = op.summary ?? op.operationId ?? `${method} ${op.path}`;
    const head: ElementContent[] = [
      ...(titled
        ? [this.heading(level, title, slugify(op.operationId ?? title) || `${op.method}-${slugify(op.path)}`, [badge(op.method)])]
        : []),
      el('div', { className: ['api-path'] }, [badge(op.method), el('code', {}, [txt(op.path)])]),
    ];
    const parts: ElementContent[] = [];
    const aside: ElementContent[] = [];
    if (op.deprecated) parts.push(el('p', { className: ['api-deprecated'] }, [txt('Deprecated')]));
    if (op.description) parts.push(...this.markdown(op.description));

    const security = Array.isArray(o.security) ? o.security : Array.isArray(this.spec.security) ? this.spec.security : [];
    const required = security.flatMap((r) => (isObject(r) ? Object.keys(r) : []));
    if (required.length)
      parts.push(
        el('p', { className: ['api-auth'] }, [
          txt('Authorization: '),
          ...required.flatMap((n, i) => [...(i ? [txt(', ')] : []), el('code', {}, [txt(n)])]),
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
    const examples: [string, string][] = [];
    if (responses.length) {
      parts.push(el('h4', { className: ['api-section'] }, [txt('Responses')]));
      responses.forEach(([status, raw], i) => {
        const r = this.response(status, this.refs.resolve(raw), i === 0);
        parts.push(r.node);
        if (r.example !== undefined) examples.push([status, r.example]);
      });
    }

    const server = this.servers()[0];
    aside.push(
      requestSamples(op, params, body, {
        server: server ?? '',
        security: arr(this.spec.security),
        schemes: this.schemes(),
        refs: this.refs,
      }),
    );
    if (examples.length)
      aside.push(
        el(
          'div',
          { className: ['tabs', 'api-samples', 'api-response-samples'] },
          examples.map(([status, code]) =>
            el('section', { className: ['tab'] }, [
              el('div', { className: ['tab-title'] }, [txt(status)]),
              el('div', { className: ['tab-body'] }, [codeBox(code, 'json', `Response ${status}`)]),
            ]),
          ),
        ),
      );
    if (!this.opts.hideTryIt?.(op)) {
      const sample = body
        ? body.example !== undefined
          ? body.example
          : body.schema !== undefined
            ? sampleOf(body.schema, this.refs)
            : undefined
        : undefined;
      aside.push(
        el('div', {
          className: ['try-it'],
          dataMethod: method,
          dataPath: op.path,
          dataServer: server,
          dataBody: sample === undefined ? undefined : typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2),
          dataType: body?.contentType,
          dataSecurity: JSON.stringify(securityOf(security, this.schemes(), this.refs)),
          dataProxy: this.spec['x-enable-proxy'] === true ? 'on' : undefined,
        }),
      );
    }
    return el('section', { className: ['api-operation'] }, [
      ...head,
      el('div', { className: ['api-columns'] }, [
        el('div', { className: ['api-main'] }, parts),
        el('div', { className: ['api-aside'] }, aside),
      ]),
    ]);
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

  private response(status: string, r: Obj, open: boolean): { node: ElementContent; example?: string } {
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
    const node = el('details', { className: ['api-response'], open: open || undefined }, [
      el('summary', {}, [
        el('span', { className: ['status', cls] }, [txt(status)]),
        el('span', {}, [txt(inlineOf(str(r.description) ?? ''))]),
      ]),
      el('div', { className: ['api-response-body'] }, inner),
    ]);
    return { node, example: sample === undefined ? undefined : typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2) };
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
    const href = ref.startsWith('#/') ? this.opts.schemaHref?.(name) : undefined;
    return href ? el('a', { href }, [txt(name)]) : txt(name);
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
    // Past the budget a named schema is its link; an unnamed one still shows its fields.
    const linkOnly = ref !== undefined && (this.budget <= 0 || seen.length >= NAMED_DEPTH) && !!this.opts.schemaHref?.(refName(ref));
    const children = cycle || linkOnly || this.budget < -FIELD_BUDGET ? undefined : this.childrenOf(schema, seen);
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

  /** Entries of named schemas, each with its fields (nested named schemas are links to their own entry). */
  componentSchemas(names: string[]): ElementContent[] {
    const c = isObject(this.spec.components) ? this.spec.components : {};
    const defs = isObject(c.schemas) ? c.schemas : isObject(this.spec.definitions) ? this.spec.definitions : {};
    const prefix = isObject(c.schemas) ? '#/components/schemas/' : '#/definitions/';
    return names.map((name) => {
      const schema = defs[name];
      const s = this.refs.resolve(schema);
      // Each entry shows its own fields and a few unnamed nested ones: named schemas are one click away.
      this.budget = 40 - FIELD_BUDGET;
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

/** The servers of a spec, variables at their defaults (Swagger 2: scheme, host and base path). */
export function specServers(spec: OpenAPIDocument): string[] {
  const out: string[] = [];
  for (const s of arr(spec.servers)) if (isObject(s) && typeof s.url === 'string') out.push(expandServer(s));
  if (!out.length && typeof spec.host === 'string') {
    const scheme = typeof arr(spec.schemes)[0] === 'string' ? String(arr(spec.schemes)[0]) : 'https';
    out.push(`${scheme}://${spec.host}${typeof spec.basePath === 'string' ? spec.basePath : ''}`);
  }
  return out;
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

export function badge(method: string): ElementContent {
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
