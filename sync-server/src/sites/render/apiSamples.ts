import type { ElementContent } from 'hast';
import type { RefResolver as Refs, SpecOperation } from '../../core/openapi/render';
import { el, txt } from './elements';
import { highlightLines } from './highlight';

// Examples on API reference pages: sample values made from schemas, and requests to copy.

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Requests to call the operation with, made from its parameters, body and security: curl and fetch(). */
export function requestSamples(
  op: SpecOperation,
  params: Obj[],
  body: { contentType?: string; schema?: unknown; example?: unknown } | undefined,
  spec: { server: string; security: unknown[]; schemes: Obj; refs: Refs },
): ElementContent {
  const server = spec.server.replace(/\/$/, '');
  let path = op.path;
  // A value the author gave, else the parameter's name as a placeholder: `string` in a URL reads as a real value.
  for (const p of params.filter((x) => x.in === 'path')) {
    const given = authored(p, spec.refs);
    if (given !== undefined) path = path.replace(`{${String(p.name)}}`, encodeURIComponent(String(given)));
  }
  const query = params
    .filter((p) => p.in === 'query' && p.required === true)
    .map((p) => `${encodeURIComponent(String(p.name))}=${String(authored(p, spec.refs) ?? `{${String(p.name)}}`)}`);
  const url = `${server}${path}${query.length ? `?${query.join('&')}` : ''}`;
  const headers: [string, string][] = [];
  for (const name of (Array.isArray(op.operation.security) ? op.operation.security : spec.security).flatMap((r) =>
    isObject(r) ? Object.keys(r) : [],
  )) {
    const s = spec.refs.resolve(spec.schemes[name]);
    if (s.type === 'http' && s.scheme === 'basic') headers.push(['Authorization', 'Basic <credentials>']);
    else if (s.type === 'apiKey' && s.in === 'header') headers.push([String(s.name), '<API key>']);
    else if (s.type === 'http' || s.type === 'oauth2' || s.type === 'openIdConnect') headers.push(['Authorization', 'Bearer <token>']);
    break;
  }
  for (const p of params.filter((x) => x.in === 'header' && x.required === true))
    headers.push([String(p.name), String(authored(p, spec.refs) ?? `<${String(p.name)}>`)]);
  let data: string | undefined;
  if (body) {
    headers.push(['Content-Type', body.contentType ?? 'application/json']);
    const sample = body.example !== undefined ? body.example : body.schema !== undefined ? sampleOf(body.schema, spec.refs) : undefined;
    if (sample !== undefined) data = typeof sample === 'string' ? sample : JSON.stringify(sample, null, 2);
  }
  const method = op.method.toUpperCase();
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const curl = [
    `curl -X ${method} ${quote(url)}`,
    ...headers.map(([k, v]) => `  -H ${quote(`${k}: ${v}`)}`),
    ...(data !== undefined ? [`  --data ${quote(data)}`] : []),
  ].join(' \\\n');
  const init = [
    `  method: '${method}',`,
    ...(headers.length
      ? [`  headers: {\n${headers.map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)},`).join('\n')}\n  },`]
      : []),
    ...(data !== undefined ? [`  body: JSON.stringify(${data.replace(/\n/g, '\n  ')}),`] : []),
  ];
  const js = `const response = await fetch(${JSON.stringify(url)}, {\n${init.join('\n')}\n});\nconst data = await response.json();`;
  return el('div', { className: ['tabs', 'api-samples'] }, [
    el('section', { className: ['tab'] }, [
      el('div', { className: ['tab-title'] }, [txt('cURL')]),
      el('div', { className: ['tab-body'] }, [codeBox(curl, 'bash')]),
    ]),
    el('section', { className: ['tab'] }, [
      el('div', { className: ['tab-title'] }, [txt('JavaScript')]),
      el('div', { className: ['tab-body'] }, [codeBox(js, 'javascript')]),
    ]),
  ]);
}

/** The value an author wrote for a parameter (example, default, first enum value), if any. */
function authored(p: Obj, refs: Refs): unknown {
  if (p.example !== undefined) return p.example;
  const s = refs.resolve(p.schema ?? p);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  return undefined;
}

/** A credential the "try it" console asks for. */
export interface Credential {
  scheme: string;
  kind: 'bearer' | 'basic' | 'apiKey';
  /** Header, query or cookie parameter name of an API key. */
  name?: string;
  in?: string;
}

/** The credentials an operation's `security` names, as the console asks for them (the first requirement that it can send). */
export function securityOf(security: unknown[], schemes: Obj, refs: Refs): Credential[] {
  for (const req of security) {
    if (!isObject(req)) continue;
    const out: Credential[] = [];
    for (const scheme of Object.keys(req)) {
      const s = refs.resolve(schemes[scheme]);
      const kind = String(s.scheme ?? '').toLowerCase();
      if (s.type === 'http' && kind === 'basic') out.push({ scheme, kind: 'basic' });
      else if (s.type === 'basic') out.push({ scheme, kind: 'basic' });
      else if (s.type === 'apiKey' && (s.in === 'header' || s.in === 'query'))
        out.push({ scheme, kind: 'apiKey', name: String(s.name), in: String(s.in) });
      else if (s.type === 'http' || s.type === 'oauth2' || s.type === 'openIdConnect') out.push({ scheme, kind: 'bearer' });
    }
    if (out.length) return out;
  }
  return [];
}

/** A highlighted code block with its title and a copy button. */
export function codeBox(code: string, language: string, title?: string): ElementContent {
  const lines = highlightLines(code, language);
  return el('div', { className: ['code-block'] }, [
    el('div', { className: ['code-head'] }, [
      el('span', { className: ['code-title'] }, [txt(title ?? language)]),
      el('button', { className: ['copy'], type: 'button', ariaLabel: 'Copy' }, [txt('Copy')]),
    ]),
    el('pre', { className: ['code'], dataLanguage: language }, [
      el(
        'code',
        { className: ['hljs'] },
        lines.flatMap((l, i) => (i ? [txt('\n'), l] : [l])),
      ),
    ]),
  ]);
}

/** The example a media type object gives, from `example` or its first `examples` entry. */
export function mediaExample(media: Obj, refs: Refs): unknown {
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = refs.resolve(Object.values(media.examples)[0]);
    if (first.value !== undefined) return first.value;
  }
  return undefined;
}

/** An example value for a schema: its own example, default or enum, else one made from its type. */
export function sampleOf(schema: unknown, refs: Refs | { resolve(v: unknown): Obj }, depth = 0, named = 0): unknown {
  if (depth > 6) return undefined;
  // Named schemas inside named schemas are left out past two: samples stay short enough to read (and pages small).
  const isRef = isObject(schema) && typeof schema.$ref === 'string';
  if (isRef && named >= 2) return undefined;
  if (isRef) named++;
  const s = refs.resolve(schema);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((p) => sampleOf(p, refs, depth + 1, named)).filter(isObject));
  for (const k of ['oneOf', 'anyOf'] as const) if (Array.isArray(s[k]) && s[k].length) return sampleOf(s[k][0], refs, depth + 1, named);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array' || s.items !== undefined) {
    const item = sampleOf(s.items, refs, depth + 1, named);
    return item === undefined ? [] : [item];
  }
  if (type === 'object' || isObject(s.properties)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(isObject(s.properties) ? s.properties : {})) {
      const sample = sampleOf(v, refs, depth + 1, named);
      if (sample !== undefined) out[k] = sample;
    }
    return out;
  }
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return true;
  if (type === 'string') {
    if (s.format === 'date-time') return '2024-01-01T00:00:00Z';
    if (s.format === 'date') return '2024-01-01';
    if (s.format === 'uuid') return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    if (s.format === 'email') return 'user@example.com';
    return 'string';
  }
  return undefined;
}
