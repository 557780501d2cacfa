import { Fragment, type Mark, type MarkType, type NodeType, type Node as PMNode } from 'prosemirror-model';
import { isRecord, type NodeJSON } from './json';
import { bodySchema, HINT_STYLES, MAX_HEADING_LEVEL } from './schema';

/** Deeper nesting is cut off: bodies come from clients, and a recursive walk must not overflow the stack. */
const MAX_DEPTH = 128;
const ALIGNMENTS = new Set(['left', 'center', 'right']);
const CODE_LANGUAGE = /^[^\s`|~]{1,64}$/;
/** An anchor is written into `<a href="#…" id="…">`: no quotes, spaces or markup. */
const HEADING_ID = /^[^\s"'<>&#]{1,200}$/u;
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Turns any body-like JSON into a valid body node. Bodies arrive from editors with other
 * schemas, from older clients and from GitBook documents, and a read must never fail or
 * lose text: unknown nodes are unwrapped, unknown attributes and marks dropped, stray
 * inline content wrapped in paragraphs and missing required children filled in.
 */
export function toBodyNode(json: unknown): PMNode {
  const root = isRecord(json) && json.type === 'doc' ? json : { type: 'doc', content: json === undefined ? [] : [json] };
  const children = convertChildren(root, 1);
  return bodySchema.topNodeType.create(null, fit(bodySchema.topNodeType, children));
}

/** {@link toBodyNode} as JSON: the canonical form every reader of a body sees. */
export function normalizeBody(json: unknown): NodeJSON {
  return toBodyNode(json).toJSON() as NodeJSON;
}

/** The body of a new page: one empty paragraph. */
export function emptyBody(): NodeJSON {
  return { type: 'doc', content: [{ type: 'paragraph' }] };
}

function convertChildren(json: Record<string, unknown>, depth: number): PMNode[] {
  if (!Array.isArray(json.content) || depth > MAX_DEPTH) return [];
  return json.content.flatMap((child) => convert(child, depth + 1));
}

function convert(json: unknown, depth: number): PMNode[] {
  if (!isRecord(json) || typeof json.type !== 'string') return [];
  if (json.type === 'text') {
    if (typeof json.text !== 'string' || json.text === '') return [];
    return [bodySchema.text(json.text, convertMarks(json.marks))];
  }
  const type = bodySchema.nodes[json.type];
  const children = convertChildren(json, depth);
  if (!type || type === bodySchema.topNodeType || type.isText) return children;
  const attrs = coerceAttrs(type, json.attrs);
  if (type.isLeaf) return [type.create(attrs)];
  if (type.spec.code) {
    const text = codeText(children);
    return [type.create(attrs, text ? bodySchema.text(text) : null)];
  }
  return [type.create(attrs, fit(type, children))];
}

function convertMarks(json: unknown): Mark[] {
  if (!Array.isArray(json)) return [];
  const marks: Mark[] = [];
  for (const item of json) {
    if (!isRecord(item) || typeof item.type !== 'string') continue;
    const type = bodySchema.marks[item.type];
    if (!type) continue;
    marks.push(type.create(coerceAttrs(type, item.attrs)));
  }
  return marks.reduce<readonly Mark[]>((set, mark) => mark.addToSet(set), []) as Mark[];
}

function codeText(children: readonly PMNode[]): string {
  let text = '';
  children.forEach((child, i) => {
    if (child.isText) text += child.text ?? '';
    else if (child.type.name === 'hardBreak') text += '\n';
    else if (child.isBlock) text += (i > 0 ? '\n' : '') + blockText(child);
  });
  return text;
}

function blockText(node: PMNode): string {
  if (node.isTextblock) return codeText(node.children);
  return node.children.map(blockText).join('\n');
}

/**
 * Fits children into a node type's content expression, in order: matching children are
 * kept, a child that needs a wrapper (a paragraph in a list) gets one, a container that
 * does not fit is unwrapped, and required children still missing are created.
 */
function fit(type: NodeType, input: readonly PMNode[]): Fragment {
  const queue = type.inlineContent ? flattenToInline(input, type) : wrapInlineRuns(input);
  let match = type.contentMatch;
  const out: PMNode[] = [];
  for (let i = 0; i < queue.length; i++) {
    const child = queue[i] as PMNode;
    const direct = match.matchType(child.type);
    if (direct) {
      out.push(child);
      match = direct;
      continue;
    }
    const filler = match.fillBefore(Fragment.from(child));
    const afterFill = filler ? match.matchFragment(filler)?.matchType(child.type) : null;
    if (filler && afterFill) {
      filler.forEach((node) => {
        out.push(node);
      });
      out.push(child);
      match = afterFill;
      continue;
    }
    const wrapping = match.findWrapping(child.type);
    if (wrapping && wrapping.length > 0) {
      let wrapped = child;
      for (let w = wrapping.length - 1; w >= 0; w--) {
        const wrapper = wrapping[w] as NodeType;
        wrapped = wrapper.create(null, fit(wrapper, [wrapped]));
      }
      const next = match.matchType(wrapped.type);
      if (next) {
        out.push(wrapped);
        match = next;
        continue;
      }
    }
    if (!child.isLeaf && child.childCount > 0) queue.splice(i + 1, 0, ...child.children);
  }
  const rest = match.fillBefore(Fragment.empty, true);
  return Fragment.from(out).append(rest ?? Fragment.empty);
}

/** Inline content of a text block: blocks met inside are flattened into their text, separated by breaks. */
function flattenToInline(input: readonly PMNode[], type: NodeType): PMNode[] {
  const out: PMNode[] = [];
  const add = (node: PMNode): void => {
    if (node.isText) {
      out.push(node.mark(node.marks.filter((mark) => type.allowsMarkType(mark.type))));
    } else if (node.isInline) {
      out.push(node.mark([]));
    } else {
      if (out.length > 0) out.push(bodySchema.nodes.hardBreak!.create());
      node.forEach(add);
    }
  };
  input.forEach(add);
  if (!type.validContent(Fragment.from(out))) {
    return out.map((node) => (node.type.name === 'hardBreak' && !type.contentMatch.matchType(node.type) ? bodySchema.text(' ') : node));
  }
  return out;
}

/** Consecutive inline nodes among blocks become one paragraph. */
function wrapInlineRuns(input: readonly PMNode[]): PMNode[] {
  const out: PMNode[] = [];
  let run: PMNode[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const paragraph = bodySchema.nodes.paragraph!;
    out.push(paragraph.create(null, fit(paragraph, run)));
    run = [];
  };
  for (const node of input) {
    if (node.isInline) {
      run.push(node);
    } else {
      flush();
      out.push(node);
    }
  }
  flush();
  return out;
}

function coerceAttrs(type: NodeType | MarkType, raw: unknown): Record<string, unknown> {
  const given = isRecord(raw) ? raw : {};
  const attrs: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(type.spec.attrs ?? {})) {
    attrs[name] = coerceValue(spec.default, given[name]);
  }
  switch (type.name) {
    case 'heading':
      attrs.level = Math.min(MAX_HEADING_LEVEL, Math.max(1, attrs.level as number));
      if (typeof attrs.id === 'string' && !HEADING_ID.test(attrs.id)) attrs.id = null;
      break;
    case 'column':
      attrs.width = columnWidth(isRecord(raw) ? raw.width : null);
      break;
    case 'openapiOperation':
      attrs.method = typeof attrs.method === 'string' && HTTP_METHODS.has(attrs.method.toLowerCase()) ? attrs.method.toLowerCase() : 'get';
      break;
    case 'codeBlock':
      // a language is one word; backticks or pipes in it would break the fence line
      if (typeof attrs.language === 'string' && !CODE_LANGUAGE.test(attrs.language)) attrs.language = null;
      break;
    case 'orderedList':
      attrs.start = Math.max(0, attrs.start as number);
      break;
    case 'hint':
      if (!(HINT_STYLES as readonly string[]).includes(attrs.style as string)) attrs.style = 'info';
      break;
    case 'tableCell':
    case 'tableHeader':
      if (!ALIGNMENTS.has(attrs.align as string)) attrs.align = null;
      break;
  }
  return attrs;
}

/** A column's share of the row in percent (`50`, `"50%"`), or null. */
function columnWidth(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 && n <= 100 ? n : null;
}

function coerceValue(fallback: unknown, value: unknown): unknown {
  if (typeof fallback === 'number') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    return Number.isFinite(n) ? Math.trunc(n) : fallback;
  }
  if (typeof fallback === 'boolean') {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    return fallback;
  }
  if (typeof fallback === 'string') {
    if (typeof value === 'string') return value;
    return typeof value === 'number' ? String(value) : fallback;
  }
  if (typeof value === 'string') return value === '' ? null : value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
}
