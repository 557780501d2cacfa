import { slugify } from '@quire/shared/content/slugs';
import type { OpenAPIDocument } from './parse';
import { groupByTag, internalTags, type SpecOperation, specOperations } from './render';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Past this many operations a tag's page lists its operations and each one gets a page of
 * its own: a reference page stays well under a megabyte and renders quickly, whatever the
 * size of the spec.
 */
export const OPERATIONS_PER_TAG_PAGE = 12;

/**
 * The same by weight: a tag whose operations carry more than this much of the spec (each
 * operation and the definitions it names, as JSON) splits too, so three operations with
 * huge schemas never make one page of several megabytes. Rendered HTML runs to about four
 * times the JSON it shows.
 */
export const SPEC_BYTES_PER_TAG_PAGE = 160 * 1024;

/** Named definitions are expanded inside one another this deep on a page (`NAMED_DEPTH` of the sites' renderer). */
const NAMED_DEPTH = 2;

/** A tag as readers navigate it: its own page, nested under its `x-parent`. */
export interface ApiTag {
  /** The tag's name, or null for the operations without a tag. */
  name: string | null;
  /** `x-page-title`, else the name. */
  title: string;
  /** Unique among its siblings. */
  slug: string;
  description?: string;
  operations: ApiOperationEntry[];
  children: ApiTag[];
  /** Whether each operation has its own page (the tag's page then lists them). */
  split: boolean;
  /** `x-hideTryItPanel` on the tag. */
  hideTryIt: boolean;
}

export interface ApiOperationEntry {
  op: SpecOperation;
  /** Unique within its tag. */
  slug: string;
  title: string;
}

/**
 * The tags of a spec as a tree, in the spec's order: tags as the top-level `tags` list
 * declares them (then tags only operations name, then untagged operations as "Other
 * operations"), each under the tag its `x-parent` names when that tag exists and no cycle
 * forms. Internal tags (`x-internal`) are absent, and so are tags with nothing to show.
 */
export function tagTree(spec: OpenAPIDocument, ops: SpecOperation[] = specOperations(spec)): ApiTag[] {
  const meta = new Map<string, Obj>();
  for (const t of Array.isArray(spec.tags) ? spec.tags : [])
    if (isObject(t) && typeof t.name === 'string' && !meta.has(t.name)) meta.set(t.name, t);
  const internal = internalTags(spec);
  const weight = specWeights(spec);
  const weigh = (entries: { op: SpecOperation }[]) => entries.reduce((sum, e) => sum + weight(e.op.operation), 0);
  const byName = new Map<string | null, ApiTag>();
  const order: (string | null)[] = [];
  const add = (name: string | null, operations: SpecOperation[]) => {
    const m = name === null ? {} : (meta.get(name) ?? {});
    const title = (typeof m['x-page-title'] === 'string' && m['x-page-title']) || name || 'Other operations';
    const taken = new Set<string>();
    const entries = operations.map((op) => {
      const opTitle = op.summary ?? op.operationId ?? `${op.method.toUpperCase()} ${op.path}`;
      const want = slugify(op.operationId ?? opTitle) || `${op.method}-${slugify(op.path) || 'operation'}`;
      let slug = want;
      for (let n = 2; taken.has(slug); n++) slug = `${want}-${n}`;
      taken.add(slug);
      return { op, slug, title: opTitle };
    });
    byName.set(name, {
      name,
      title,
      slug: '',
      description: typeof m.description === 'string' && m.description ? m.description : undefined,
      operations: entries,
      children: [],
      split: entries.length > OPERATIONS_PER_TAG_PAGE || (entries.length > 1 && weigh(entries) > SPEC_BYTES_PER_TAG_PAGE),
      hideTryIt: m['x-hideTryItPanel'] === true,
    });
    order.push(name);
  };
  const groups = groupByTag(spec, ops);
  const opsOf = new Map(groups.map((g) => [g.tag, g.operations]));
  // Declared tags first (a parent may hold no operation of its own), then the rest.
  for (const name of meta.keys()) if (!internal.has(name)) add(name, opsOf.get(name) ?? []);
  for (const g of groups) if (!byName.has(g.tag)) add(g.tag, g.operations);

  const parentOf = (name: string | null): string | undefined => {
    const p = name === null ? undefined : meta.get(name)?.['x-parent'];
    return typeof p === 'string' && p !== name && byName.has(p) ? p : undefined;
  };
  const roots: ApiTag[] = [];
  for (const name of order) {
    const tag = byName.get(name) as ApiTag;
    // A cycle of parents puts the tag at the top.
    const chain = new Set<string | null>([name]);
    let p = parentOf(name);
    while (p !== undefined && !chain.has(p)) {
      chain.add(p);
      p = parentOf(p);
    }
    const parent = parentOf(name);
    if (parent !== undefined && p === undefined) (byName.get(parent) as ApiTag).children.push(tag);
    else roots.push(tag);
  }
  const prune = (list: ApiTag[]): ApiTag[] => {
    const kept = list.map((t) => ({ ...t, children: prune(t.children) })).filter((t) => t.operations.length || t.children.length);
    const taken = new Set<string>();
    for (const t of kept) {
      const want = slugify(t.title) || slugify(t.name ?? '') || 'tag';
      let slug = want;
      for (let n = 2; taken.has(slug); n++) slug = `${want}-${n}`;
      taken.add(slug);
      t.slug = slug;
    }
    return kept;
  };
  return prune(roots);
}

/** Whether the "try it" console is hidden for an operation: `x-hideTryItPanel` on it, its tag or the spec. */
export function tryItHidden(spec: OpenAPIDocument, tag: ApiTag | undefined, op: SpecOperation): boolean {
  return op.operation['x-hideTryItPanel'] === true || tag?.hideTryIt === true || spec['x-hideTryItPanel'] === true;
}

/** Named schemas on one page at most: past it they are split in alphabetical pages. */
export const SCHEMAS_PER_PAGE = 100;

/** The names of a spec's named schemas as pages show them: one list, or alphabetical chunks when there are many. */
export function schemaChunks(spec: OpenAPIDocument): string[][] {
  const c = isObject(spec.components) ? spec.components : {};
  const defs = isObject(c.schemas) ? c.schemas : isObject(spec.definitions) ? spec.definitions : {};
  const names = Object.keys(defs);
  if (names.length <= SCHEMAS_PER_PAGE) return names.length ? [names] : [];
  const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en'));
  const out: string[][] = [];
  for (let i = 0; i < sorted.length; i += SCHEMAS_PER_PAGE) out.push(sorted.slice(i, i + SCHEMAS_PER_PAGE));
  return out;
}

/**
 * How many bytes of JSON an operation shows: itself and the definitions it reaches through
 * local `$ref`s as deep as pages expand them, each counted once. Definitions are measured
 * once per spec.
 */
function specWeights(spec: OpenAPIDocument): (operation: Obj) => number {
  const sizes = new Map<string, { bytes: number; refs: string[] }>();
  const refsIn = (v: unknown, out: string[]) => {
    if (Array.isArray(v)) for (const x of v) refsIn(x, out);
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? out.push(x) : refsIn(x, out);
    return out;
  };
  const measure = (ref: string) => {
    let known = sizes.get(ref);
    if (!known) {
      let target: unknown = spec;
      if (ref.startsWith('#/'))
        for (const seg of ref.slice(2).split('/')) {
          const key = decodeURIComponent(seg.replace(/~1/g, '/').replace(/~0/g, '~'));
          target = isObject(target) ? target[key] : undefined;
        }
      else target = undefined;
      known = { bytes: target === undefined ? 0 : JSON.stringify(target).length, refs: target === undefined ? [] : refsIn(target, []) };
      sizes.set(ref, known);
    }
    return known;
  };
  return (operation) => {
    let bytes = JSON.stringify(operation).length;
    const seen = new Set<string>();
    let level = refsIn(operation, []);
    // As deep as a page expands named definitions inside one another; deeper ones are links.
    for (let depth = 0; depth < NAMED_DEPTH && level.length; depth++) {
      const next: string[] = [];
      for (const ref of level) {
        if (seen.has(ref)) continue;
        seen.add(ref);
        const m = measure(ref);
        bytes += m.bytes;
        next.push(...m.refs);
      }
      level = next;
    }
    return bytes;
  };
}
